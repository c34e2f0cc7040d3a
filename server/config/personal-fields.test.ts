import { mkdtempSync, readFileSync, writeFileSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadBundle } from './load-bundle.ts';
import { looksPersonal, personalFieldProblems, personalFields } from './personal-fields.ts';
import type { EntitySchema } from './bundle.ts';

const FILE = 'schemas/entities/driver.schema.json';
const entity = (extra: Record<string, unknown>, properties: Record<string, EntitySchema>) => ({ $id: 'driver', type: 'object', ...extra, properties });

describe('the declaration of personal fields in an entity schema', () => {
  it('refuses an entity that does not classify itself, naming the file and the keyword', () => {
    expect(personalFieldProblems(entity({}, { id: { type: 'integer' } }), FILE)).toEqual([
      expect.objectContaining({ file: FILE, pointer: '/x-personal' }),
    ]);
  });

  it('accepts an entity that names nobody when it says so', () => {
    expect(personalFieldProblems(entity({ 'x-personal': {} }, { id: { type: 'integer' }, kwota: { type: 'number' } }), FILE)).toEqual([]);
  });

  it('refuses a field that looks personal by its name and is not declared', () => {
    const problems = personalFieldProblems(entity({ 'x-personal': { nazwisko: 'name' } }, {
      nazwisko: { type: 'string' }, kierowcaTelefon: { type: 'string' }, zgloNazwiskoImie: { type: 'string' }, sprawcaUlica: { type: 'string' },
    }), FILE);
    expect(problems.map((p) => p.pointer)).toEqual(['/properties/kierowcaTelefon', '/properties/zgloNazwiskoImie', '/properties/sprawcaUlica']);
    expect(problems[0].reason).toContain('phone');
  });

  it('refuses an undeclared field whose format is an e-mail, whatever its name', () => {
    const problems = personalFieldProblems(entity({ 'x-personal': {} }, { kontakt: { type: 'string', format: 'email' } }), FILE);
    expect(problems).toEqual([expect.objectContaining({ pointer: '/properties/kontakt' })]);
  });

  it('lets a property that only looks personal say it is not', () => {
    expect(personalFieldProblems(entity({ 'x-personal': {} }, { miejscow: { type: 'string', 'x-personal': false } }), FILE)).toEqual([]);
  });

  it('refuses a declared field the entity lacks, an unknown kind, and a property flag other than false', () => {
    const problems = personalFieldProblems(entity({ 'x-personal': { pesel: 'identifier', email: 'mail' } }, {
      email: { type: 'string' }, telefon: { type: 'string', 'x-personal': true },
    }), FILE);
    expect(problems.map((p) => p.pointer)).toEqual(['/x-personal/pesel', '/x-personal/email', '/properties/telefon/x-personal']);
  });

  it('does not take flags about logins for a login', () => {
    expect(looksPersonal('firstLogin', { type: 'boolean' })).toBeNull();
    expect(looksPersonal('loginDate', { type: 'string' })).toBeNull();
    expect(looksPersonal('login', { type: 'string' })).toBe('login');
  });

  it('holds for every entity schema of the checkout, and each declares the fields RODO needs', () => {
    const bundle = loadBundle({ root: resolve(import.meta.dirname, '../..'), variant: 'default' });
    expect(personalFields(bundle.schemas.damage)).toMatchObject({ zgloNazwiskoImie: 'name', zgloTelef: 'phone', zgloEmail: 'email' });
    expect(personalFields(bundle.schemas.user)).toMatchObject({ login: 'login', firstName: 'name', lastName: 'name', email: 'email' });
    expect(personalFields(bundle.schemas.note)).toEqual({ autor: 'name' });
  });

  it('stops the configuration from loading (npm run check, start-up) when an entity leaves a personal field out', () => {
    const root = resolve(import.meta.dirname, '../..');
    const copy = mkdtempSync(join(tmpdir(), 'personal-'));
    try {
      for (const dir of ['screens', 'schemas', 'locales', 'client-variants']) cpSync(join(root, dir), join(copy, dir), { recursive: true });
      const file = join(copy, 'schemas/entities/note.schema.json');
      const note = JSON.parse(readFileSync(file, 'utf8'));
      delete note['x-personal'].autor;
      writeFileSync(file, JSON.stringify(note));
      let error: unknown;
      try { loadBundle({ root: copy, variant: 'default' }); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toContainEqual(expect.objectContaining({ file: 'schemas/entities/note.schema.json', pointer: '/properties/autor' }));
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
