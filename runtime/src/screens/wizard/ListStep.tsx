/**
 * A `list` step of a wizard: the items of a list of the wizard's data (an order's positions, the
 * notes typed in), kept in the browser until the save. Add, edit and delete rows; an item's form is
 * an @rjsf form on its schema with the step's fields (conditions see the item, and the wizard's
 * record under `parent`: tyre or not); a new item starts from the declared defaults. Columns hide by
 * their conditions (prices when cenaWidoczna is not T); the net of a row and the totals come from
 * runtime/core/order-values.ts, the function the server stores. A file field (an attachment's file)
 * is checked against its fileLimits; the item holds the file's name, the File stays in `itemFiles`.
 */
import type { FormValidation, RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { useImperativeHandle, useMemo, useRef, useState, type RefObject } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useTranslation } from '../../config/texts';
import type { ConditionContext } from '../../../core/conditions';
import { fieldLabelKey } from '../../../core/labels';
import { useConfig } from '../../config/ConfigContext';
import type { WizardDecl } from '../../config/bundle';
import { formatDecimal1, formatMoney, formatNumber } from '../../format';
import { ConfiguredForm } from '../../forms/ConfiguredForm';
import { fileLimitsOf, fileProblem, type ChosenFiles } from '../../forms/file-checks';
import { translateErrors } from '../../forms/messages';
import { buildUiSchema } from '../../forms/ui-schema';
import type { ItemFiles } from './follow-ups';
import type { StepHandle } from './step-handle';
import { getPath, hiddenFields, itemSchemaOf, listTotals, newItem, rowNet, setPath, stepSchema, type Data, type ListDecl } from './wizard-logic';

type Column = ListDecl['columns'][number];

export function ListStep({ list, screen, data, ctx, namespace, month, onChange, handle, itemFiles }: {
  list: ListDecl;
  screen: WizardDecl;
  data: Data;
  ctx: ConditionContext;
  namespace: string;
  month: number;
  onChange: (update: (data: Data) => Data) => void;
  handle: RefObject<StepHandle | null>;
  /** The files chosen in items' file fields, by item (an attachment's file), kept beside the data. */
  itemFiles: ItemFiles;
}) {
  const { t } = useTranslation();
  const { bundle, conditions } = useConfig();
  const labels = list.labels ?? namespace;
  const rows = (getPath(data, list.path) as Data[] | undefined) ?? [];
  const record = (ctx.record ?? {}) as Data;
  // the item being typed, with the files chosen in its file fields so far
  const [editing, setEditing] = useState<{ index: number; item: Data; files: ChosenFiles } | null>(null);
  const [live, setLive] = useState(false);
  // photos of the item still being scaled (forms/photos.ts): the item is confirmed only with them
  const [preparing, setPreparing] = useState(0);
  const form = useRef<any>(null);
  const itemSchema = useMemo(() => itemSchemaOf(list, bundle.schemas[screen.schema], bundle.schemas), [list, bundle.schemas, screen.schema]);

  const itemCtx = { ...ctx, record: { ...(editing?.item ?? {}), parent: record } };
  const hidden = hiddenFields(list.fields, conditions, itemCtx);
  const hiddenKey = [...hidden].join();
  const schema = stepSchema(itemSchema, list.fields, hidden, conditions, itemCtx) as RJSFSchema;
  const uiSchema = useMemo(
    () => buildUiSchema(list.fields, { t, namespace: labels, hidden, hideSubmit: true }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [list.fields, t, labels, hiddenKey],
  );
  const columns = list.columns.filter((c) => conditions.isVisible(c, ctx));
  const totalsShown = list.totals && conditions.isVisible(list.totals, ctx);
  const totals = totalsShown ? listTotals(rows) : null;

  // an item left half-typed is not lost silently: Następny asks to finish or cancel it first
  useImperativeHandle(handle, () => ({ validate: () => editing === null || saveItem() }));

  const setRows = (next: Data[]) => onChange((d) => setPath(d, list.path, next));
  const saveItem = (): boolean => {
    if (preparing > 0) return false;
    setLive(true);
    if (!editing || !form.current?.validateForm()) return false;
    const shown = Object.fromEntries(Object.entries(editing.item).filter(([k, v]) => !hidden.has(k) && v !== undefined));
    const files = new Map([...editing.files].filter(([field]) => shown[field] !== undefined));
    if (files.size) itemFiles.set(shown, files);
    setRows(editing.index < 0 ? [...rows, shown] : rows.map((r, i) => (i === editing.index ? shown : r)));
    setEditing(null);
    setLive(false);
    return true;
  };
  // a file of a wrong extension or too large is refused with the upload dialog's messages (spec §8)
  const customValidate = (item: Data | undefined, errors: FormValidation<Data>) => {
    for (const field of list.fields) {
      if (field.widget !== 'file' || !field.fileLimits || hidden.has(field.id)) continue;
      const file = editing?.files.get(field.id);
      const problem = file && item?.[field.id] !== undefined ? fileProblem(file, fileLimitsOf(field.fileLimits, bundle.config as Data), field.fileLimits) : null;
      if (problem) (errors as any)[field.id]?.addError(t(problem.key, problem.vars));
    }
    return errors;
  };
  const edit = (index: number, item: Data) => setEditing({ index, item, files: new Map(index < 0 ? [] : (itemFiles.get(rows[index]) ?? [])) });
  const labelOf = (c: Column) => t(c.label ?? fieldLabelKey(labels, c.id));
  const cell = (row: Data, c: Column): string => {
    const value = c.net ? rowNet(row) : row[c.id];
    const field = list.fields.find((f) => f.id === c.id);
    const option = field?.options?.find((o) => Object.is(o.value, value));
    if (option) return t(option.label);
    if (value === undefined || value === null || value === '') return t('app:empty');
    if (c.format === 'money') return formatMoney(value) ?? '';
    if (c.format === 'decimal1') return formatDecimal1(value) ?? '';
    if (c.format === 'number') return formatNumber(value) ?? '';
    return String(value);
  };

  return (
    <div className="wizard-list" data-list={list.path}>
      {rows.length === 0 && !editing && <p className="text-secondary">{t(list.empty ?? 'app:wizard.emptyList')}</p>}
      {rows.length > 0 && (
        <Table size="sm" responsive className="align-middle">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.id} scope="col" className={c.format && c.format !== 'text' ? 'text-end' : undefined}>{labelOf(c)}</th>
              ))}
              <th scope="col"><span className="visually-hidden">{t('app:wizard.rowActions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                {columns.map((c) => (
                  <td key={c.id} className={c.format && c.format !== 'text' ? 'text-end text-nowrap' : undefined}>{cell(row, c)}</td>
                ))}
                <td className="text-end text-nowrap">
                  <Button size="sm" variant="outline-secondary" className="me-1" disabled={!!editing} onClick={() => edit(i, { ...row })} aria-label={`${t('app:wizard.editRow')} ${i + 1}`}>
                    <i className="bi bi-pencil" aria-hidden="true" />
                  </Button>
                  <Button size="sm" variant="outline-danger" disabled={!!editing} onClick={() => setRows(rows.filter((_, j) => j !== i))} aria-label={`${t('app:wizard.deleteRow')} ${i + 1}`}>
                    <i className="bi bi-trash" aria-hidden="true" />
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
          {totals && (
            <tfoot>
              <tr>
                <td colSpan={columns.length + 1} className="text-end">
                  <span className="me-3" data-testid="wizard-total">{t('order:totals.total')}: <strong>{formatMoney(totals.total)}</strong></span>
                  <span data-testid="wizard-total-authorized">{t('order:totals.totalAuthorized')}: <strong>{formatMoney(totals.totalAuthorized)}</strong></span>
                </td>
              </tr>
            </tfoot>
          )}
        </Table>
      )}
      {editing ? (
        <div className="card card-body bg-light" role="group" aria-label={t(editing.index < 0 ? (list.addLabel ?? 'app:wizard.addRow') : 'app:wizard.editRow')}>
          <ConfiguredForm
            ref={form}
            className="form-dialog-grid"
            schema={schema}
            uiSchema={uiSchema}
            formData={editing.item}
            customValidate={customValidate}
            formContext={{ files: editing.files, onPreparing: (busy: boolean) => setPreparing((n) => Math.max(0, n + (busy ? 1 : -1))) }}
            transformErrors={(errors: RJSFValidationError[]) => translateErrors(errors, t, schema, { hiddenFields: hidden })}
            liveValidate={live ? 'onChange' : undefined}
            onChange={(e) => setEditing((current) => (current ? { ...current, item: (e.formData ?? {}) as Data } : current))}
            idPrefix={`wizard-${list.path}`}
          >
            <></>
          </ConfiguredForm>
          <div className="d-flex gap-2 justify-content-end">
            <Button variant="outline-secondary" size="sm" onClick={() => { setEditing(null); setLive(false); }}>
              {t('app:wizard.cancelRow')}
            </Button>
            <Button size="sm" disabled={preparing > 0} onClick={() => saveItem()}>
              {t('app:wizard.saveRow')}
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="outline-primary" size="sm" onClick={() => edit(-1, newItem(list, conditions, ctx, month))}>
          <i className="bi bi-plus-lg me-1" aria-hidden="true" />
          {t(list.addLabel ?? 'app:wizard.addRow')}
        </Button>
      )}
    </div>
  );
}
