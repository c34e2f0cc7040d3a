/**
 * The `call` action kind (schemas/meta/common.schema.json `$defs/action`): call an endpoint about
 * a record, optionally after a Tak/Nie question, show the outcome as a toast (the server's message,
 * or the declared text), then reload what shows the record and optionally close the dialog.
 * No React here: the screen hands in its effects (`useCallEffects` builds them).
 */
import { ApiError } from '../api/client';
import { ACTION_KINDS } from './run-action';
import type { CallDeclLike, CallEffects, CallOutcome } from './call-types';
import { factsOf } from './facts';
export type { CallDeclLike, CallEffects, CallOutcome } from './call-types';

type Row = Record<string, unknown> | null | undefined;

const encode = (value: unknown) => encodeURIComponent(String(value ?? ''));

/** `/order/{autId}/transition` with the record's values, each URL-encoded. */
export const fillEndpoint = (path: string, row: Row) => path.replace(/\{(\w+)\}/g, (_, f: string) => encode(row?.[f]));

/** The body with the record's values: "{to}" → the value itself, "Nr {autNr}" → text, objects and lists recursively. */
export function fillBody(value: unknown, row: Row): unknown {
  if (typeof value === 'string') {
    const whole = /^\{(\w+)\}$/.exec(value);
    if (whole) return row?.[whole[1]] ?? null;
    return value.replace(/\{(\w+)\}/g, (_, f: string) => String(row?.[f] ?? ''));
  }
  if (Array.isArray(value)) return value.map((v) => fillBody(v, row));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillBody(v, row)]));
  return value;
}

/** The server's message of a refused call (a 4xx with a detail), otherwise the declared text. */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail && error.status > 0 && error.status < 500 ? error.detail : fallback;
}

const messageOf = (answer: unknown) =>
  answer && typeof answer === 'object' && typeof (answer as { message?: unknown }).message === 'string' ? (answer as { message: string }).message : undefined;

export async function runCall(action: CallDeclLike, row: Row, fx: CallEffects): Promise<CallOutcome> {
  if (!action.endpoint) return 'failed';
  const vars = row ?? {};
  if (action.confirm && !(await fx.confirm(fx.t(action.confirm, vars), factsOf(action.confirmFacts, row, fx.t)))) return 'cancelled';
  const method = action.method ?? 'POST';
  // one toast per endpoint: the success of a retry replaces the error of the attempt before
  const key = `call:${method}:${action.endpoint}`;
  try {
    const body = action.body === undefined ? undefined : fillBody(action.body, row);
    const answer = await fx.request(method, fillEndpoint(action.endpoint, row), body);
    const revealed = action.reveal && answer && typeof answer === 'object' ? (answer as Record<string, unknown>)[action.reveal.field] : undefined;
    if (action.reveal && typeof revealed === 'string') {
      // the value to keep is the message: shown once, with its own warning, instead of a toast
      const { title, label, warning } = action.reveal;
      await fx.reveal({ title: fx.t(title, vars), label: fx.t(label, vars), warning: fx.t(warning, vars) }, revealed);
    } else {
      const outcome = answer && typeof answer === 'object' ? String((answer as { outcome?: unknown }).outcome ?? '') : '';
      fx.toast(action.outcomeTones?.[outcome] ?? 'success', action.success ? fx.t(action.success, vars) : (messageOf(answer) ?? fx.t('app:ok')), key);
    }
    if (action.reload?.length) fx.reload(action.reload);
    if (action.close) fx.close();
    return 'done';
  } catch (error) {
    fx.toast('error', failureText(error, fx.t(action.failure ?? 'app:noConnection')), key);
    return 'failed';
  }
}

ACTION_KINDS.call = (action, row, effects) => {
  if (!effects.call) throw new Error('this screen offers no "call" actions (it passes no call effects to runAction)');
  return runCall(action, row, effects.call);
};
