import { describe, expect, it } from 'vitest';
import { compatibilityText } from './startup';

describe('compatibility messages', () => {
  it('fills in the REQUIRED and CURRENT versions of a message', () => {
    expect(
      compatibilityText({ initError: 'Minimalna wersja bazy danych: REQUIRED, obecna: CURRENT', required: '2.1', current: '1.9', initializationBlocking: true }),
    ).toBe('Minimalna wersja bazy danych: 2.1, obecna: 1.9');
  });

  it('shows a message without versions as it is', () => {
    expect(compatibilityText({ initError: 'Brak konfiguracji poczty', initializationBlocking: false })).toBe('Brak konfiguracji poczty');
  });
});
