import { describe, expect, it } from 'vitest';
import { ambiguousLabels, fieldLabel, sectionGroups, type ImportDecl } from './import-declaration.ts';

const texts: Record<string, string> = {
  'car:fields.ocPolisa': 'Polisa', 'car:fields.acPolisa': 'Polisa', 'car:fields.rejestr': 'Nr rejestracyjny',
  'car:sections.oc': 'OC', 'car:sections.ac': 'AC', 'car:sections.identity': 'Identyfikacja',
};
const t = (key: string) => texts[key] ?? key;
const screen = {
  tabs: [{ sections: [{ id: 'identity', label: 'car:sections.identity', fields: [{ id: 'rejestr' }] }] },
    { sections: [{ id: 'oc', label: 'car:sections.oc', fields: [{ id: 'ocPolisa' }] }, { id: 'ac', label: 'car:sections.ac', fields: [{ id: 'acPolisa' }] }] }],
};
const decl = (groups?: Record<string, string>): ImportDecl => ({
  import: 'car', entity: 'car', table: 'car', key: ['rejestr'], groups,
  fields: [{ id: 'rejestr' }, { id: 'ocPolisa' }, { id: 'acPolisa' }],
});

describe('import field labels', () => {
  it('reads which section of a screen shows each field', () => {
    expect(sectionGroups(screen)).toEqual({ rejestr: 'car:sections.identity', ocPolisa: 'car:sections.oc', acPolisa: 'car:sections.ac' });
  });

  it('prefixes a shared label with its section, and leaves a label of its own alone', () => {
    const grouped = decl(sectionGroups(screen));
    expect(grouped.fields.map((f) => fieldLabel(grouped, f, t))).toEqual(['Nr rejestracyjny', 'OC – Polisa', 'AC – Polisa']);
    expect(ambiguousLabels(grouped, t)).toEqual([]);
  });

  it('names the fields a mapping could not tell apart', () => {
    expect(ambiguousLabels(decl(), t)).toEqual([{ pointer: '/fields/2', reason: expect.stringContaining('ocPolisa, acPolisa are all named "Polisa"') }]);
  });
});
