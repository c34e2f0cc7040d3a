/**
 * A copy of the configuration whose client variants sign in through a test's OpenID provider
 * (issue 36): the repository's screens, schemas, locales and variants, with `app.sso` added to the
 * named variants' variant.json. The provider's address is known only once it runs, so it cannot be
 * in the shipped files; the copy is read as CONFIG_DIR (a portal process) or `root` (startTestApp).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SsoSettings } from '../../server/sign-in/sso/settings.ts';

// not test-app.ts's ROOT: that module brings the whole server, which a browser journey must not load
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function ssoConfigRoot(sso: Record<string, SsoSettings>): string {
  const root = mkdtempSync(join(tmpdir(), 'portal-sso-config-'));
  for (const dir of ['screens', 'schemas', 'locales', 'client-variants']) cpSync(join(ROOT, dir), join(root, dir), { recursive: true });
  for (const [variant, settings] of Object.entries(sso)) {
    const file = join(root, 'client-variants', variant, 'variant.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    json.app = { ...json.app, sso: settings };
    writeFileSync(file, JSON.stringify(json, null, 2));
  }
  return root;
}
