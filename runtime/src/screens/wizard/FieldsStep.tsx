/**
 * A `fields` step of a wizard: an @rjsf form on the wizard's record (the request schema's property
 * named by `record`, e.g. order), with the step's fields, widgets and conditions. The wizard asks
 * it to validate before Następny; the messages are the forms' Polish ones (spec §5).
 */
import type { RJSFValidationError } from '@rjsf/utils';
import { useImperativeHandle, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from '../../config/texts';
import type { ConditionContext } from '../../../core/conditions';
import { useConfig } from '../../config/ConfigContext';
import type { WizardDecl, WizardStepDecl } from '../../config/bundle';
import { ConfiguredForm } from '../../forms/ConfiguredForm';
import type { AutocompleteFormContext } from '../../forms/AutocompleteWidget';
import { fillTemplate, type AutocompleteSource } from '../../forms/autocomplete';
import { translateErrors } from '../../forms/messages';
import { buildUiSchema } from '../../forms/ui-schema';
import type { StepHandle } from './step-handle';
import { getPath, hiddenFields, recordSchemaOf, setPath, SHOWN_TEXT, stepSchema, type Data } from './wizard-logic';

export function FieldsStep({ step, screen, data, ctx, namespace, onChange, onAutocompleteChoice, handle }: {
  step: WizardStepDecl;
  screen: WizardDecl;
  data: Data;
  ctx: ConditionContext;
  namespace: string;
  onChange: (update: (data: Data) => Data) => void;
  onAutocompleteChoice: (fill: Record<string, string> | undefined, item: Data) => void;
  handle: RefObject<StepHandle | null>;
}) {
  const { t } = useTranslation();
  const { bundle, conditions } = useConfig();
  const fields = step.fields ?? [];
  const record = (getPath(data, screen.record) as Data | undefined) ?? {};
  const recordSchema = useMemo(() => recordSchemaOf(screen, bundle.schemas[screen.schema]), [bundle.schemas, screen]);
  const hidden = hiddenFields(fields, conditions, ctx);
  const hiddenKey = [...hidden].join();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const schema = useMemo(() => stepSchema(recordSchema, fields, hidden, conditions, ctx), [recordSchema, fields, hiddenKey, conditions, ctx]);
  const disabled = new Set(fields.filter((f) => conditions.isDisabled(f, ctx)).map((f) => f.id));
  const disabledKey = [...disabled].join();
  const uiSchema = useMemo(
    () => buildUiSchema(fields, { t, namespace, hidden, disabled, hideSubmit: true }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [fields, t, namespace, hiddenKey, disabledKey],
  );
  const form = useRef<any>(null);
  const [live, setLive] = useState(false);
  useImperativeHandle(handle, () => ({
    validate: () => {
      setLive(true);
      return form.current?.validateForm() ?? true;
    },
  }));

  /** A field that follows another (the order type of the intervention chosen) takes its value. */
  const change = (next: Data) => {
    const followed = { ...next };
    for (const field of fields) {
      const rule = field.followValue;
      if (rule && next[rule.field] !== record[rule.field] && Object.hasOwn(rule.values, String(next[rule.field]))) {
        followed[field.id] = (rule.values as Data)[String(next[rule.field])];
      }
    }
    onChange((d) => setPath(d, screen.record, { ...((getPath(d, screen.record) as Data | undefined) ?? {}), ...followed }));
  };
  const formContext: AutocompleteFormContext = {
    onAutocompleteChoice: (source: AutocompleteSource, item) => {
      onAutocompleteChoice(source.fill, item);
      // the text the input shows for a chosen id (a participant), kept for the summary
      const field = fields.find((f) => f.source?.endpoint === source.endpoint && f.source.valueField === source.valueField);
      if (field && source.inputText) onChange((d) => setPath(d, `${SHOWN_TEXT}.${field.id}`, fillTemplate(source.inputText!, item)));
    },
  };
  const transformErrors = (errors: RJSFValidationError[]) => translateErrors(errors, t, schema, { hiddenFields: hidden });

  return (
    <ConfiguredForm
      ref={form}
      className="wizard-form form-dialog-grid"
      schema={schema}
      uiSchema={uiSchema}
      formData={record}
      formContext={formContext}
      transformErrors={transformErrors}
      liveValidate={live ? 'onChange' : undefined}
      onChange={(e) => change((e.formData ?? {}) as Data)}
      focusOnFirstError
      idPrefix={`wizard-${step.id}`}
    >
      <></>
    </ConfiguredForm>
  );
}
