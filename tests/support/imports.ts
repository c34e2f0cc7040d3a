/**
 * Import runs as the API tests post them (issue 34): a file uploaded through POST /api/import/runs,
 * then the run read until the queue has ended it.
 */
import { expect } from 'vitest';
import { eventually } from './eventually.ts';
import { postMultipart } from './multipart.ts';
import type { TestApp } from './test-app.ts';

export interface RunOptions {
  mode?: string;
  onError?: string;
  missing?: string;
  mapping?: Record<string, string | null>;
  /** mode import: the dry run it carries out, and the number of rows to deactivate typed back (issue 49). */
  dryRun?: number;
  confirmDeactivated?: string;
}

/** `token`: the caller of the runs (and the reader of their state) unless a call names another. */
export function importRuns(t: TestApp, token: string) {
  const upload = (declaration: string, fileName: string, content: Buffer | string, options: RunOptions = {}, as = token) =>
    postMultipart(t, '/api/import/runs', as, [
      { name: 'declaration', value: declaration },
      { name: 'mode', value: options.mode ?? 'import' },
      { name: 'onError', value: options.onError ?? 'allOrNothing' },
      { name: 'missing', value: options.missing ?? 'keep' },
      ...(options.mapping ? [{ name: 'mapping', value: JSON.stringify(options.mapping) }] : []),
      ...(options.dryRun !== undefined ? [{ name: 'dryRun', value: String(options.dryRun) }] : []),
      ...(options.confirmDeactivated !== undefined ? [{ name: 'confirmDeactivated', value: options.confirmDeactivated }] : []),
      { name: 'file', filename: fileName, content },
    ]);

  /** Waits for the run to end (the queue runs it in this process) and answers it. */
  async function finished(id: number) {
    return eventually(async () => {
      const res = await t.call('GET', `/api/import/runs/${id}`, { token });
      expect(res.statusCode).toBe(200);
      const run = res.json();
      return run.state !== 'queued' && run.state !== 'running' && run;
    }, { within: 60_000, what: `import run ${id} ended` });
  }

  /** Uploads the file, expects it taken (202) and answers the ended run. */
  async function runOf(declaration: string, fileName: string, content: Buffer | string, options: RunOptions = {}, as = token) {
    const res = await upload(declaration, fileName, content, options, as);
    expect(res.statusCode, res.body).toBe(202);
    return finished(res.json().id);
  }

  return { upload, finished, runOf };
}
