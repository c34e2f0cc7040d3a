/**
 * What a run found: its counts (each with its name, coloured only when above zero) and the rows in
 * error beside their row number, column and the value the file has there (issue 49).
 */
import { useTranslation } from '../../config/texts';
import { formatNumber } from '../../format';
import type { ImportRun } from './import-api';
import { textKey } from '../../../core/screen-texts/data-import';

export interface CountDecl {
  id: keyof ImportRun['counts'];
  label: string;
  tone?: string;
}

export function RunCounts({ namespace, counts, run }: { namespace: string; counts: CountDecl[]; run: ImportRun }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t(textKey(namespace, 'dryRun.counts'))}>
      <dl className="import-counts" data-testid="import-counts">
        {counts.map((c) => {
          const n = run.counts[c.id] ?? 0;
          return (
            <div key={c.id} className={`import-count${n > 0 && c.tone ? ` import-count--${c.tone}` : ''}`} data-count={c.id}>
              <dt>{t(c.label)}</dt>
              <dd>{formatNumber(n)}</dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

export function RunErrors({ namespace, run, headingId }: { namespace: string; run: ImportRun; headingId: string }) {
  const { t } = useTranslation();
  const tx = (key: Parameters<typeof textKey>[1], vars?: Record<string, unknown>) => t(textKey(namespace, key), vars);
  if (run.errors.length === 0) return <p className="text-success" data-testid="import-no-errors">{tx('dryRun.noErrors')}</p>;
  const rows = [...run.errors].sort((a, b) => a.row - b.row);
  return (
    <>
      <h3 className="h6 mt-3" id={headingId}>{tx('dryRun.errorsTitle')}</h3>
      <div className="table-responsive import-errors-wrap" tabIndex={0} role="region" aria-labelledby={headingId}>
        <table className="table table-sm import-errors" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">{tx('dryRun.row')}</th>
              <th scope="col">{tx('dryRun.column')}</th>
              <th scope="col">{tx('dryRun.value')}</th>
              <th scope="col">{tx('dryRun.message')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e, i) => (
              <tr key={`${e.row}-${e.column}-${i}`} data-row={e.row}>
                <td>{formatNumber(e.row)}</td>
                <td>{e.column ?? ''}</td>
                <td className="import-error-value">{e.value == null ? '' : e.value === '' ? <span className="text-secondary">{tx('dryRun.emptyValue')}</span> : e.value}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {run.counts.errors > run.errors.length && <p className="small text-secondary">{tx('dryRun.moreErrors', { shown: run.errors.length, total: run.counts.errors })}</p>}
    </>
  );
}
