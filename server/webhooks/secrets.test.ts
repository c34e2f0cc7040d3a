/**
 * The webhook key (docs/deployment.md, WEBHOOK_SECRET_KEY): production does not start without it
 * (which keys production needs: server/config/production.test.ts),
 * development and tests keep the fixed key; a sealed secret opens only under the key it was sealed with.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tests/support/test-app.ts';
import { SecretBox } from './secrets.ts';

describe('the webhook key', () => {
  it('stops a production start-up with a message naming the variable, before the database is opened', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-no-key-'));
    try {
      const env = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', LOG: 'off' };
      delete (env as Record<string, string | undefined>).WEBHOOK_SECRET_KEY;
      delete (env as Record<string, string | undefined>).SECOND_FACTOR_OPTIONAL;
      const started = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, encoding: 'utf8' });
      expect(started.status).toBe(1);
      expect(started.stderr).toContain('WEBHOOK_SECRET_KEY');
      expect(started.stderr).toContain('Nie uruchomiono portalu');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('opens a sealed secret only under the key that sealed it', () => {
    const operator = new SecretBox('operator key');
    const sealed = operator.seal('whsec_abc');
    expect(operator.development).toBe(false);
    expect(new SecretBox('operator key').open(sealed)).toBe('whsec_abc');
    expect(() => new SecretBox(undefined).open(sealed)).toThrow();
    expect(new SecretBox(undefined).development).toBe(true);
  });
});
