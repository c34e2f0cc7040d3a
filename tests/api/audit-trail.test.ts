/**
 * The audit trail (issue 37, docs/decisions.md "Audit trail (issue 37)"): each audited write leaves
 * one entry with the change field by field and no secret; a rolled-back transaction leaves none;
 * the portal's role cannot update, delete or truncate the trail; concurrent writers keep one chain;
 * an entry edited behind the triggers' back is named by the chain's check.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChange, systemActor } from '../../server/audit/index.ts';
import { verifyChain } from '../../server/audit/verify.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const yearAhead = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

describe('audit trail', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;

  const entries = async (resource: string, recordKey?: string | number) => {
    let q = t.app.db.selectFrom('audit_entry').selectAll().where('resource', '=', resource).orderBy('seq');
    if (recordKey !== undefined) q = q.where('recordKey', '=', String(recordKey));
    return (await q.execute()).map((e) => ({ ...e, changes: (typeof e.changes === 'string' ? JSON.parse(e.changes) : e.changes) as Record<string, [unknown, unknown]> }));
  };
  const last = async (resource: string, recordKey?: string | number) => (await entries(resource, recordKey)).at(-1)!;
  const count = async () => Number((await t.app.db.selectFrom('audit_entry').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await startTestApp({ webhooks: { allowHosts: '127.0.0.1' } });
    admin = await t.signIn('admin');
    adminId = (await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow()).id;
  }, 120_000);
  afterAll(async () => t?.close());

  describe('users administration', () => {
    let userId: number;

    it('creating a user records every field set, the administrator, address and session, and the password only as "zmieniono"', async () => {
      const res = await t.call('POST', '/api/users', { token: admin, body: {
        login: 'a.nowak', firstName: 'Anna', lastName: 'Nowak', email: 'a.nowak@transbud.pl', dataDo: yearAhead(), klientSymbol: 'KL001', password: 'Zielony#Rower42',
      } });
      expect(res.statusCode, res.body).toBe(200);
      userId = res.json().user.id;
      const entry = await last('users', userId);
      expect(entry).toMatchObject({ action: 'create', actorKind: 'user', userId: adminId, role: 'ADMIN', actorLabel: 'admin', address: '127.0.0.1' });
      expect(entry.session).toMatch(/^[0-9a-f]{16}$/);
      expect(entry.changes).toMatchObject({ login: [null, 'a.nowak'], klientSymbol: [null, 'KL001'], rola: [null, 'MANAGER'], password: [null, 'zmieniono'] });
      expect(JSON.stringify(entry)).not.toContain('Zielony#Rower42');
      expect(JSON.stringify(entry)).not.toMatch(/\$argon2|\$scrypt|\$2[aby]\$/);
    });

    it('changing the client records exactly the fields that changed', async () => {
      const res = await t.call('PUT', `/api/users/${userId}`, { token: admin, body: {
        login: 'a.nowak', firstName: 'Anna', lastName: 'Nowak', email: 'a.nowak@transbud.pl', dataDo: yearAhead(), klientSymbol: 'KL002',
      } });
      expect(res.statusCode, res.body).toBe(200);
      const entry = await last('users', userId);
      expect(entry.action).toBe('update');
      expect(entry.changes).toEqual({ klientSymbol: ['KL001', 'KL002'] });
    });

    it('"Dziennik zmian" lists the change and its details name each field as the user form does (ADMIN only)', async () => {
      const table = await t.call('POST', '/api/audit/table2', { token: admin, body: { startRow: 0, endRow: 30, filterModel: { resource: { filterType: 'text', type: 'equals', filter: 'users' }, recordKey: { filterType: 'text', type: 'equals', filter: String(userId) } } } });
      expect(table.statusCode, table.body).toBe(200);
      const rows = table.json().rows;
      expect(rows.map((r: any) => r.action)).toEqual(['update', 'create']);
      expect(rows[0]).toMatchObject({ actorLabel: 'admin', role: 'ADMIN', resource: 'users', fields: 'Klient' });
      expect(rows[0]).not.toHaveProperty('changes');
      const details = await t.call('GET', `/api/audit/${rows[0].id}/changes`, { token: admin });
      expect(details.statusCode, details.body).toBe(200);
      expect(details.json().changes).toEqual([{ field: 'klientSymbol', label: 'Klient', before: 'KL001', after: 'KL002' }]);
      const created = (await t.call('GET', `/api/audit/${rows[1].id}/changes`, { token: admin })).json().changes;
      expect(created).toContainEqual({ field: 'password', label: 'Hasło', before: '', after: 'zmieniono' });
      expect(created).toContainEqual({ field: 'firstLogin', label: 'Pierwsze logowanie', before: '', after: 'tak' });
      const manager = await t.signIn('manager');
      expect((await t.call('GET', `/api/audit/${rows[0].id}/changes`, { token: manager })).statusCode).toBe(403);
      expect((await t.call('POST', '/api/audit/table2', { token: manager, body: { startRow: 0, endRow: 30 } })).statusCode).toBe(403);
      expect((await t.call('GET', '/api/audit/999999/changes', { token: admin })).statusCode).toBe(404);
    });

    it('"Zmienione pola" lists the fields by their labels, and its filter finds an entry by a label (issue 49)', async () => {
      const byFields = (filter: string) => t.call('POST', '/api/audit/table2', { token: admin, body: { startRow: 0, endRow: 30, filterModel: {
        resource: { filterType: 'text', type: 'equals', filter: 'users' }, recordKey: { filterType: 'text', type: 'equals', filter: String(userId) },
        fields: { filterType: 'text', type: 'contains', filter },
      } } });
      const found = await byFields('klient');
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().rows.map((r: any) => r.action)).toEqual(['update', 'create']);
      expect(found.json().rows[0].fields).toBe('Klient');
      const created = (await byFields('Pierwsze logowanie')).json().rows;
      expect(created.map((r: any) => r.action)).toEqual(['create']);
      // a label, never a code: the create's fields hold no "firstLogin"
      expect(created[0].fields).not.toMatch(/firstLogin|klientSymbol/);
      expect((await byFields('klientSymbol')).json().rows).toEqual([]);
    });

    it('an administrator\'s password reset is recorded without the password', async () => {
      const res = await t.call('PUT', '/api/users/change-password', { token: admin, body: { userId, password: 'Niebieski#Most77' } });
      expect(res.statusCode, res.body).toBe(200);
      const entry = await last('users', userId);
      expect(entry).toMatchObject({ action: 'password-reset', changes: { password: ['zmieniono', 'zmieniono'] } });
      expect(JSON.stringify(entry)).not.toContain('Niebieski#Most77');
    });

    it('deleting a user records the account closed', async () => {
      expect((await t.call('DELETE', `/api/users/${userId}`, { token: admin })).statusCode).toBe(200);
      const entry = await last('users', userId);
      expect(entry.action).toBe('delete');
      expect(entry.changes.dataDo?.[0]).toBe(yearAhead());
    });

    it('a refused change records nothing', async () => {
      const before = await count();
      const res = await t.call('POST', '/api/users', { token: admin, body: { login: '', firstName: 'X', lastName: 'Y', email: 'x@y.pl', dataDo: yearAhead(), klientSymbol: 'KL001' } });
      expect(res.statusCode).toBe(400);
      expect(await count()).toBe(before);
    });
  });

  it('the e-mail settings record the SMTP password as "zmieniono", never its text', async () => {
    const body = { smtpHost: 'smtp.transbud.pl', smtpPort: 587, smtpUser: 'portal', smtpPassword: 'Tajne-haslo-1', smtpEmail: 'portal@transbud.pl', smtpSsl: 'OFF' };
    expect((await t.call('PUT', '/api/settings/email', { token: admin, body })).statusCode).toBe(200);
    const entry = await last('email');
    expect(entry.changes.smtpHost[1]).toBe('smtp.transbud.pl');
    expect(entry.changes.smtpPassword[1]).toBe('zmieniono');
    expect(JSON.stringify(entry)).not.toContain('Tajne-haslo-1');
    // the mask sent back keeps the password: only the port's change is recorded
    expect((await t.call('PUT', '/api/settings/email', { token: admin, body: { ...body, smtpPassword: '********', smtpPort: 587 } })).statusCode).toBe(200);
    expect((await t.call('PUT', '/api/settings/email', { token: admin, body: { ...body, smtpPassword: 'Inne-haslo-2', smtpPort: 465 } })).statusCode).toBe(200);
    const changed = await last('email');
    expect(changed.changes).toEqual({ smtpPort: [587, 465], smtpPassword: ['zmieniono', 'zmieniono'] });
    expect(JSON.stringify(await entries('email'))).not.toMatch(/Tajne-haslo-1|Inne-haslo-2/);
  });

  it('integration accounts and keys: created, changed, key made and revoked, never the key itself', async () => {
    const created = await t.call('POST', '/api/integration-accounts', { token: admin, body: { name: 'ERP Transbud', allClients: false, clients: ['KL001'], scopes: ['read:car'] } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect((await last('integration-accounts', id)).changes).toEqual({ name: [null, 'ERP Transbud'], clients: [null, ['KL001']], scopes: [null, ['read:car']] });
    const changed = await t.call('PUT', `/api/integration-accounts/${id}`, { token: admin, body: { name: 'ERP Transbud', allClients: false, clients: ['KL001', 'KL002'], scopes: ['read:car'] } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await last('integration-accounts', id)).changes).toEqual({ clients: [['KL001'], ['KL001', 'KL002']] });
    const made = await t.call('POST', `/api/integration-accounts/${id}/keys`, { token: admin, body: {} });
    expect(made.statusCode, made.body).toBe(201);
    const keyEntry = await last('integration-accounts', id);
    const prefix = made.json().displayPrefix;
    // the key by its shown prefix, never its id (issue 49)
    expect(keyEntry).toMatchObject({ action: 'create-key', changes: { displayPrefix: [null, prefix] } });
    expect(keyEntry.changes).not.toHaveProperty('keyId');
    expect(JSON.stringify(keyEntry)).not.toContain(made.json().key);
    expect((await t.call('POST', `/api/integration-accounts/${id}/keys/${made.json().id}/revoke`, { token: admin })).statusCode).toBe(200);
    const revoked = await last('integration-accounts', id);
    expect(revoked).toMatchObject({ action: 'revoke-key', changes: { revokedKey: [null, `${prefix}…`] } });
    expect(revoked.changes).not.toHaveProperty('keyId');
  });

  it('the details name an account\'s scopes as its form does and a revoked key by its prefix, not "read:car" or "Klucz 5 → 5" (issue 49)', async () => {
    const created = await t.call('POST', '/api/integration-accounts', { token: admin, body: { name: 'ERP Zakresy', allClients: true, scopes: ['read:car', 'webhooks'] } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const scopeLabels = new Map((await t.call('GET', '/api/integration-accounts/scopes', { token: admin })).json().map((s: any) => [s.scope, s.label]));
    const entryId = async () => (await last('integration-accounts', id)).id;
    const details = (await t.call('GET', `/api/audit/${await entryId()}/changes`, { token: admin })).json().changes;
    const scopes = details.find((c: any) => c.field === 'scopes');
    expect(scopes.after).toBe(`${scopeLabels.get('read:car')}, ${scopeLabels.get('webhooks')}`);
    expect(scopes.after).not.toContain('read:car');
    const made = await t.call('POST', `/api/integration-accounts/${id}/keys`, { token: admin, body: { name: 'Produkcja' } });
    expect(made.statusCode, made.body).toBe(201);
    await t.call('POST', `/api/integration-accounts/${id}/keys/${made.json().id}/revoke`, { token: admin });
    const revoked = (await t.call('GET', `/api/audit/${await entryId()}/changes`, { token: admin })).json().changes;
    expect(revoked.find((c: any) => c.field === 'revokedKey')).toMatchObject({ label: 'Unieważniony klucz', before: '', after: `Produkcja (${made.json().displayPrefix}…)` });
    for (const change of revoked) expect(change.before).not.toBe(change.after);
  });

  it('webhook endpoints: created, changed, secret rotated and removed, the secrets only as "zmieniono"', async () => {
    const created = await t.call('POST', '/api/webhooks/endpoints', { token: admin, body: { url: 'http://127.0.0.1:9/hook', events: ['order.created'] } });
    expect(created.statusCode, created.body).toBe(200);
    const { endpoint, secret } = created.json();
    const first = await last('webhook-endpoint', endpoint.id);
    expect(first).toMatchObject({ action: 'create', changes: { url: [null, 'http://127.0.0.1:9/hook'], events: [null, ['order.created']], secret: [null, 'zmieniono'] } });
    const saved = await t.call('PUT', `/api/webhooks/endpoints/${endpoint.id}`, { token: admin, body: { url: 'http://127.0.0.1:9/hook', events: ['order.created', 'damage.reported'] } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await last('webhook-endpoint', endpoint.id)).changes).toEqual({ events: [['order.created'], ['order.created', 'damage.reported']] });
    const rotated = await t.call('POST', `/api/webhooks/endpoints/${endpoint.id}/rotate-secret`, { token: admin });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect((await last('webhook-endpoint', endpoint.id)).changes).toEqual({ secret: ['zmieniono', 'zmieniono'], previousSecret: [null, 'zmieniono'] });
    expect((await t.call('DELETE', `/api/webhooks/endpoints/${endpoint.id}`, { token: admin })).statusCode).toBe(200);
    expect((await last('webhook-endpoint', endpoint.id)).action).toBe('delete');
    const all = JSON.stringify(await entries('webhook-endpoint'));
    expect(all).not.toContain(secret);
    expect(all).not.toContain(rotated.json().secret);
  });

  it('a configuration publish and its rollback are recorded with the documents they changed', async () => {
    const doc = (await t.call('GET', '/api/config-studio/document?scope=base&path=screens/vehicles-table.json', { token: admin })).json();
    const edited = { ...doc.effective, columns: doc.effective.columns.map((c: any) => (c.id === 'marka' ? { ...c, hide: true } : c)) };
    expect((await t.call('PUT', '/api/config-studio/documents', { token: admin, body: { changes: [{ scope: 'base', path: 'screens/vehicles-table.json', document: edited }] } })).statusCode).toBe(200);
    const published = await t.call('POST', '/api/config-studio/publish', { token: admin, body: { comment: 'Bez marki' } });
    expect(published.statusCode, published.body).toBe(200);
    const versionId = published.json().version.id;
    expect(await last('config-studio', versionId)).toMatchObject({ action: 'publish', changes: { comment: [null, 'Bez marki'], documents: [null, ['screens/vehicles-table.json']] } });
    const restored = await t.call('POST', '/api/config-studio/versions/0/restore', { token: admin, body: {} });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await last('config-studio', restored.json().version.id)).toMatchObject({ action: 'rollback', changes: { version: [versionId, restored.json().version.id], documents: [null, ['screens/vehicles-table.json']] } });
  });

  it('an order\'s status move is recorded with the status before and after and the declared move', async () => {
    const before = await t.app.db.selectFrom('service_order').select('status').where('autId', '=', 6).executeTakeFirstOrThrow();
    const moved = await t.call('POST', '/api/order/6/transition', { token: admin, body: { to: 4 } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await last('order', 6)).toMatchObject({ action: 'transition', actorLabel: 'admin', changes: { status: [before.status, 4], transition: [null, expect.any(String)] } });
    const details = (await t.call('GET', `/api/audit/${(await last('order', 6)).id}/changes`, { token: admin })).json();
    expect(details.changes[0]).toMatchObject({ field: 'status', after: 'Autoryzowano' });
  });

  it('an advisor\'s confirmation of a cost estimate is recorded as his', async () => {
    const doradca = await t.signIn('doradca');
    const car = await t.app.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const added = await t.call('POST', '/api/order/add', { token: doradca, body: {
      order: { autTyp: 0, zgloInterw: 'PRZEGLAD', pojazdId: car.pojazdId, rejestr: 'WZ12345', zgloNazwiskoImie: 'Kowalski Jan', zgloEmail: 'jan.kowalski@transbud.pl', zgloZakres: 'Przegląd', stanLicz: 88000 },
      rangePositions: [{ uslRodzaj: 1, tresc: 'Wymiana oleju', ilosc: 1, cena: 180, rabatProc: 0 }],
    } });
    expect(added.statusCode, added.body).toBe(200);
    const autId = added.json().order.autId;
    expect((await t.call('GET', `/api/order/confirm-pricing/${autId}`, { token: doradca })).statusCode).toBe(200);
    expect(await last('order', autId)).toMatchObject({ action: 'confirm-pricing', actorLabel: 'doradca', role: 'ADVISOR', changes: { pricingConfirmed: [false, true] } });
  });

  it('a rolled-back transaction leaves no entry and the chain\'s head as it was', async () => {
    const before = await count();
    const head = await t.app.db.selectFrom('audit_head').selectAll().executeTakeFirstOrThrow();
    await expect(t.app.db.transaction().execute(async (trx) => {
      await recordChange(trx, { actor: systemActor('test'), resource: 'users', recordKey: 1, action: 'update', changes: { firstName: ['A', 'B'] } });
      throw new Error('the write fails after its entry');
    })).rejects.toThrow('the write fails after its entry');
    expect(await count()).toBe(before);
    expect(await t.app.db.selectFrom('audit_head').selectAll().executeTakeFirstOrThrow()).toEqual(head);
  });

  it('concurrent writers keep one chain without gaps', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => t.app.db.transaction().execute((trx) =>
      recordChange(trx, { actor: systemActor('concurrency-test'), resource: 'test', recordKey: i, action: 'update', changes: { n: [i, i + 1] } }))));
    const seqs = (await t.app.db.selectFrom('audit_entry').select('seq').orderBy('seq').execute()).map((r) => Number(r.seq));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(await verifyChain(t.app.db)).toMatchObject({ ok: true, entries: seqs.length });
  });

  it('the portal\'s role can neither update, delete nor truncate the trail, nor move its head', async () => {
    const some = await last('users');
    await expect(t.app.db.updateTable('audit_entry').set({ action: 'edited' }).where('id', '=', some.id).execute()).rejects.toThrow(/append-only/);
    await expect(t.app.db.deleteFrom('audit_entry').where('id', '=', some.id).execute()).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_entry`.execute(t.app.db)).rejects.toThrow(/append-only/);
    await expect(t.app.db.deleteFrom('audit_head').execute()).rejects.toThrow(/append-only/);
    expect((await last('users')).action).toBe(some.action);
  });

  it('the chain\'s check names the first entry edited behind the triggers\' back', async () => {
    expect(await verifyChain(t.app.db)).toMatchObject({ ok: true });
    const victim = (await entries('users'))[1];
    // a superuser's session that fires no ordinary triggers (replication role) can edit a row
    await t.app.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update audit_entry set "changes" = '{"klientSymbol": ["KL001", "KL009"]}'::jsonb where "id" = ${victim.id}`.execute(trx);
    });
    expect(await verifyChain(t.app.db)).toMatchObject({ ok: false, brokenId: Number(victim.id), brokenSeq: Number(victim.seq), reason: 'hash' });
  });
});
