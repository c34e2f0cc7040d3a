/**
 * A list of rows the dialog's record carries (an order's positions, its status history) as a plain
 * table: columns shown by their conditions (prices hidden when the order says so), buttons above
 * it about the record (add) and in each row about the row (edit, delete), a summary under it.
 */
import Table from 'react-bootstrap/Table';
import { useTranslation } from '../../config/texts';
import { hiddenColumnsOf } from '../../../core/hidden-columns';
import type { ConditionContext } from '../../../core/conditions';
import { fieldLabelKey } from '../../../core/labels';
import { useConfig } from '../../config/ConfigContext';
import type { DetailsListDecl } from '../../config/bundle';
import { formatKindFor, formatValue } from '../../format';
import { EmptyState } from '../EmptyState';
import { ActionButtons } from './ActionButtons';
import { buttonInstances, listRows, type ButtonInstance } from './record';

type Data = Record<string, unknown>;
type Column = DetailsListDecl['columns'][number];

export function RecordList({ list, record, ctx, busy, onRun }: {
  list: DetailsListDecl;
  record: Data;
  ctx: ConditionContext;
  busy: boolean;
  /** Runs a button's action; `parent` is set for a row's buttons. */
  onRun: (b: ButtonInstance, parent?: Data) => void;
}) {
  const { t } = useTranslation();
  const { bundle, conditions } = useConfig();
  const schema = list.entity ? bundle.schemas[list.entity] : undefined;
  const hidden = hiddenColumnsOf(bundle.config, list.entity);
  const columns = list.columns.filter((c) => !hidden.has(c.id) && conditions.isVisible(c, ctx));
  const rows = listRows(record, list.field);
  const label = (c: Column) => t(c.label ?? (list.entity ? fieldLabelKey(list.entity, c.id) : c.id));
  const show = (c: Column, row: Data) => formatValue(row[c.id], formatKindFor(schema?.properties?.[c.id], c.format), t, undefined, c.valueLabels);
  const top = buttonInstances(list.actions, record, conditions, ctx);
  const summary = list.summary && record[list.summary.field] && typeof record[list.summary.field] === 'object' ? (record[list.summary.field] as Data) : null;
  const titleId = `list-${list.id}`;
  // a sentence about the list the record's answer asks for (a record older than the audit trail)
  const noteValue = list.note ? record[list.note.field] : undefined;
  const note = list.note && noteValue !== null && noteValue !== undefined && noteValue !== '' ? t(list.note.text, { value: String(noteValue) }) : null;

  return (
    <section className="details-list mt-3" aria-labelledby={list.title ? titleId : undefined} data-list={list.id}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        {list.title && <h3 className="details-section-title flex-grow-1 mb-0" id={titleId}>{t(list.title)}</h3>}
        <ActionButtons buttons={top} busy={busy} size="sm" onRun={(b) => onRun(b)} />
      </div>
      {rows.length === 0 ? (
        note ? null : <EmptyState text={t(list.empty ?? 'table:noRows')} />
      ) : (
        // in a narrow dialog (a phone, or 900 px) each row is a block of labelled lines (styles.css
        // .details-list, issue 49: the row's buttons stay in reach); a wide one is a table, which may
        // scroll sideways: the scrolling box takes the keyboard's focus (axe scrollable-region-focusable)
        <div className="table-responsive" tabIndex={0} {...(list.title ? { role: 'region', 'aria-labelledby': titleId } : {})}>
        <Table size="sm" hover className="align-middle mb-0 details-list-table">
          <thead>
            <tr>
              {columns.map((c) => <th key={c.id} scope="col" data-column={c.id}>{label(c)}</th>)}
              {list.rowActions?.length ? <th scope="col"><span className="visually-hidden">{t('table:rowActions')}</span></th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => {
              const rowButtons = buttonInstances(list.rowActions, row, conditions, { ...ctx, record: row, parent: record });
              return (
                <tr key={list.key ? String(row[list.key]) : i} data-row={list.key ? String(row[list.key]) : i}>
                  {columns.map((c) => <td key={c.id} data-column={c.id} data-label={label(c)}>{show(c, row)}</td>)}
                  {list.rowActions?.length ? (
                    <td className="text-end">
                      <ActionButtons buttons={rowButtons} busy={busy} size="sm" className="justify-content-end flex-nowrap" onRun={(b) => onRun(b, record)} />
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </Table>
        </div>
      )}
      {note && <p className="details-list-note text-secondary small mt-2 mb-0" data-testid="list-note">{note}</p>}
      {summary && list.summary && (
        <dl className="details-summary d-flex flex-wrap justify-content-end gap-4 mt-2 mb-0">
          {list.summary.fields.filter((f) => conditions.isVisible(f, ctx)).map((f) => (
            <div key={f.id} data-field={f.id} className="d-flex gap-2">
              <dt className="fw-normal text-secondary">{t(f.label ?? f.id)}</dt>
              <dd className="mb-0 fw-semibold">{formatValue(summary[f.id], formatKindFor(undefined, f.format), t, undefined, f.valueLabels)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
