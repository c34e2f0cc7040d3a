import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { translatorFor } from '../config/translator.ts';
import { errorCode, testOutcome } from './test-outcome.ts';

const webhooks = JSON.parse(readFileSync(new URL('../../locales/pl/webhooks.json', import.meta.url), 'utf8'));
const t = await translatorFor({ pl: { webhooks } } as never);

describe('what a test event became, in words (issue 49)', () => {
  it('finds the system\'s code wherever the error names it', () => {
    expect(errorCode('ENOTFOUND: getaddrinfo ENOTFOUND x.invalid')).toBe('ENOTFOUND');
    expect(errorCode('Error: getaddrinfo ENOTFOUND x.invalid')).toBe('ENOTFOUND');
    expect(errorCode('TIMEOUT')).toBe('TIMEOUT');
    expect(errorCode('CERT_HAS_EXPIRED: certificate has expired')).toBe('CERT_HAS_EXPIRED');
    expect(errorCode('Error: something')).toBe('other');
  });
  it('says delivered, refused with the status, failed with the reason, or still waiting', () => {
    expect(testOutcome({ status: 204, error: null }, t)).toEqual({ outcome: 'delivered', message: 'Zdarzenie testowe dostarczone: odbiorca odpowiedział 204.' });
    expect(testOutcome({ status: 404, error: 'HTTP 404' }, t).outcome).toBe('refused');
    expect(testOutcome({ status: null, error: 'Error: getaddrinfo ENOTFOUND x.invalid' }, t).message)
      .toBe('Nie udało się wysłać zdarzenia testowego: nie znaleziono serwera o tej nazwie');
    expect(testOutcome({ status: null, error: 'ECONNREFUSED: connect ECONNREFUSED 1.2.3.4:443' }, t).message).toContain('serwer odmówił połączenia');
    expect(testOutcome({ status: null, error: 'DEPTH_ZERO_SELF_SIGNED_CERT: self-signed' }, t).message).toContain('certyfikat serwera jest nieprawidłowy');
    expect(testOutcome({ status: null, error: 'EPROTO: x' }, t).message).toContain('błąd połączenia (EPROTO)');
    expect(testOutcome(undefined, t).outcome).toBe('pending');
  });
});
