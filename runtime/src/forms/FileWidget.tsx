/**
 * The file input of the forms (`widget: "file"`, e.g. an attachment's file): one file, offered
 * with the extensions the configuration allows; the form data holds its name (so "required" works
 * as for any field) and the file itself goes to the form's chosen files (formContext.files), which
 * a multipart submit sends. The limits and the refusal messages are the field's `fileLimits`
 * (ui:options), checked by the form before sending (file-checks.ts). A photo is scaled and its
 * EXIF (location) removed before it is kept (forms/photos.ts); a photo field (`fileLimits.camera`)
 * opens the phone's rear camera.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useState } from 'react';
import { useTranslation } from '../config/texts';
import { useConfig } from '../config/ConfigContext';
import { acceptOf, fileLimitsOf, type ChosenFiles, type FileLimitsDecl } from './file-checks';
import { CAMERA, isPhoto, preparePhoto } from './photos';

export interface FileFormContext {
  files?: ChosenFiles;
  /** Told when a photo starts and ends being scaled, so the form's confirm waits for it (the file is not in `files` until then). */
  onPreparing?: (preparing: boolean) => void;
}

export function FileWidget(props: WidgetProps) {
  const { id, disabled, readonly, required, rawErrors, onBlur, onFocus } = props;
  const { t } = useTranslation();
  const { bundle } = useConfig();
  const decl = props.options.fileLimits as FileLimitsDecl | undefined;
  const field = props.options.fieldId as string;
  const limits = decl ? fileLimitsOf(decl, bundle.config as Record<string, unknown>) : undefined;
  const { files, onPreparing } = (props.registry.formContext as FileFormContext | undefined) ?? {};
  const invalid = (rawErrors?.length ?? 0) > 0;
  const hintId = `${id}__hint`;
  const [preparing, setPreparing] = useState(false);
  const [failed, setFailed] = useState(false);
  return (
    <>
      <input
        id={id}
        name={id}
        type="file"
        className={`form-control${invalid ? ' is-invalid' : ''}`}
        accept={limits ? acceptOf(limits) : undefined}
        capture={decl?.camera ? CAMERA : undefined}
        disabled={disabled || readonly || preparing}
        required={required}
        aria-invalid={invalid || undefined}
        aria-describedby={[invalid ? `${id}__error` : '', decl?.hint ? hintId : ''].filter(Boolean).join(' ') || undefined}
        onChange={async (e) => {
          const chosen = e.target.files?.[0];
          setFailed(false);
          if (!chosen) {
            files?.delete(field);
            props.onChange(undefined);
            return;
          }
          let file = chosen;
          if (isPhoto(chosen)) {
            setPreparing(true);
            onPreparing?.(true);
            try {
              file = await preparePhoto(chosen);
            } catch {
              // never sent with its location: the user takes or chooses it again
              files?.delete(field);
              props.onChange(undefined);
              setFailed(true);
              return;
            } finally {
              setPreparing(false);
              onPreparing?.(false);
            }
          }
          files?.set(field, file);
          props.onChange(file.name);
        }}
        onBlur={() => onBlur(id, props.value)}
        onFocus={() => onFocus(id, props.value)}
      />
      {preparing && <div className="form-text" role="status">{t('attachment:photo.preparing')}</div>}
      {failed && <div className="form-text text-danger" role="alert">{t('attachment:photo.failed')}</div>}
      {decl?.hint && limits && (
        <div id={hintId} className="form-text">
          {t(decl.hint, { extensions: limits.extensions.join(', '), mb: limits.mb })}
        </div>
      )}
    </>
  );
}
