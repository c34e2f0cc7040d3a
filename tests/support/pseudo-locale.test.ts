import { describe, expect, it } from 'vitest';
import { pseudoText, pseudoTexts } from './pseudo-locale.ts';

describe('pseudo-localised texts', () => {
  it('accents every letter and makes the text about a third longer, in brackets', () => {
    const text = pseudoText('Zgłoszenie szkody');
    expect(text).toMatch(/^\[.*\]$/);
    expect(text).not.toMatch(/[A-Za-z]/);
    expect(text.length).toBeGreaterThanOrEqual(Math.round('Zgłoszenie szkody'.length * 1.3));
  });

  it('keeps placeholders, nested texts, field templates and markup as they are', () => {
    const text = pseudoText('Pojazdów: {{count}} – $t(app:ok) dla {imie} <strong>teraz</strong>');
    for (const kept of ['{{count}}', '$t(app:ok)', '{imie}', '<strong>', '</strong>']) expect(text).toContain(kept);
  });

  it('leaves an empty text empty and goes through nested namespaces', () => {
    expect(pseudoText('')).toBe('');
    const texts = pseudoTexts({ app: { ok: 'OK', menu: { items: ['Pulpit'] } }, count: 3 });
    expect(texts.count).toBe(3);
    expect(texts.app.menu.items[0]).toMatch(/^\[Ṗṻṻḽṗḯḯṫ\]$/);
  });
});
