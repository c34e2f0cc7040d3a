/**
 * What a configured `call` action is and what it needs from the screen that runs it: shared by
 * call-action.ts (which runs it) and run-action.ts (which registers the kind), so that neither
 * imports the other for its types.
 */
import type { Fact, FactDecl } from './facts';
export interface CallDeclLike {
  method?: string;
  endpoint?: string;
  /** Body sent; a string that is exactly "{field}" takes the record's value as it is (a number stays a number). */
  body?: Record<string, unknown>;
  /** A question (locale key) answered Tak / Nie before the call; the record's fields fill its {{placeholders}}. */
  confirm?: string;
  /** What the question is about, listed under it (the order's number, vehicle, type, value). */
  confirmFacts?: FactDecl[];
  /** Success text (locale key); without it the server's message is shown. */
  success?: string;
  /** Failure text (locale key) when the server gives no message of its own. */
  failure?: string;
  /** What to read again after a success: "dialog" (the open record), "tables" (the tables beneath). */
  reload?: string[];
  /** Close the dialog after a success. */
  close?: boolean;
  /** The toast's kind by the answer's `outcome` (a refused test event: error); others are a success. */
  outcomeTones?: Record<string, 'success' | 'warning' | 'error'>;
  /** Show a member of the answer once, in a dialog with a copy button and a warning (a new API key). */
  reveal?: RevealDecl;
}

/** What a call's answer shows once: its member `field`, under `title` and `warning` (locale keys). */
export interface RevealDecl {
  field: string;
  title: string;
  label: string;
  warning: string;
}

/** What a screen lets a call do. */
export interface CallEffects {
  /** Asks the question (already translated, with the facts it is about) and resolves true on Tak. */
  confirm(question: string, facts?: Fact[]): Promise<boolean>;
  request(method: string, path: string, body?: unknown): Promise<unknown>;
  toast(kind: 'success' | 'warning' | 'error', text: string, key: string): void;
  t(key: string, vars?: Record<string, unknown>): string;
  reload(what: string[]): void;
  close(): void;
  /** Shows a value once (translated texts) and resolves when the user has closed it. */
  reveal(texts: { title: string; label: string; warning: string }, value: string): Promise<void>;
}

export type CallOutcome = 'cancelled' | 'done' | 'failed';
