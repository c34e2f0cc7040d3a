/**
 * One attempt at a submission of the outbox (issue 47, pwa/outbox.ts), through the API client:
 * each call signed anew, under the submission's Idempotency-Key (its follow-ups under keys derived
 * from it, as the wizard derives them). Also the wizard's files in a form IndexedDB keeps.
 */
import { api, ApiError } from '../api/client';
import { followUpKey } from '../api/submission-key';
import type { Bundle, WizardDecl } from '../config/bundle';
import { i18n } from '../config/i18n';
import { multipartParts } from '../forms/file-checks';
import { showToast } from '../state/ui';
import { runFollowUps, type ItemFiles } from '../screens/wizard/follow-ups';
import { getPath } from '../screens/wizard/wizard-logic';
import type { KeptFile, Submission } from './offline-types';
import type { AttemptFailure } from './outbox';

/** The files a wizard's items carry, by list and item index: what IndexedDB can keep (the WeakMap cannot). */
export function keptItemFiles(data: Record<string, unknown>, lists: string[], files: ItemFiles): Record<string, KeptFile[][]> {
  return Object.fromEntries(lists.map((list) => {
    const found = getPath(data, list);
    const items = Array.isArray(found) ? (found as object[]) : [];
    return [list, items.map((item) => [...(files.get(item) ?? new Map<string, File>())].map(([field, file]) => ({ field, file })))];
  }));
}

/** The kept files back beside the items they belong to (the items of the kept data, after a reload). */
export function itemFilesOf(data: Record<string, unknown>, kept: Record<string, KeptFile[][]>): ItemFiles {
  const files: ItemFiles = new WeakMap();
  for (const [list, perItem] of Object.entries(kept)) {
    const found = getPath(data, list);
    const items = Array.isArray(found) ? (found as object[]) : [];
    items.forEach((item, i) => perItem[i]?.length && files.set(item, new Map(perItem[i].map((f) => [f.field, f.file]))));
  }
  return files;
}

/** One attempt at a submission through the API client (each call signed anew, under the submission's keys). */
export async function sendSubmission({ key, plan }: Submission, bundle: Bundle | null, classifyFailure: (e: unknown) => AttemptFailure): Promise<void> {
  const options = { quiet: true, background: true, idempotencyKey: key };
  if (plan.kind === 'call') {
    if (plan.multipart) {
      const files = new Map(plan.multipart.files.map((f) => [f.field, f.file]));
      await api.postMultipart(plan.path, await multipartParts(plan.body, new Set(plan.multipart.fileFields), files), options);
    } else await (plan.method === 'PUT' ? api.put : api.post)(plan.path, plan.body, options);
    return;
  }
  const answer = await (plan.method === 'PUT' ? api.put : api.post)(plan.path, plan.body, options);
  const screen = bundle?.screens[plan.screen] as WizardDecl | undefined;
  let retry: unknown = null;
  const later = (e: unknown) => {
    if (classifyFailure(e).kind === 'retry') retry ??= e;
    throw e;
  };
  // the follow-ups as the wizard makes them (its attachments), under keys derived from the submission's
  await runFollowUps(screen?.submit.then, plan.data, answer, plan.session, itemFilesOf(plan.data, plan.files), {
    post: (endpoint, body, call) => api.post(endpoint, body, { ...options, idempotencyKey: call && followUpKey(key, call) }).catch(later),
    postMultipart: (endpoint, parts, call) => api.postMultipart(endpoint, parts, { ...options, idempotencyKey: call && followUpKey(key, call) }).catch(later),
    // a refused follow-up is told as the wizard tells it; a lost one makes the whole submission go again (each call once, by its key)
    warn: (text, id) => retry === null && showToast('warning', text, `outbox:${id}`),
    detailOf: (e) => (e instanceof ApiError && e.detail && e.status < 500 ? e.detail : undefined),
    t: (k, vars) => i18n.t(k, vars),
  });
  if (retry !== null) throw retry;
}
