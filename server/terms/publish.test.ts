import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testBackends, type TestDatabase } from '../seed/testing.ts';
import { termsStatus } from '../routes/terms.ts';
import { publishTermsVersion, withdrawTermsGroup } from './publish.ts';

describe.each(testBackends)('publishing terms documents on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => { t = await openTestDatabase({ kind, seed: true }); }, 60_000);
  afterAll(async () => { await t?.close(); });

  const manager = () => t.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow();
  const pdf = new Uint8Array(Buffer.from('%PDF-1.4\n% a new version\n'));

  it('makes a new version current, so users who accepted the old one must accept again', async () => {
    const { id } = await manager();
    expect((await termsStatus(t.db, id)).allAccepted).toBe(true);
    const published = await publishTermsVersion(t.db, { group: 'REGULAMIN', name: 'Regulamin Portalu Klienta', pdf });
    expect(published.version).toBe(2);
    const status = await termsStatus(t.db, id);
    expect(status.allAccepted).toBe(false);
    expect(status.documents.map((d) => [d.group, d.version, d.accepted])).toEqual([['POLITYKA_PRYWATNOSCI', 1, true], ['REGULAMIN', 2, false]]);
    const all = await t.db.selectFrom('terms_template').select(['version', 'current']).where('grupa', '=', 'REGULAMIN').orderBy('version').execute();
    expect(all).toEqual([{ version: 1, current: false }, { version: 2, current: true }]);
  });

  it('adds a new group as one more document, and withdraws it', async () => {
    const { id } = await manager();
    await publishTermsVersion(t.db, { group: 'ZGODA_MARKETING', name: 'Zgoda marketingowa', pdf });
    expect((await termsStatus(t.db, id)).documents).toHaveLength(3);
    expect(await withdrawTermsGroup(t.db, 'ZGODA_MARKETING')).toBe(1);
    expect((await termsStatus(t.db, id)).documents).toHaveLength(2);
  });

  it('refuses a file that is not a PDF and a malformed group', async () => {
    await expect(publishTermsVersion(t.db, { group: 'REGULAMIN', name: 'x', pdf: new Uint8Array(Buffer.from('hello')) })).rejects.toThrow(/not a PDF/);
    await expect(publishTermsVersion(t.db, { group: 'regulamin', name: 'x', pdf })).rejects.toThrow(/group/);
  });
});
