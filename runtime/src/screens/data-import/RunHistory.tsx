/**
 * The history of runs below the steps: a page of runs at a time, newest first, its columns as the
 * screen file declares them (a run's property, formatted; a state or mode by its label). Dry runs
 * and imports apart (issue 49): a choice shows imports only (the default: what changed the data),
 * dry runs only, or both; a row opens its run (RunDetails). On a phone each run is a small card,
 * each value under its column's name, so no column is cut off at the right.
 */
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from '../../config/texts';
import { errorText } from '../../api/client';
import { formatDateTime, formatNumber } from '../../format';
import { Loading } from '../Loading';
import type { ImportApi, ImportRun } from './import-api';
import { RunDetails } from './RunDetails';
import type { CountDecl } from './RunResult';
import { textKey } from '../../../core/screen-texts/data-import';

export interface HistoryDecl {
  title: string;
  pageSize?: number;
  columns: { id: string; label: string; format?: 'text' | 'datetime' | 'number' | 'declaration'; valueLabels?: string }[];
}

type Shown = 'import' | 'dryRun' | 'all';
const SHOWN: Shown[] = ['import', 'dryRun', 'all'];

function valueOf(run: ImportRun, path: string): unknown {
  return path.split('.').reduce<unknown>((v, p) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined), run);
}

export function RunHistory({ namespace, history, client, version, declarationLabels, counts }: {
  namespace: string;
  history: HistoryDecl;
  client: ImportApi;
  /** Read again when it changes (a run finished). */
  version: number;
  declarationLabels: Map<string, string>;
  /** The counts a run's details show, as the steps show them. */
  counts: CountDecl[];
}) {
  const { t } = useTranslation();
  const tx = (key: Parameters<typeof textKey>[1], vars?: Record<string, unknown>) => t(textKey(namespace, key), vars);
  const size = history.pageSize ?? 10;
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<Shown>('import');
  const [opened, setOpened] = useState<number | null>(null);
  const [data, setData] = useState<{ rows: ImportRun[]; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    client
      .runs(page, size, controller.signal, shown === 'all' ? undefined : shown)
      .then((d) => {
        setData(d);
        setError(null);
      })
      .catch((e) => !controller.signal.aborted && setError(e));
    return () => controller.abort();
  }, [client, page, size, version, shown]);

  const cell = (run: ImportRun, column: HistoryDecl['columns'][number]) => {
    const value = valueOf(run, column.id);
    if (value === null || value === undefined || value === '') return '';
    if (column.valueLabels) return t(`${column.valueLabels}.${String(value)}`);
    switch (column.format) {
      case 'datetime': return formatDateTime(value) ?? '';
      case 'number': return formatNumber(value) ?? '';
      case 'declaration': return declarationLabels.get(String(value)) ?? String(value);
      default: return String(value);
    }
  };
  const pages = data ? Math.max(1, Math.ceil(data.total / size)) : 1;
  return (
    <section className="import-history mt-4" aria-labelledby="import-history-title" data-testid="import-history">
      <div className="d-flex flex-wrap align-items-end justify-content-between gap-2 mb-2">
        <h2 className="h5 mb-0" id="import-history-title">{t(history.title)}</h2>
        <Form.Group controlId="import-history-shown" className="import-history-shown">
          <Form.Label className="small mb-1">{tx('history.shown')}</Form.Label>
          <Form.Select size="sm" value={shown} onChange={(e) => { setShown(e.target.value as Shown); setPage(1); }}>
            {SHOWN.map((s) => <option key={s} value={s}>{tx(`history.shownOptions.${s}`)}</option>)}
          </Form.Select>
        </Form.Group>
      </div>
      {error ? <Alert variant="danger" className="py-2">{errorText(error)}</Alert> : null}
      {!data && !error && <Loading />}
      {data && data.rows.length === 0 && <p className="text-secondary">{tx('history.empty')}</p>}
      {data && data.rows.length > 0 && (
        <>
          {/* a region the keyboard can scroll when the table is wider than its place */}
          <div className="table-responsive" tabIndex={0} role="region" aria-labelledby="import-history-title">
            <table className="table table-sm table-striped table-hover import-history-table" aria-labelledby="import-history-title">
              <thead>
                <tr>
                  {history.columns.map((c) => <th key={c.id} scope="col">{t(c.label)}</th>)}
                  <th scope="col"><span className="visually-hidden">{tx('history.open')}</span></th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((run) => (
                  <tr key={run.id} data-run={run.id} data-mode={run.mode} onClick={() => setOpened(run.id)}>
                    {history.columns.map((c) => <td key={c.id} data-column={c.id} data-label={t(c.label)}>{cell(run, c)}</td>)}
                    <td className="import-history-open">
                      {/* the row's click is the mouse's; this button is the keyboard's and names the run */}
                      <Button size="sm" variant="outline-primary" onClick={(e) => { e.stopPropagation(); setOpened(run.id); }}
                        aria-label={tx('history.openRun', { file: run.fileName, at: formatDateTime(run.createdAt) ?? '' })}>
                        {tx('history.open')}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <div className="d-flex align-items-center gap-2">
              <Button size="sm" variant="outline-secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>{tx('history.previous')}</Button>
              <span aria-live="polite">{tx('history.page', { page, pages })}</span>
              <Button size="sm" variant="outline-secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>{tx('history.next')}</Button>
            </div>
          )}
        </>
      )}
      {opened !== null && (
        <RunDetails namespace={namespace} client={client} id={opened} counts={counts} declarationLabels={declarationLabels} onClose={() => setOpened(null)} />
      )}
    </section>
  );
}
