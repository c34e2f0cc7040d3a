import { describe, expect, it } from 'vitest';
import { initials } from './RoleBadge';

describe('the header names the person signed in, not the role', () => {
  it('shows the initials of the first and the last name', () => {
    expect(initials({ firstName: 'Piotr', lastName: 'Zieliński', login: 'admin' })).toBe('PZ');
    expect(initials({ firstName: 'łucja', lastName: 'Świętek', login: 'x' })).toBe('ŁŚ');
  });
  it('falls back on the login when no name is known', () => {
    expect(initials({ firstName: null, lastName: '', login: 'kierowca' } as never)).toBe('K');
  });
});
