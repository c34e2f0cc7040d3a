/**
 * The approval inbox: rows waiting for the caller's decision (orders to accept), a page at a time
 * like the list, their declared columns, and per row the declared buttons (details-dialog buttons:
 * one per transition the server offers, a `call` with Tak/Nie naming the order and a Polish toast:
 * actions/call-action.ts; destructive ones apart: ActionButtons). A decision taken reads the whole
 * dashboard again (the inbox, the tiles, the list).
 */
import { useState } from 'react';
import Table from 'react-bootstrap/Table';
import { useTranslation } from '../../config/texts';
import type { ConditionContext } from '../../../core/conditions';
import type { InboxColumn, InboxSection } from '../../../core/generated/meta';
import { runAction, type ActionEffects } from '../../actions/run-action';
import { useCallEffects } from '../../actions/useCallEffects';
import { useConfig } from '../../config/ConfigContext';
import { useConditionContext } from '../../config/useConditionContext';
import { formatValue, type Translate } from '../../format';
import { useMediaQuery } from '../../shell/useMediaQuery';
import { ActionButtons } from '../details-dialog/ActionButtons';
import { buttonInstances, type ButtonInstance } from '../details-dialog/record';
import { DataState, Pager, type HeadingLevel, SectionFrame } from './parts';
import { useGet } from './useGet';

type Row = Record<string, unknown>;

const WIDE_INBOX = '(min-width: 992px)';
const DEFAULT_PAGE = 10;

/** `/cockpit/approval-inbox?offset=10&limit=10`. */
const pagePath = (endpoint: string, offset: number, limit: number) => `${endpoint}?${new URLSearchParams({ offset: String(offset), limit: String(limit) })}`;

const blank = (v: unknown) => v === null || v === undefined || v === '';

/** What a field of a row shows: its value (or its fallback field's), formatted. */
function cellText(column: InboxColumn, row: Row, t: Translate): { text: string; isEmpty: boolean } {
  const value = blank(row[column.id]) && column.fallbackField ? row[column.fallbackField] : row[column.id];
  const empty = column.emptyText ? t(column.emptyText) : undefined;
  return { text: formatValue(value, column.format ?? 'text', t, empty, column.valueLabels), isEmpty: blank(value) };
}

/**
 * A word longer than half a phone's card ("техобслуговування"): the field takes the card's whole
 * width there, rather than its word being broken mid-way (styles.css .inbox-card-field-wide).
 */
const LONG_WORD = 14;
const hasLongWord = (text: string) => text.split(/\s+/).some((word) => word.length > LONG_WORD);

function Cell({ column, row, open }: { column: InboxColumn; row: Row; open?: () => void }) {
  const { t } = useTranslation();
  const { text, isEmpty } = cellText(column, row, t);
  if (open && !isEmpty) {
    return (
      <button type="button" className="btn btn-link p-0 text-start" onClick={open}>
        {text}
      </button>
    );
  }
  return <span className={isEmpty ? 'inbox-empty-value' : undefined}>{text}</span>;
}

export function ApprovalInbox({ section, level, version, onDone, openDialog }: {
  section: InboxSection;
  level: HeadingLevel;
  version: number;
  /** A decision was taken: the dashboard reads its data again. */
  onDone: () => void;
  openDialog: ActionEffects['openDialog'];
}) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  const ctx = useConditionContext();
  const wide = useMediaQuery(WIDE_INBOX);
  // cards are several lines tall: where the rows are cards, the page may be shorter
  const limit = (!wide && section.narrowPageSize) || section.pageSize || DEFAULT_PAGE;
  const [page, setPage] = useState({ limit, offset: 0 });
  // another page size (the window turned) starts at the page holding the first row shown
  const offset = page.limit === limit ? page.offset : Math.floor(page.offset / limit) * limit;
  const setOffset = (next: number) => setPage({ limit, offset: next });
  const state = useGet<{ rows: Row[]; total: number }>(pagePath(section.endpoint, offset, limit), version);
  const rows = state.data?.rows ?? [];
  const total = state.data?.total ?? 0;
  // the last order of the last page decided: that page is gone, show the one before it
  if (state.data && !state.loading && rows.length === 0 && offset > 0) setOffset(Math.max(0, Math.floor((total - 1) / limit) * limit));
  // the reload after a decision is the dashboard's own (below); nothing to close
  const calls = useCallEffects({ reload: () => {}, close: () => {} });
  const columns = section.columns.filter((c) => conditions.isVisible(c, ctx));
  const key = (row: Row) => String(row[section.key]);

  const run = (b: ButtonInstance) => {
    const effects: ActionEffects = {
      navigate: () => {},
      openDialog,
      matches: (condition, r) => conditions.matches(condition as never, { ...ctx, record: r ?? null }),
      call: calls.call,
    };
    const work = runAction(b.button.action, { ...b.row, actionLabel: t(b.label) }, effects);
    calls.track(work);
    // a decision taken changes what waits: read everything again (whatever the action's reload says)
    void Promise.resolve(work).then((outcome) => outcome === 'done' && onDone());
  };
  const opener = (row: Row, column: InboxColumn) => {
    const open = section.open;
    if (!open || open.column !== column.id) return undefined;
    return () =>
      runAction({ kind: 'openDialog', screen: open.screen, idField: open.idField ?? section.key, tab: open.tab }, row, { navigate: () => {}, openDialog });
  };
  const buttons = (row: Row, rowCtx: ConditionContext) => buttonInstances(section.actions, row, conditions, rowCtx);

  return (
    <SectionFrame id={section.id} kind="inbox" title={section.title ? t(section.title) : undefined} level={level} headingId={`dashboard-${section.id}`}>
      <div aria-busy={state.loading || calls.busy}>
        <DataState loading={state.loading} error={state.error} hasData={state.data !== null} empty={state.data !== null && rows.length === 0} emptyText={t(section.empty ?? 'dashboard:inbox.empty')} />
        {rows.length > 0 && wide && (
          <Table responsive hover className="inbox-table mb-0 align-middle">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.id} scope="col" className={c.format === 'money' ? 'text-end' : undefined}>{t(c.label)}</th>
                ))}
                {section.actions?.length ? <th scope="col">{t('dashboard:inbox.actions')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={key(row)} data-key={key(row)}>
                  {columns.map((c) => (
                    <td key={c.id} className={c.format === 'money' ? 'text-end text-nowrap' : undefined}>
                      <Cell column={c} row={row} open={opener(row, c)} />
                    </td>
                  ))}
                  {section.actions?.length ? (
                    <td className="inbox-actions">
                      <ActionButtons buttons={buttons(row, { ...ctx, record: row })} busy={calls.busy} size="sm" onRun={run} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        {rows.length > 0 && !wide && (
          <ul className="inbox-cards list-unstyled mb-0">
            {rows.map((row) => (
              <li key={key(row)} className="inbox-card" data-key={key(row)}>
                <dl className="inbox-card-fields mb-2">
                  {columns.map((c) => (
                    <div key={c.id} className={hasLongWord(cellText(c, row, t).text) ? 'inbox-card-field-wide' : undefined}>
                      <dt>{t(c.label)}</dt>
                      <dd><Cell column={c} row={row} open={opener(row, c)} /></dd>
                    </div>
                  ))}
                </dl>
                <ActionButtons buttons={buttons(row, { ...ctx, record: row })} busy={calls.busy} size="sm" onRun={run} />
              </li>
            ))}
          </ul>
        )}
        {state.data && <Pager offset={offset} limit={limit} shown={rows.length} total={total} busy={state.loading} onPage={setOffset} />}
      </div>
      {calls.confirmation}
    </SectionFrame>
  );
}
