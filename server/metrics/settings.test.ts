import { describe, expect, it } from 'vitest';
import { metricsSettings, MetricsSettingError, tokenAccepted } from './settings.ts';

const TOKEN = 'a-long-enough-metrics-token';

describe('metrics settings from the environment', () => {
  it('serve nothing when neither METRICS_PORT nor METRICS_TOKEN is set, or both are empty', () => {
    expect(metricsSettings({})).toBeUndefined();
    expect(metricsSettings({ METRICS_PORT: '', METRICS_TOKEN: '' })).toBeUndefined();
    expect(metricsSettings({ METRICS_HOST: '0.0.0.0' })).toBeUndefined();
  });

  it('take a port of their own on 127.0.0.1 unless METRICS_HOST says otherwise, with or without a token', () => {
    expect(metricsSettings({ METRICS_PORT: '9464' })).toEqual({ port: 9464, host: '127.0.0.1', token: undefined });
    expect(metricsSettings({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', METRICS_TOKEN: TOKEN })).toEqual({ port: 9464, host: '10.0.0.5', token: TOKEN });
  });

  it('serve on the portal\'s port behind the token when only METRICS_TOKEN is set', () => {
    expect(metricsSettings({ METRICS_TOKEN: TOKEN })).toEqual({ port: undefined, host: '127.0.0.1', token: TOKEN });
  });

  it('refuse a port that is not one, the portal\'s own port, and a short token or one with spaces', () => {
    for (const env of [
      { METRICS_PORT: 'abc' }, { METRICS_PORT: '0' }, { METRICS_PORT: '70000' }, { METRICS_PORT: '3000' },
      { METRICS_PORT: '8080', PORT: '8080' }, { METRICS_TOKEN: 'short' }, { METRICS_TOKEN: 'has a space in the token' },
    ]) expect(() => metricsSettings(env), JSON.stringify(env)).toThrow(MetricsSettingError);
  });
});

describe('the metrics bearer token', () => {
  it('is accepted only as `Bearer <token>`, exactly', () => {
    expect(tokenAccepted(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(tokenAccepted(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const header of [undefined, '', TOKEN, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, `Bearer ${TOKEN} ${TOKEN}`]) {
      expect(tokenAccepted(header, TOKEN), String(header)).toBe(false);
    }
  });

  it('is not asked for when none is configured (a port of their own alone)', () => {
    expect(tokenAccepted(undefined, undefined)).toBe(true);
  });
});
