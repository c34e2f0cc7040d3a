/**
 * The client scope of server/access/row-scope.ts for a fleet manager (one client) and for an
 * integration key (a list of clients, issue 34): the WHERE clause it adds, compiled, not run.
 */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Session } from '../auth/session.ts';
import type { ResourceDecl } from '../config/bundle.ts';
import type { ConfiguredTables } from '../db/configured-tables.ts';
import { scopeExpression } from './row-scope.ts';

const db = new Kysely<ConfiguredTables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const car = { resource: 'car', entity: 'car', source: 'v_car', key: 'pojazdId', access: { ADMIN: 'all', MANAGER: 'client' } } as unknown as ResourceDecl;
const resources = { car };
const base: Session = { tokenHash: 'h', userId: 0, login: 'x', role: 'MANAGER', klientSymbol: null, stacjaSerw: null, pojazdId: null, termsPending: false, firstLogin: false };
const integration = (clients: 'all' | string[]) => ({ accountId: 1, keyId: 2, clients, scopes: ['read:car'] });

function where(session: Session) {
  const { sql, parameters } = db.selectFrom('v_car').select('pojazdId').where((eb) => scopeExpression(eb, resources, car, session, 'forbidden')).compile();
  return { sql: sql.slice(sql.indexOf(' where ') + 7), parameters };
}

describe('the client scope', () => {
  it('is the manager\'s one client', () => {
    expect(where({ ...base, klientSymbol: 'KL001' })).toEqual({ sql: '"klientSymbol" = $1', parameters: ['KL001'] });
  });

  it('is every client a key names, whatever klientSymbol says', () => {
    expect(where({ ...base, klientSymbol: null, integration: integration(['KL001', 'KL002']) })).toEqual({ sql: '"klientSymbol" in ($1, $2)', parameters: ['KL001', 'KL002'] });
    expect(where({ ...base, klientSymbol: 'KL009', integration: integration(['KL001']) })).toEqual({ sql: '"klientSymbol" in ($1)', parameters: ['KL001'] });
  });

  it('matches nothing for a key of no client, or a manager without one', () => {
    expect(where({ ...base, integration: integration([]) }).sql).toBe('false');
    expect(where({ ...base, klientSymbol: null }).sql).toBe('false');
  });

  it('is everything for a key of every client, judged as ADMIN', () => {
    expect(where({ ...base, role: 'ADMIN', integration: integration('all') }).sql).toBe('true');
  });
});
