import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NotificationsFile } from '../../runtime/core/generated/meta.ts';
import type { Bundle } from '../config/bundle.ts';
import { loadBundle } from '../config/load-bundle.ts';
import { composeMail } from './mail.ts';
import { imageSize } from '../config/branding.ts';
import type { Rendered } from './render.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PUBLIC_URL = 'https://portal.example.pl';

/** The bundle's texts as the server fills them: a key's text with {{name}} replaced. */
const translator = (bundle: Bundle) => (key: string, vars: Record<string, unknown> = {}) => {
  const [ns, path] = key.split(':');
  const text = path.split('.').reduce<any>((node, part) => node?.[part], (bundle.locales as any).pl[ns]);
  return typeof text === 'string' ? text.replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars[name] ?? '')) : key;
};

const rendered: Rendered = {
  subject: 'Kosztorys zlecenia 4 (WZ12345) został zatwierdzony',
  title: 'Zatwierdzono kosztorys',
  text: 'Zlecenie 4 – WZ12345 (Škoda Octavia)',
  paragraphs: ['Serwis zatwierdził kosztorys zlecenia 4 dla pojazdu WZ12345 (Škoda Octavia).'],
  facts: [
    { label: 'Zlecenie', value: '4' },
    { label: 'Pojazd', value: 'WZ12345 (Škoda Octavia)' },
    { label: 'Status', value: 'Zgłoszono <w serwisie> & "czeka"' },
    { label: 'Wartość netto kosztorysu', value: '753,00 zł' },
  ],
  link: '/app/dane-pojazdu?open=4',
  linkLabel: 'Otwórz zlecenie w portalu',
};

async function mailOf(variant: string) {
  const bundle = loadBundle({ root: ROOT, variant });
  const file = bundle.screens.notifications as unknown as NotificationsFile;
  return composeMail({ rendered, notificationId: 12, to: 'jan.kowalski@transbud.pl', bundle, t: translator(bundle), file, publicUrl: PUBLIC_URL, root: ROOT });
}

describe('a notification as an e-mail', () => {
  it('has a text part with the greeting, the text, the facts one a line, the link to the record and the settings', async () => {
    const mail = await mailOf('default');
    expect(mail.text.split('\n\n')).toEqual([
      'Dzień dobry,',
      'Serwis zatwierdził kosztorys zlecenia 4 dla pojazdu WZ12345 (Škoda Octavia).',
      'Zlecenie: 4\nPojazd: WZ12345 (Škoda Octavia)\nStatus: Zgłoszono <w serwisie> & "czeka"\nWartość netto kosztorysu: 753,00 zł',
      `Otwórz w portalu: ${PUBLIC_URL}/app/dane-pojazdu?open=4`,
      '--',
      `Nie chcesz dostawać takich wiadomości? Zmień ustawienia powiadomień: ${PUBLIC_URL}/app/account/notifications`,
      'Wiadomość wysłana automatycznie przez portal Partner CFM. Prosimy na nią nie odpowiadać.',
    ]);
    expect(mail.messageId).toBe('<notification-12@portal.example.pl>');
  });

  it('says in its HTML the language it is written in: the recipient\'s (issue 48)', async () => {
    const bundle = loadBundle({ root: ROOT, variant: 'default' });
    const file = bundle.screens.notifications as unknown as NotificationsFile;
    const mail = await composeMail({ rendered, notificationId: 12, to: 'o.shevchenko@transbud.pl', bundle, t: translator(bundle), file, publicUrl: PUBLIC_URL, root: ROOT, language: 'uk' });
    expect(mail.html).toMatch(/^<!doctype html><html lang="uk">/);
  });

  it('lays the HTML part out as mail clients render it: a 600 px table card, inline styles, one button to the record, the facts as rows, every value escaped', async () => {
    const { html = '', inline } = await mailOf('default');
    expect(html).toMatch(/^<!doctype html><html lang="pl">/);
    expect(html).toContain('<table role="presentation" class="card" width="600"');
    expect(html).toContain('max-width:600px');
    // the button: a link inside a coloured cell (the portal's blue where the variant names none)
    expect(html).toContain(`<td align="center" bgcolor="#0a4fb5"`);
    expect(html).toMatch(new RegExp(`<a href="${PUBLIC_URL}/app/dane-pojazdu\\?open=4" style="display:inline-block[^"]*">Otwórz zlecenie w portalu</a>`));
    expect(html.match(/<a href=/g)).toHaveLength(3); // the button, the address under it, the settings
    expect(html).toContain(`Jeśli przycisk nie działa, skopiuj ten adres do przeglądarki: <a href="${PUBLIC_URL}/app/dane-pojazdu?open=4"`);
    for (const [label, value] of [['Zlecenie', '4'], ['Pojazd', 'WZ12345 (Škoda Octavia)'], ['Wartość netto kosztorysu', '753,00 zł']]) {
      expect(html).toMatch(new RegExp(`class="fact-label"[^>]*>${label}</td><td class="fact-value"[^>]*>${value.replace(/[()]/g, '\\$&')}</td>`));
    }
    expect(html).toContain('Zgłoszono &#60;w serwisie&#62; &#38; &#34;czeka&#34;');
    expect(html).not.toContain('<w serwisie>');
    // a phone: the facts stack where the client honours media queries
    expect(html).toContain('@media only screen and (max-width: 480px) { .fact-label, .fact-value { display: block !important;');
    // no logo of its own (the default variant has none): the portal's name in the head
    expect(inline).toEqual([]);
    expect(html).toContain('>Partner CFM</span>');
  });

  it('wears the variant\'s look: its e-mail logo inline with its size and name, its colours on the head and the button', async () => {
    const { html = '', inline, fromName } = await mailOf('customer-brand');
    expect(fromName).toBe('Zielona Flota – portal kierowcy');
    expect(inline).toHaveLength(1);
    expect(inline![0]).toMatchObject({ filename: 'logo-mail.png', contentType: 'image/png', cid: 'logo@portal' });
    expect(inline![0].content.equals(readFileSync(join(ROOT, 'client-variants/customer-brand/assets/logo-mail.png')))).toBe(true);
    expect(html).toContain('<img src="cid:logo@portal" width="144" height="48" alt="Zielona Flota"');
    expect(html).toContain('bgcolor="#124a27"'); // the head: primaryDark
    expect(html).toContain('<td align="center" bgcolor="#1e6b3a"'); // the button: primary
    expect(html).not.toContain('#0a4fb5');
  });

  it('reads a PNG\'s and a JPEG\'s size from their headers', () => {
    expect(imageSize(readFileSync(join(ROOT, 'client-variants/customer-brand/assets/logo-mail.png')), 'image/png')).toEqual({ width: 480, height: 160 });
    // a JPEG: SOI, an APP0 segment, then SOF0 with height 50 and width 150
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x32, 0x00, 0x96, 0x03, 0x01, 0x22, 0x00]);
    expect(imageSize(jpeg, 'image/jpeg')).toEqual({ width: 150, height: 50 });
    expect(imageSize(Buffer.from('not an image'), 'image/png')).toBeUndefined();
  });
});
