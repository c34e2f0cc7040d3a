/**
 * The worker's kept context (kept-context.ts, issue 44): the second journey gets the first one's
 * context, yet finds none of what the first left behind.
 */
import { expect, test } from './support';

test.describe.configure({ mode: 'serial' });

let first: unknown;

test('a journey leaves cookies, storage, a database, a permission and the network off behind', async ({ page, context }) => {
  first = context;
  await page.goto('/');
  await context.addCookies([{ name: 'left', value: 'behind', url: page.url() }]);
  await context.grantPermissions(['notifications']);
  await page.evaluate(async () => {
    localStorage.setItem('left', 'behind');
    sessionStorage.setItem('left', 'behind');
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('left-behind', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('things');
      open.onsuccess = () => { open.result.close(); resolve(); };
      open.onerror = () => reject(open.error);
    });
    await (await caches.open('left-behind')).put('/left', new Response('behind'));
  });
  await context.setOffline(true);
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
});

test('the next journey in the worker gets the same context, clean', async ({ page, context }) => {
  expect(context, 'the context was kept').toBe(first);
  expect(context.pages(), 'only its own page').toEqual([page]);
  await page.goto('/');
  expect(await context.cookies()).toEqual([]);
  const left = await page.evaluate(async () => ({
    online: navigator.onLine,
    local: localStorage.getItem('left'),
    session: sessionStorage.getItem('left'),
    databases: (await indexedDB.databases()).map((d) => d.name),
    caches: await caches.keys(),
    notifications: (await navigator.permissions.query({ name: 'notifications' })).state,
  }));
  expect(left).toEqual({ online: true, local: null, session: null, databases: [], caches: [], notifications: 'prompt' });
});
