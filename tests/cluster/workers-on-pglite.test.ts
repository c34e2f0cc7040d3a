/**
 * PGlite belongs to one process: WORKERS above 1 without DATABASE_URL stops start-up with a Polish
 * message that says what to do, before any database is opened (issue 23).
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPortal } from '../support/portal-process.ts';

describe('several workers on the embedded PGlite', () => {
  it('are refused with a Polish message naming DATABASE_URL, and nothing is created', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'portal-workers-')), 'data');
    // DATABASE_URL emptied: the PostgreSQL pass of the tests sets it
    const portal = startPortal({ DATABASE_URL: '', DATA_DIR: dataDir, WORKERS: '2', PORT: '0' });
    expect(await portal.exited).toBe(1);
    expect(portal.output()).toContain('Nie uruchomiono portalu: WORKERS=2 uruchamia kilka procesów');
    expect(portal.output()).toContain('Ustaw DATABASE_URL=postgres://');
    expect(() => readdirSync(dataDir)).toThrow(); // no database folder was made
  });

  it('refuses a WORKERS value that is not a count, in Polish', async () => {
    const portal = startPortal({ WORKERS: 'dużo', PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-workers-')) });
    expect(await portal.exited).toBe(1);
    expect(portal.output()).toContain('WORKERS="dużo" nie jest poprawną wartością');
  });
});
