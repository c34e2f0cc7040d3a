import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { translatorFor } from '../config/translator.ts';
import { describeUserAgent } from './session-device.ts';

const security = JSON.parse(readFileSync(new URL('../../locales/pl/security.json', import.meta.url), 'utf8'));
const t = await translatorFor({ pl: { security } } as never);

const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
};

describe('a session\'s device and browser as people name them', () => {
  it('names phones by what they are, with their system', () => {
    expect(describeUserAgent(UA.iphone, t)).toEqual({ device: 'iPhone (iOS 17.4)', browser: 'Safari 17' });
    expect(describeUserAgent(UA.android, t)).toEqual({ device: 'Telefon z Androidem 14', browser: 'Chrome 120' });
  });
  it('names computers by their system, without versions the browsers no longer tell', () => {
    expect(describeUserAgent(UA.edge, t)).toEqual({ device: 'Komputer z Windows', browser: 'Microsoft Edge 120' });
    expect(describeUserAgent(UA.mac, t)).toEqual({ device: 'Mac', browser: 'Safari 17' });
    expect(describeUserAgent(UA.firefoxLinux, t)).toEqual({ device: 'Komputer z Linuksem', browser: 'Firefox 121' });
  });
  it('says "nieznane" when there is no user agent', () => {
    expect(describeUserAgent(null, t)).toEqual({ device: 'nieznane', browser: 'nieznane' });
  });
});
