/**
 * The generated `summary` step of a wizard: what was entered in each step shown before it — the
 * shown fields with their values (an option's label, a formatted amount) and the items of each
 * list with their shown columns. Nothing is declared for it beyond its place among the steps.
 */
import { useTranslation } from '../../config/texts';
import type { ConditionContext } from '../../../core/conditions';
import { fieldLabelKey } from '../../../core/labels';
import { useConfig } from '../../config/ConfigContext';
import type { FormFieldDecl, WizardDecl, WizardStepDecl } from '../../config/bundle';
import { inputFormatOf } from '../../forms/input-formats';
import { formatDecimal1, formatMoney } from '../../format';
import { getPath, hiddenFields, rowNet, SHOWN_TEXT, type Data } from './wizard-logic';

export function SummaryStep({ screen, steps, data, ctx, namespace }: {
  screen: WizardDecl;
  steps: WizardStepDecl[];
  data: Data;
  ctx: ConditionContext;
  namespace: string;
}) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  const record = (getPath(data, screen.record) as Data | undefined) ?? {};
  const shown = (field: FormFieldDecl, value: unknown): string => {
    const option = field.options?.find((o) => Object.is(o.value, value));
    if (option) return t(option.label);
    // an id chosen by autocomplete shows the text its input showed (the participant's name)
    const text = getPath(data, `${SHOWN_TEXT}.${field.id}`);
    if (field.widget === 'autocomplete' && value !== undefined && value !== null && typeof text === 'string' && text) return text;
    if (value === undefined || value === null || value === '') return t('app:empty');
    const format = inputFormatOf(field.widget);
    return format ? format.display(value) : String(value);
  };

  return (
    <div className="wizard-summary" data-testid="wizard-summary">
      {steps.map((step) => {
        if (step.kind === 'fields') {
          const hidden = hiddenFields(step.fields ?? [], conditions, ctx);
          const fields = (step.fields ?? []).filter((f) => !hidden.has(f.id));
          return (
            <section key={step.id} className="mb-3">
              <h4 className="h6 border-bottom pb-1">{t(step.label)}</h4>
              {/* a step without fields to show (a driver's own participant) repeats its sentence */}
              {!fields.length && step.intro && <p className="small mb-0">{t(step.intro)}</p>}
              <dl className="row mb-0 small">
                {fields.map((f) => (
                  <div key={f.id} className="col-12 col-md-6 d-flex gap-2">
                    <dt className="fw-normal text-secondary">{t(f.label ?? fieldLabelKey(namespace, f.id))}:</dt>
                    <dd className="mb-1" data-field={f.id}>{shown(f, record[f.id])}</dd>
                  </div>
                ))}
              </dl>
            </section>
          );
        }
        if (step.kind === 'list' && step.list) {
          const list = step.list;
          const rows = (getPath(data, list.path) as Data[] | undefined) ?? [];
          const columns = list.columns.filter((c) => conditions.isVisible(c, ctx));
          const labels = list.labels ?? namespace;
          return (
            <section key={step.id} className="mb-3">
              <h4 className="h6 border-bottom pb-1">{t(step.label)}</h4>
              {rows.length === 0 ? (
                <p className="small text-secondary mb-0">{t(list.empty ?? 'app:wizard.emptyList')}</p>
              ) : (
                <ul className="small mb-0">
                  {rows.map((row, i) => (
                    <li key={i}>
                      {columns.map((c) => {
                        const field = list.fields.find((f) => f.id === c.id);
                        const value = c.net ? rowNet(row) : row[c.id];
                        const text = field ? shown(field, value) : c.format === 'money' ? formatMoney(value) : c.format === 'decimal1' ? formatDecimal1(value) : String(value ?? '');
                        return `${t(c.label ?? fieldLabelKey(labels, c.id))}: ${text}`;
                      }).join(' · ')}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        }
        return null;
      })}
    </div>
  );
}
