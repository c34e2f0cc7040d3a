/**
 * Issue 26, "Browsers already open get the new bundle at their next navigation (ETag)": a manager
 * has the portal open; an administrator publishes a changed text through the configuration
 * studio's API; the manager's next navigation inside the portal shows it, without a reload
 * (runtime/src/config/bundle-refresh.ts). Afterwards the published layer is put back as it was.
 */
import { type APIRequestContext } from '@playwright/test';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { expect, menuEntries, signedIn, test } from './support.ts';

const KEY = 'menu:items.assignments';
const NEW_TEXT = 'Przydziały pojazdów (nowa nazwa)';

/** The studio's API as the administrator: his token, every write signed as the runtime signs it (spec §7). */
async function studioApi(request: APIRequestContext) {
  const { name } = await (await request.get('/api/init/pre-config')).json();
  const send = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    let data: string | undefined;
    if (method !== 'GET') {
      data = JSON.stringify(body ?? {});
      const nonce = makeNonce();
      Object.assign(headers, { 'Content-Type': 'application/json', 'X-Nonce': nonce, 'X-Signature': signBody(name, nonce, data) });
    }
    let response = await request.fetch(`/api${path}`, { method, headers, data });
    // a publish reloads every variant's bundle: meanwhile the server may answer 503 "przeciążony" (try again)
    for (let attempt = 0; response.status() === 503 && attempt < 10; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (method !== 'GET') {
        const nonce = makeNonce();
        Object.assign(headers, { 'X-Nonce': nonce, 'X-Signature': signBody(name, nonce, data!) });
      }
      response = await request.fetch(`/api${path}`, { method, headers, data });
    }
    const text = await response.text();
    expect(response.status(), `${method} ${path}: ${text}`).toBeLessThan(300);
    return text ? JSON.parse(text) : undefined;
  };
  // administrators sign in with the office choice (README)
  const auth = await send('POST', '/user/auth', { role: 'MANAGER', username: 'admin', password: 'Admin123!' });
  const token: string = auth.id_token;
  return {
    get: (path: string) => send('GET', path, undefined, token),
    post: (path: string, body?: unknown) => send('POST', path, body, token),
    put: (path: string, body: unknown) => send('PUT', path, body, token),
  };
}

test('an open portal shows a newly published text at its next navigation, without a reload', async ({ page, request }) => {
  const studio = await studioApi(request);
  const before = await studio.get('/config-studio');
  if (before.draft) await studio.post('/config-studio/draft/discard');
  const { items } = await studio.get(`/config-studio/texts?scope=base&q=${encodeURIComponent(KEY)}`);
  const original: string = items.find((i: { key: string }) => i.key === KEY).text;

  const configAnswers: number[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/ui/config') configAnswers.push(r.status());
  });
  await signedIn(page, 'manager');
  expect(await menuEntries(page)).toContain(original);
  // a page that reloads loses this
  await page.evaluate(() => ((window as unknown as { stillOpen: boolean }).stillOpen = true));

  // a navigation while nothing changed: asked with the ETag, answered 304, nothing changes
  await page.waitForTimeout(2100);
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Zlecenia', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/order$/);
  await expect.poll(() => configAnswers.includes(304)).toBe(true);

  try {
    await studio.put('/config-studio/texts', { scope: 'base', key: KEY, text: NEW_TEXT });
    const published = await studio.post('/config-studio/publish', { comment: 'bundle-refresh journey' });
    expect(published.version.current).toBe(true);
    // the menu still shows the text it was loaded with: nothing changes without a navigation
    expect(await menuEntries(page)).toContain(original);

    await page.waitForTimeout(2100); // the check runs at most once every ~2 s
    await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Dane pojazdu', exact: true }).click();
    await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
    await expect.poll(() => menuEntries(page)).toContain(NEW_TEXT);
    expect(await menuEntries(page)).not.toContain(original);
    expect(configAnswers).toContain(200);
    expect(await page.evaluate(() => (window as unknown as { stillOpen?: boolean }).stillOpen)).toBe(true);
    await page.screenshot({ path: 'test-results/bundle-refresh-new-text.png' });

    // the route of the changed entry opens with its new title too
    await page.waitForTimeout(2100);
    await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: NEW_TEXT }).click();
    await expect(page).toHaveTitle(new RegExp(NEW_TEXT.replace(/[()]/g, '\\$&')));
  } finally {
    // the published layer as it was: the version current before, or the file's text published again
    const now = await studio.get('/config-studio');
    if (now.draft) await studio.post('/config-studio/draft/discard');
    if (before.published) await studio.post(`/config-studio/versions/${before.published.id}/restore`, { comment: 'bundle-refresh journey: back' });
    else {
      await studio.put('/config-studio/texts', { scope: 'base', key: KEY, text: original });
      await studio.post('/config-studio/publish', { comment: 'bundle-refresh journey: back' });
    }
  }
  const { items: after } = await studio.get(`/config-studio/texts?scope=base&q=${encodeURIComponent(KEY)}`);
  expect(after.find((i: { key: string }) => i.key === KEY).text).toBe(original);
});
