/**
 * One run of the history, opened (issue 49): what it was (dry run or import, of what, which file,
 * when, by whom, with which choices), its counts, its message, its rows in error with the file's
 * values, and the file of those rows to fix.
 */
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { errorText } from '../../api/client';
import { formatDateTime } from '../../format';
import { Loading } from '../Loading';
import type { ImportApi, ImportRun } from './import-api';
import { RunCounts, RunErrors, type CountDecl } from './RunResult';
import { textKey } from '../../../core/screen-texts/data-import';

export function RunDetails({ namespace, client, id, counts, declarationLabels, onClose }: {
  namespace: string;
  client: ImportApi;
  id: number;
  counts: CountDecl[];
  declarationLabels: Map<string, string>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const tx = (key: Parameters<typeof textKey>[1], vars?: Record<string, unknown>) => t(textKey(namespace, key), vars);
  const [run, setRun] = useState<ImportRun | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    client.run(id, controller.signal).then(setRun).catch((e) => !controller.signal.aborted && setError(e));
    return () => controller.abort();
  }, [client, id]);

  const facts = run ? [
    [tx('history.columns.declaration'), declarationLabels.get(run.declaration) ?? run.declaration],
    [tx('history.columns.fileName'), run.fileName],
    [tx('history.columns.createdAt'), formatDateTime(run.createdAt) ?? ''],
    [tx('history.columns.createdBy'), run.createdBy.name],
    [tx('history.columns.state'), t(`${namespace}:states.${run.state}`)],
    [tx('dryRun.onErrorLegend'), t(`${namespace}:choices.${run.onError}`)],
    [tx('dryRun.missingLegend'), t(`${namespace}:choices.${run.missing}`)],
  ] : [];
  return (
    <Modal show size="lg" onHide={onClose} aria-labelledby="import-run-title" data-testid="import-run-details">
      <Modal.Header closeButton closeLabel={tx('history.close')}>
        <Modal.Title id="import-run-title" as="h2" className="h5">
          {run ? tx('history.runTitle', { mode: t(`${namespace}:modes.${run.mode}`), file: run.fileName }) : tx('history.open')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {error ? <Alert variant="danger">{errorText(error)}</Alert> : null}
        {!run && !error && <Loading />}
        {run && (
          <>
            <dl className="import-run-facts">
              {facts.map(([label, value]) => (
                <div key={label}><dt>{label}</dt><dd>{value}</dd></div>
              ))}
            </dl>
            <RunCounts namespace={namespace} counts={counts} run={run} />
            {run.message && <p className="small">{run.message}</p>}
            <RunErrors namespace={namespace} run={run} headingId="import-run-errors-title" />
            {run.counts.errors > 0 && (
              <Button variant="outline-secondary" size="sm" onClick={() => void client.downloadErrors(run.id).catch((e) => setError(e))}>
                <i className="bi bi-file-earmark-excel me-1" aria-hidden="true" />
                {tx('dryRun.download')}
              </Button>
            )}
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>{tx('history.close')}</Button>
      </Modal.Footer>
    </Modal>
  );
}
