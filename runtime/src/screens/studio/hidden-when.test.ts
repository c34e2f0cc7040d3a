import { describe, expect, it } from 'vitest';
import { applyHidden, flagClause, readHidden, roleClause, rolesOf, flagOf, writeHidden } from './hidden-when';

const REF = { $ref: 'conditions#/$defs/user' };

describe('the hiddenWhen the studio writes', () => {
  it('hides for roles with one role clause, in the declared order of roles', () => {
    expect(writeHidden({ roles: ['USER', 'ADMIN'], flags: [], other: [] }, ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'])).toEqual({ properties: { role: { enum: ['ADMIN', 'USER'] } } });
  });

  it('hides under a flag of the settings', () => {
    expect(writeHidden({ roles: [], flags: ['showTiresTable'], other: [] })).toEqual({
      properties: { config: { properties: { showTiresTable: { const: true } }, required: ['showTiresTable'] } },
    });
  });

  it('joins the files’ own condition with anyOf and gives it back when the choice is cleared', () => {
    const choice = readHidden(REF);
    expect(choice).toEqual({ roles: [], flags: [], other: [REF] });
    const joined = writeHidden({ ...choice, roles: ['USER'] });
    expect(joined).toEqual({ anyOf: [REF, roleClause(['USER'])] });
    const back = readHidden(joined);
    expect(back).toEqual({ roles: ['USER'], flags: [], other: [REF] });
    expect(writeHidden({ ...back, roles: [] })).toEqual(REF);
  });

  it('reads roles and flags back from its own clauses, and nothing from a foreign condition', () => {
    const written = writeHidden({ roles: ['MANAGER'], flags: ['a', 'b'], other: [] });
    expect(readHidden(written)).toEqual({ roles: ['MANAGER'], flags: ['a', 'b'], other: [] });
    expect(rolesOf({ properties: { role: { const: 'USER' } } })).toBeNull();
    expect(flagOf({ properties: { config: { properties: { a: { const: false } }, required: ['a'] } } })).toBeNull();
    expect(flagOf(flagClause('x'))).toBe('x');
  });

  it('removes hiddenWhen when nothing hides the item', () => {
    const item: Record<string, unknown> = { id: 'x', hiddenWhen: roleClause(['USER']) };
    applyHidden(item, { roles: [], flags: [], other: [] });
    expect(item).toEqual({ id: 'x' });
  });
});
