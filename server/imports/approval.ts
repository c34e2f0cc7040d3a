/**
 * What the user approves is what happens (issue 49): an import that names its dry run (the field
 * `dryRun`; the screen always does) runs only with that dry run's file and options, and an import
 * that retires more than the declared share of its clients' active rows only with that number
 * typed back (`confirmDeactivated`). The engine then deactivates no more rows than the dry run
 * counted (engine.ts, `approvedDeactivated`).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { HttpError } from '../http-error.ts';
import type { ImportDecl } from '../config/import-declaration.ts';

type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** The share of a client's active rows above which deactivating asks for the number typed (schemas/meta/import.schema.json). */
export const DEFAULT_CONFIRM_SHARE = 0.1;

export interface ImportRequestOptions {
  actor: string;
  decl: ImportDecl;
  mode: string;
  onError: string;
  missing: string;
  mapping: Record<string, string | null> | null;
  fileSha256: string | null;
  /** The form's fields as sent: `dryRun` (the id of the dry run), `confirmDeactivated` (the number typed). */
  dryRun?: string;
  confirmDeactivated?: string;
  /** The caller's locale (his language's, issue 48): the count he is asked to type is written in it. */
  locale: string;
}

/** A mapping as a comparable text: its columns in order, each with its field (a column left out = not imported). */
function mappingText(mapping: Record<string, string | null> | null): string {
  if (!mapping) return '';
  return JSON.stringify(Object.entries(mapping).filter(([, f]) => f !== null).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** True when deactivating `deactivated` of `active` rows needs the number typed. */
export function needsTypedCount(deactivated: number, active: number | null, share: number): boolean {
  if (deactivated <= 0) return false;
  if (!active) return true;
  return deactivated / active > share;
}

/**
 * Checks an import against the dry run it names; answers that dry run's id (null: none named, or
 * a dry run itself). Throws 400 with a Polish message naming what differs.
 */
export async function approvedDryRun(db: Kysely<DB>, options: ImportRequestOptions, t: Translate): Promise<number | null> {
  const refuse = (field: string, key: string, vars?: Record<string, unknown>, code = 'IMPORT_NOT_APPROVED') => {
    const message = t(key, vars);
    return new HttpError(400, message, { code, errors: [{ field, message }] });
  };
  const named = options.dryRun?.trim();
  if (!named) return null;
  if (options.mode !== 'import') throw refuse('dryRun', 'import:errors.dryRunOnlyForImport');
  if (!/^[1-9][0-9]{0,15}$/.test(named)) throw refuse('dryRun', 'import:errors.dryRunUnknown');
  const dry = await db.selectFrom('import_run').selectAll().where('id', '=', named as never).where('actor', '=', options.actor).executeTakeFirst();
  if (!dry || dry.mode !== 'dryRun' || dry.declaration !== options.decl.import) throw refuse('dryRun', 'import:errors.dryRunUnknown');
  if (dry.state !== 'succeeded') throw refuse('dryRun', 'import:errors.dryRunNotDone');
  const differs: string[] = [];
  if (dry.onError !== options.onError) differs.push(t('import:approval.onError'));
  if (dry.missing !== options.missing) differs.push(t('import:approval.missing'));
  if (mappingText(dry.mapping as Record<string, string | null> | null) !== mappingText(options.mapping)) differs.push(t('import:approval.mapping'));
  if (!dry.fileSha256 || dry.fileSha256 !== options.fileSha256) differs.push(t('import:approval.file'));
  if (differs.length) throw refuse('dryRun', 'import:errors.dryRunDiffers', { what: differs.join(', ') }, 'IMPORT_DRY_RUN_DIFFERS');
  const share = options.decl.missing?.deactivate?.confirmShare ?? DEFAULT_CONFIRM_SHARE;
  if (options.missing === 'deactivate' && needsTypedCount(dry.countDeactivated, dry.activeRows, share)) {
    const typed = (options.confirmDeactivated ?? '').replace(/[\s\u00a0]/g, '');
    if (typed !== String(dry.countDeactivated)) {
      throw refuse('confirmDeactivated', 'import:errors.confirmDeactivated', { count: dry.countDeactivated.toLocaleString(options.locale) }, 'IMPORT_CONFIRM_NEEDED');
    }
  }
  return Number(dry.id);
}

/** The rows the named dry run counted to deactivate (the most its import may), or null. */
export async function approvedDeactivation(db: Kysely<DB>, dryRunId: string | number | null | undefined): Promise<number | null> {
  if (dryRunId == null) return null;
  const dry = await db.selectFrom('import_run').select('countDeactivated').where('id', '=', String(dryRunId) as never).executeTakeFirst();
  return dry ? dry.countDeactivated : null;
}

/** What a run's answer adds for the screen: the dry run an import names, and whether its import needs the number typed. */
export function runAnswerExtras(row: { dryRunId?: string | number | null; activeRows?: number | null; mode: string; missing: string; countDeactivated: number }, decl: ImportDecl | undefined) {
  const share = decl?.missing?.deactivate?.confirmShare ?? DEFAULT_CONFIRM_SHARE;
  return {
    dryRunId: row.dryRunId == null ? null : Number(row.dryRunId),
    activeRows: row.activeRows ?? null,
    confirmByTyping: row.mode === 'dryRun' && row.missing === 'deactivate' && needsTypedCount(row.countDeactivated, row.activeRows ?? null, share),
  };
}

/** The file's value of the column an error names (the screen shows it beside the message): `{ value }`, or nothing when the error names no column of the file. */
export function errorValue(columns: unknown, error: { column: string | null; cells: unknown }): { value?: string } {
  if (!error.column || !Array.isArray(columns) || !Array.isArray(error.cells)) return {};
  const at = columns.indexOf(error.column);
  if (at < 0) return {};
  const cell = error.cells[at];
  return { value: cell === null || cell === undefined ? '' : String(cell) };
}
