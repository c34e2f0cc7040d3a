/**
 * The calls a wizard makes after its save (`submit.then`), one per item of a list of its data: the
 * attachments typed in (a multipart upload of each item's chosen file to the new record), then the
 * notes (a JSON post each). The record is saved already, so a failed call is a warning naming the
 * item (its values interpolate the declared `failureToast`) and the rest still go.
 *
 * Files are never in the wizard's JSON data: a list item holds the file's name, and the File itself
 * is kept beside it in memory (ItemFiles, keyed by the item object) until the upload.
 */
import type { MultipartPart } from '../../../core/multipart';
import type { WizardDecl } from '../../config/bundle';
import { multipartParts, type ChosenFiles } from '../../forms/file-checks';
import { getPath, resolveValue, type Data } from './wizard-logic';

export type FollowUpDecl = NonNullable<WizardDecl['submit']['then']>[number];

/** The files chosen for each list item, by the item object (never part of the data). */
export type ItemFiles = WeakMap<object, ChosenFiles>;

export interface FollowUpDeps {
  /** `call` names the call within its submission (`attachments0`): what its Idempotency-Key is derived from. */
  post(endpoint: string, body: Data, call?: string): Promise<unknown>;
  postMultipart(endpoint: string, parts: MultipartPart[], call?: string): Promise<unknown>;
  /** Shows a warning toast (the key keeps one toast per failed item). */
  warn(text: string, key: string): void;
  /** The failure's text from the server, when it gave one. */
  detailOf(error: unknown): string | undefined;
  t(key: string, vars?: Record<string, unknown>): string;
}

/** The body of one call: each declared value from the save's answer, the item or the session. */
export function followUpBody(call: Pick<FollowUpDecl, 'body'>, answer: unknown, item: Data, session?: Record<string, unknown> | null): Data {
  return Object.fromEntries(Object.entries(call.body).map(([k, source]) => [k, resolveValue(source, { answer, item, session })]));
}

/** The parts of one upload: the body's values as text, then the item's chosen files under their fields' names. */
export function followUpParts(body: Data, files: ChosenFiles | undefined): Promise<MultipartPart[]> {
  const chosen = files ?? new Map<string, File>();
  const withNames: Data = { ...body };
  for (const [field, file] of chosen) withNames[field] = file.name;
  return multipartParts(withNames, new Set(chosen.keys()), chosen);
}

/** The warning of a failed call: the declared text with the item's values, then the server's reason. */
export function followUpFailure(call: Pick<FollowUpDecl, 'failureToast'>, item: Data, detail: string | undefined, t: FollowUpDeps['t']): string {
  const text = t(call.failureToast ?? 'app:noConnection', item);
  return detail && detail !== text ? `${text}: ${detail}` : text;
}

/**
 * Makes the follow-up calls in the declared order, one per item (a multipart call sends the item's
 * chosen files; the server refuses one without). Returns how many calls failed.
 */
export async function runFollowUps(
  calls: FollowUpDecl[] | undefined,
  data: Data,
  answer: unknown,
  session: Record<string, unknown> | null | undefined,
  itemFiles: ItemFiles,
  deps: FollowUpDeps,
  key = 'wizard',
): Promise<number> {
  let failed = 0;
  for (const call of calls ?? []) {
    const items = getPath(data, call.each);
    const list = Array.isArray(items) ? (items as Data[]) : [];
    for (const [i, item] of list.entries()) {
      const body = followUpBody(call, answer, item, session);
      try {
        if (call.encoding === 'multipart') await deps.postMultipart(call.endpoint, await followUpParts(body, itemFiles.get(item)), `${call.each}${i}`);
        else await deps.post(call.endpoint, body, `${call.each}${i}`);
      } catch (e) {
        failed++;
        deps.warn(followUpFailure(call, item, deps.detailOf(e), deps.t), `${key}:${call.each}:${i}`);
      }
    }
  }
  return failed;
}
