/**
 * The history of runs below the steps: a page of runs at a time, newest first, its columns as the
 * screen file declares them (a run's property, formatted; a state or mode by its label).
 */
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/client';
import { formatDateTime, formatNumber } from '../../format';
import { Loading } from '../Loading';
import type { ImportApi, ImportRun } from './import-api';
import { textKey } from './texts';

export interface HistoryDecl {
  title: string;
  pageSize?: number;
  columns: { id: string; label: string; format?: 'text' | 'datetime' | 'number' | 'declaration'; valueLabels?: string }[];
}

function valueOf(run: ImportRun, path: string): unknown {
  return path.split('.').reduce<unknown>((v, p) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined), run);
}

export function RunHistory({ namespace, history, client, version, declarationLabels }: {
  namespace: string;
  history: HistoryDecl;
  client: ImportApi;
  /** Read again when it changes (a run finished). */
  version: number;
  declarationLabels: Map<string, string>;
}) {
  const { t } = useTranslation();
  const size = history.pageSize ?? 10;
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ rows: ImportRun[]; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    client
      .runs(page, size, controller.signal)
      .then((d) => {
        setData(d);
        setError(null);
      })
      .catch((e) => !controller.signal.aborted && setError(e));
    return () => controller.abort();
  }, [client, page, size, version]);

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
      <h2 className="h5" id="import-history-title">{t(history.title)}</h2>
      {error ? <Alert variant="danger" className="py-2">{errorText(error)}</Alert> : null}
      {!data && !error && <Loading />}
      {data && data.rows.length === 0 && <p className="text-secondary">{t(textKey(namespace, 'history.empty'))}</p>}
      {data && data.rows.length > 0 && (
        <>
          {/* a region the keyboard can scroll when the table is wider than a phone */}
          <div className="table-responsive" tabIndex={0} role="region" aria-labelledby="import-history-title">
            <table className="table table-sm table-striped import-history-table" aria-labelledby="import-history-title">
              <thead>
                <tr>{history.columns.map((c) => <th key={c.id} scope="col">{t(c.label)}</th>)}</tr>
              </thead>
              <tbody>
                {data.rows.map((run) => (
                  <tr key={run.id} data-run={run.id}>
                    {history.columns.map((c) => <td key={c.id} data-column={c.id}>{cell(run, c)}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <div className="d-flex align-items-center gap-2">
              <Button size="sm" variant="outline-secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t(textKey(namespace, 'history.previous'))}</Button>
              <span aria-live="polite">{t(textKey(namespace, 'history.page'), { page, pages })}</span>
              <Button size="sm" variant="outline-secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>{t(textKey(namespace, 'history.next'))}</Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
