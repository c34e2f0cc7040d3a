/**
 * Users administration (issue 13; spec §2 Users, §5 "User form", §6 ADMIN, §7 Users; ACCESS.md
 * "users (table, create, update, delete, change-password): ADMIN"; docs/decisions.md "Deleting a
 * user"). Every rule of the form is refused with its Polish message and leaves nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const yearAhead = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

describe('users administration', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  const newUser = (overrides: Record<string, unknown> = {}) => ({
    login: 'k.mazur', firstName: 'Katarzyna', lastName: 'Mazur', email: 'k.mazur@transbud.pl', telefon: '22 611 20 05',
    dataDo: yearAhead(), klientSymbol: 'KL001', password: 'Zielony#Rower42', ...overrides,
  });
  const create = (body: unknown, token = admin) => t.call('POST', '/api/users', { token, body });
  const update = (id: number, body: unknown, token = admin) => t.call('PUT', `/api/users/${id}`, { token, body });
  const remove = (id: number, token = admin) => t.call('DELETE', `/api/users/${id}`, { token });
  const accounts = async () => Number((await t.app.db.selectFrom('app_user').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const signIn = (username: string, password: string) => t.call('POST', '/api/user/auth', { body: { username, password, role: 'MANAGER' } });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    manager = await t.signIn('manager');
  }, 120_000);
  afterAll(async () => t?.close());

  it('creates a fleet manager with a client (role MANAGER by default), who must choose a new password at the first sign-in', async () => {
    const res = await create(newUser());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Dodano użytkownika');
    expect(res.json().user).toMatchObject({ login: 'k.mazur', rola: 'MANAGER', klientSymbol: 'KL001', stacjaSerw: null, firstLogin: true, dataDo: yearAhead() });
    expect(res.json().user).not.toHaveProperty('passwordHash');
    const signedIn = await signIn('k.mazur', 'Zielony#Rower42');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().body.userDetails.firstLogin).toBe(true);
    // once the terms are accepted, only the password calls are open until then
    const token = signedIn.json().id_token;
    expect((await t.call('POST', '/api/terms/accept-current', { token })).statusCode).toBeLessThan(300);
    const table = await t.call('POST', '/api/car/table', { token, body: { startRow: 0, endRow: 30 } });
    expect(table.json().code).toBe('FIRST_LOGIN_REQUIRED');
  });

  it('copies a user: the same form under a new login (the copied row’s id is ignored)', async () => {
    const source = (await t.app.db.selectFrom('v_users').selectAll().where('login', '=', 'manager').executeTakeFirstOrThrow());
    const res = await create({ id: source.id, login: 'manager.kopia', rola: 'MANAGER', firstName: source.firstName, lastName: source.lastName, email: source.email, dataDo: yearAhead(), klientSymbol: source.klientSymbol });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.id).not.toBe(source.id);
    expect(res.json().user).toMatchObject({ login: 'manager.kopia', klientSymbol: source.klientSymbol, firstName: source.firstName });
  });

  it('creates an advisor with a station, and an administrator or driver without client or station', async () => {
    const advisor = await create(newUser({ login: 'doradca.nowy', rola: 'ADVISOR', klientSymbol: 'KL001', stacjaSerw: 'SS01' }));
    expect(advisor.statusCode, advisor.body).toBe(200);
    expect(advisor.json().user).toMatchObject({ rola: 'ADVISOR', stacjaSerw: 'SS01', klientSymbol: null });
    const adm = await create(newUser({ login: 'admin.nowy', rola: 'ADMIN', klientSymbol: 'KL001' }));
    expect(adm.json().user).toMatchObject({ rola: 'ADMIN', klientSymbol: null, stacjaSerw: null });
  });

  describe('refuses every rule of the form with its message, writing nothing', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['an empty login', { login: '' }, 'login', 'Login nie może być pusty'],
      ['a login of blanks', { login: '   ' }, 'login', 'Wprowadzony login zawiera niedozwolone znaki'],
      ['a login with a space or @', { login: 'jan kowalski@x' }, 'login', 'Wprowadzony login zawiera niedozwolone znaki'],
      ['a login of 51 characters', { login: 'a'.repeat(51) }, 'login', 'Pole może mieć najwyżej 50 znaków'],
      ['a login already taken (in any case)', { login: 'MANAGER' }, 'login', 'Użytkownik o podanym loginie już istnieje'],
      ['no first name', { firstName: ' ' }, 'firstName', 'Imię nie może być puste'],
      ['no last name', { lastName: '' }, 'lastName', 'Nazwisko nie może być puste'],
      ['no e-mail', { email: '' }, 'email', 'E-mail nie może być pusty'],
      ['a wrong e-mail', { email: 'nie-email' }, 'email', 'Niepoprawny adres email'],
      ['no dataDo', { dataDo: undefined }, 'dataDo', 'Podaj datę ważności konta'],
      ['a manager without a client', { klientSymbol: null }, 'klientSymbol', 'Wybierz klienta'],
      ['a manager with an unknown client', { klientSymbol: 'NIEMA' }, 'klientSymbol', 'Nie znaleziono wybranego klienta'],
      ['an advisor without a station', { rola: 'ADVISOR', stacjaSerw: '' }, 'stacjaSerw', 'Wybierz stację serwisową'],
      ['a password that breaks the policy', { password: 'krotkie' }, 'password', 'Hasło nie może być krótsze niż 8 znaków'],
      ['an unknown role', { rola: 'SUPER' }, 'rola', 'Wybierz jedną z dostępnych wartości'],
    ];
    for (const [name, overrides, field, message] of cases) {
      it(`refuses ${name}`, async () => {
        const before = await accounts();
        const body = newUser({ login: 'odmowa', ...overrides });
        for (const [k, v] of Object.entries(body)) if (v === undefined) delete (body as any)[k];
        const res = await create(body);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().errors).toContainEqual({ field, message });
        expect(await accounts()).toBe(before);
      });
    }

    it('refuses the advisor role while the configuration does not enable it', async () => {
      const config = t.app.config.bundle.config as { advisorRoleEnabled: boolean };
      config.advisorRoleEnabled = false;
      try {
        const res = await create(newUser({ login: 'doradca.wylaczony', rola: 'ADVISOR', stacjaSerw: 'SS01' }));
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual([{ field: 'rola', message: 'Rola Doradca serwisowy nie jest włączona w konfiguracji' }]);
      } finally {
        config.advisorRoleEnabled = true;
      }
    });
  });

  it('edits a user, keeps the role as created, and ends the user’s sessions', async () => {
    const created = await create(newUser({ login: 'do.edycji' }));
    const id = created.json().user.id;
    const session = (await signIn('do.edycji', 'Zielony#Rower42')).json().id_token;
    const res = await update(id, newUser({ login: 'po.edycji', lastName: 'Mazur-Kowalska', rola: 'MANAGER', klientSymbol: 'KL002', password: undefined }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Zapisano zmiany użytkownika', user: { id, login: 'po.edycji', lastName: 'Mazur-Kowalska', klientSymbol: 'KL002' } });
    expect((await t.call('POST', '/api/user/logout', { token: session })).statusCode).toBe(401);
    const role = await update(id, newUser({ login: 'po.edycji', rola: 'ADMIN' }));
    expect(role.statusCode).toBe(400);
    expect(role.json().errors).toEqual([{ field: 'rola', message: 'Roli użytkownika nie można zmienić po jego utworzeniu' }]);
    const taken = await update(id, newUser({ login: 'manager' }));
    expect(taken.json().errors).toContainEqual({ field: 'login', message: 'Użytkownik o podanym loginie już istnieje' });
    // its own login again is not "taken"
    expect((await update(id, newUser({ login: 'PO.edycji' }))).statusCode).toBe(200);
    expect((await update(999999, newUser({ login: 'nikt' }))).statusCode).toBe(404);
  });

  it('deletes a user with history: gone from the table and from sign-in, sessions ended, history still readable, login kept', async () => {
    const created = await create(newUser({ login: 'do.usuniecia' }));
    const id = created.json().user.id;
    const session = (await signIn('do.usuniecia', 'Zielony#Rower42')).json().id_token;
    const res = await remove(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Usunięto użytkownika');
    expect((await t.call('POST', '/api/user/logout', { token: session })).statusCode).toBe(401);
    expect((await signIn('do.usuniecia', 'Zielony#Rower42')).statusCode).toBe(401);
    const table = await t.call('POST', '/api/users/table', { token: admin, body: { startRow: 0, endRow: 1000 } });
    expect(table.json().map((u: any) => u.login)).not.toContain('do.usuniecia');
    const history = await t.call('POST', '/api/login-history/table', { token: admin, body: { startRow: 0, endRow: 1000 } });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().filter((h: any) => h.login === 'do.usuniecia').length).toBeGreaterThan(0);
    // the login stays taken, so a history row never names a later account
    expect((await create(newUser({ login: 'do.usuniecia' }))).json().errors).toContainEqual({ field: 'login', message: 'Użytkownik o podanym loginie już istnieje' });
    expect((await remove(id)).statusCode).toBe(404);
    expect((await update(id, newUser({ login: 'wskrzeszony' }))).statusCode).toBe(404);
    expect((await t.call('PUT', '/api/users/change-password', { token: admin, body: { userId: id, password: 'Zielony#Rower43' } })).statusCode).toBe(404);
  });

  it('does not let an administrator delete their own account', async () => {
    const self = (await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow()).id;
    const res = await remove(self);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'DELETE_SELF', detail: 'Nie można usunąć własnego konta' });
    const table = await t.call('POST', '/api/users/table', { token: admin, body: { startRow: 0, endRow: 1000 } });
    expect(table.json().map((u: any) => u.login)).toContain('admin');
  });

  it('lets an administrator set another user’s password, which that user must change at the next sign-in', async () => {
    const id = (await create(newUser({ login: 'nowe.haslo' }))).json().user.id;
    await t.app.db.updateTable('app_user').set({ firstLogin: false }).where('id', '=', id).execute();
    const weak = await t.call('PUT', '/api/users/change-password', { token: admin, body: { userId: id, password: 'abc' } });
    expect(weak.statusCode).toBe(400);
    const res = await t.call('PUT', '/api/users/change-password', { token: admin, body: { userId: id, password: 'Niebieski#Most77' } });
    expect(res.statusCode, res.body).toBe(200);
    const signedIn = await signIn('nowe.haslo', 'Niebieski#Most77');
    expect(signedIn.json().body.userDetails.firstLogin).toBe(true);
  });

  it('is for ADMIN only: a manager gets 403, no session 401', async () => {
    const before = await accounts();
    expect((await create(newUser({ login: 'przez.managera' }), manager)).statusCode).toBe(403);
    expect((await update(1, newUser(), manager)).statusCode).toBe(403);
    expect((await remove(1, manager)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/auto-complete/clients?searchText=tra', { token: manager })).statusCode).toBe(403);
    expect((await t.call('POST', '/api/users', { body: newUser({ login: 'bez.sesji' }) })).statusCode).toBe(401);
    expect(await accounts()).toBe(before);
  });

  it('offers clients by symbol or name for the manager’s client choice', async () => {
    const res = await t.call('GET', '/api/auto-complete/clients?searchText=kl00', { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((c: any) => c.klient)).toEqual(expect.arrayContaining(['KL001', 'KL002']));
    const byName = await t.call('GET', `/api/auto-complete/clients?searchText=${encodeURIComponent('transbud')}`, { token: admin });
    expect(byName.json()).toContainEqual(expect.objectContaining({ klient: 'KL001' }));
    // LIKE's wildcards are text here
    expect((await t.call('GET', '/api/auto-complete/clients?searchText=%25', { token: admin })).json()).toEqual([]);
  });

  it('offers service stations by symbol or name for the advisor’s station choice, to the admin only', async () => {
    const bySymbol = await t.call('GET', '/api/auto-complete/stations?searchText=ss0', { token: admin });
    expect(bySymbol.statusCode).toBe(200);
    expect(bySymbol.json().map((s: any) => s.stacjaSerw)).toEqual(expect.arrayContaining(['SS01', 'SS02']));
    const byName = await t.call('GET', `/api/auto-complete/stations?searchText=${encodeURIComponent('kraków')}`, { token: admin });
    expect(byName.json()).toEqual([{ stacjaSerw: 'SS02', stacjaNazwa: 'Motor-Kraków Serwis' }]);
    expect((await t.call('GET', '/api/auto-complete/stations?searchText=_', { token: admin })).json()).toEqual([]);
    expect((await t.call('GET', '/api/auto-complete/stations?searchText=ss0', { token: manager })).statusCode).toBe(403);
  });
});
