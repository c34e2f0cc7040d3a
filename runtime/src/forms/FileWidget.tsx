/**
 * The file input of the forms (`widget: "file"`, e.g. an attachment's file): one file, offered
 * with the extensions the configuration allows; the form data holds its name (so "required" works
 * as for any field) and the file itself goes to the form's chosen files (formContext.files), which
 * a multipart submit sends. The limits and the refusal messages are the field's `fileLimits`
 * (ui:options), checked by the form before sending (file-checks.ts).
 */
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from '../config/texts';
import { useConfig } from '../config/ConfigContext';
import { acceptOf, fileLimitsOf, type ChosenFiles, type FileLimitsDecl } from './file-checks';

export interface FileFormContext {
  files?: ChosenFiles;
}

export function FileWidget(props: WidgetProps) {
  const { id, disabled, readonly, required, rawErrors, onBlur, onFocus } = props;
  const { t } = useTranslation();
  const { bundle } = useConfig();
  const decl = props.options.fileLimits as FileLimitsDecl | undefined;
  const field = props.options.fieldId as string;
  const limits = decl ? fileLimitsOf(decl, bundle.config as Record<string, unknown>) : undefined;
  const files = (props.registry.formContext as FileFormContext | undefined)?.files;
  const invalid = (rawErrors?.length ?? 0) > 0;
  const hintId = `${id}__hint`;
  return (
    <>
      <input
        id={id}
        name={id}
        type="file"
        className={`form-control${invalid ? ' is-invalid' : ''}`}
        accept={limits ? acceptOf(limits) : undefined}
        disabled={disabled || readonly}
        required={required}
        aria-invalid={invalid || undefined}
        aria-describedby={[invalid ? `${id}__error` : '', decl?.hint ? hintId : ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) files?.set(field, file);
          else files?.delete(field);
          props.onChange(file ? file.name : undefined);
        }}
        onBlur={() => onBlur(id, props.value)}
        onFocus={() => onFocus(id, props.value)}
      />
      {decl?.hint && limits && (
        <div id={hintId} className="form-text">
          {t(decl.hint, { extensions: limits.extensions.join(', '), mb: limits.mb })}
        </div>
      )}
    </>
  );
}
