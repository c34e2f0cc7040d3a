/**
 * Ustawienia → Powiadomienia on a phone and a desk (issue 47): the devices that receive push
 * notifications. The browser is asked for permission only when the driver clicks "Włącz
 * powiadomienia na tym urządzeniu", never when the page opens; his device is then listed, gets a
 * test message (a local push service decrypts it: tests/support/push-receiver.ts) and is removed.
 * A browser that blocks notifications, or cannot receive them, is told so.
 *
 * Headless Chromium has no push service to subscribe at, and this branch no service worker (issue
 * 47's offline part registers it): the page gets a stand-in registration whose pushManager
 * subscribes at the local push service with real keys, so the rest — permission, the portal's
 * key, the server's address check, encryption and VAPID — is the real thing. Screenshots go to
 * SHOTS when it is set.
 */
import { mkdirSync } from 'node:fs';
import { type BrowserContext, type Page } from '@playwright/test';
import { startPushReceiver, type PushReceiver } from '../support/push-receiver.ts';
import { axeScan, expect, settled, signedIn, test, toast } from './support';

test.describe.configure({ mode: 'serial' });
// the portal's own service worker registers here, as on a phone (the other journeys block it: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

const SHOTS = process.env.SHOTS;
const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/push-${name}.png`, fullPage: true });
};

let receiver: PushReceiver;
test.beforeAll(async () => { receiver = await startPushReceiver(); });
test.afterAll(async () => { await receiver?.close(); });

/**
 * The stand-in for the service worker's registration (see above), and a count of the permission
 * prompts (`__permissionAsked`). `permission` fixes what the browser says (a blocked site); `push:
 * false` is a browser without the Push API.
 */
async function standIn(context: BrowserContext, options: { path?: string; permission?: NotificationPermission; push?: boolean; replacedBy?: string } = {}) {
  const browser = options.path ? receiver.browser(options.path) : undefined;
  const replacement = options.replacedBy ? receiver.browser(options.replacedBy) : undefined;
  await context.addInitScript(({ subscription, replaced, permission, push }) => {
    const w = window as any;
    w.__permissionAsked = 0;
    if (push === false) {
      delete w.PushManager;
      return;
    }
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (async () => { w.__permissionAsked++; return ask(); }) as typeof Notification.requestPermission;
    if (permission) Object.defineProperty(Notification, 'permission', { get: () => permission });
    // the browser keeps its subscription across page loads (here in localStorage, which the kept
    // context empties between journeys); `__pushKept = 'replaced'` is the push service having
    // replaced it, as Chrome does silently when one expires
    const made = (s: any) => ({ endpoint: s.endpoint, toJSON: () => s, unsubscribe: async () => { current = null; localStorage.removeItem('__pushKept'); return true; } });
    const kept = localStorage.getItem('__pushKept');
    let current: any = kept === 'first' && subscription ? made(subscription) : kept === 'replaced' && replaced ? made(replaced) : null;
    const pushManager = {
      getSubscription: async () => current,
      subscribe: async (init: { applicationServerKey: Uint8Array }) => {
        if (!subscription) throw new Error('no push service');
        current = { ...made(subscription), options: { applicationServerKey: new Uint8Array(init.applicationServerKey).buffer } };
        localStorage.setItem('__pushKept', 'first');
        return current;
      },
    };
    Object.defineProperty(navigator.serviceWorker, 'getRegistration', { value: async () => ({ pushManager }) });
  }, { subscription: browser?.subscription ?? null, replaced: replacement?.subscription ?? null, permission: options.permission ?? null, push: options.push ?? true });
}

const devices = (page: Page) => page.getByTestId('push-device');

test('a driver turns notifications on by his own click, gets a test message on his phone and removes it', async ({ page, context }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await standIn(context, { path: '/push/journey-phone' });
  await signedIn(page, 'kierowca', '/app/account/notifications');
  const section = page.locator('[data-screen="push-devices"]');
  await expect(section.getByRole('heading', { name: 'Powiadomienia na telefonie i komputerze', level: 2 })).toBeVisible();
  const enable = page.getByRole('button', { name: 'Włącz powiadomienia na tym urządzeniu' });
  await expect(enable).toBeVisible();
  // nothing is asked when the page opens
  expect(await page.evaluate(() => (window as any).__permissionAsked)).toBe(0);
  await expect(section.getByText('Żadne urządzenie nie ma jeszcze włączonych powiadomień.')).toBeVisible();

  await context.grantPermissions(['notifications']);
  await enable.click();
  await expect(toast(page, 'Powiadomienia na tym urządzeniu są włączone.')).toBeVisible();
  expect(await page.evaluate(() => (window as any).__permissionAsked)).toBeLessThanOrEqual(1);
  await expect(section.getByText('Na tym urządzeniu powiadomienia są włączone.')).toBeVisible();
  await expect(enable).toHaveCount(0);
  await expect(devices(page)).toHaveCount(1);
  await expect(devices(page).first()).toContainText('Chrome · Linux');
  await expect(devices(page).first()).toContainText('To urządzenie');
  const serious = (await axeScan(page).include('[data-screen="push-devices"]').analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => v.id)).toEqual([]);
  await shot(page, 'devices-390');

  const before = receiver.received.length;
  await devices(page).first().getByRole('button', { name: 'Wyślij powiadomienie testowe' }).click();
  await expect(toast(page, 'Wysłano powiadomienie testowe na 1 urządzenie.')).toBeVisible();
  expect(receiver.problems).toEqual([]);
  expect(receiver.received.slice(before).map((r) => [r.path, r.payload.title, r.payload.url])).toEqual([['/push/journey-phone', 'Powiadomienie testowe', '/app/account/notifications']]);
  await expect(devices(page).first()).toContainText('Ostatnio doręczono');

  await devices(page).first().getByRole('button', { name: 'Usuń: Chrome · Linux' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, 'Usunięto urządzenie: nie będzie już dostawać powiadomień.')).toBeVisible();
  await expect(devices(page)).toHaveCount(0);
  await expect(enable).toBeVisible();
});

test('a browser that blocks notifications is told how to allow them, and is not asked', async ({ page, context }) => {
  await standIn(context, { path: '/push/blocked', permission: 'denied' });
  await signedIn(page, 'kierowca', '/app/account/notifications');
  const state = page.getByTestId('push-state');
  await expect(state).toHaveAttribute('data-state', 'denied');
  await expect(state).toContainText('Przeglądarka blokuje powiadomienia z portalu.');
  await expect(page.getByRole('button', { name: 'Włącz powiadomienia na tym urządzeniu' })).toHaveCount(0);
  expect(await page.evaluate(() => (window as any).__permissionAsked)).toBe(0);
});

test('a browser without push says so, on a desk too', async ({ page, context }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await standIn(context, { push: false });
  await signedIn(page, 'manager', '/app/account/notifications');
  await expect(page.getByTestId('push-state')).toContainText('Ta przeglądarka nie obsługuje powiadomień.');
  await expect(page.getByRole('button', { name: 'Włącz powiadomienia na tym urządzeniu' })).toHaveCount(0);
  await shot(page, 'unsupported-1400');
});

test('on a desk: the device listed beside the settings', async ({ page, context }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await standIn(context, { path: '/push/journey-desk' });
  await context.grantPermissions(['notifications']);
  await signedIn(page, 'manager', '/app/account/notifications');
  await page.getByRole('button', { name: 'Włącz powiadomienia na tym urządzeniu' }).click();
  await expect(toast(page, 'Powiadomienia na tym urządzeniu są włączone.')).toBeVisible();
  await expect(devices(page)).toHaveCount(1);
  await shot(page, 'devices-1400');
});

test('a subscription the push service replaced is registered again at the next visit, and the old device goes', async ({ page, context }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await standIn(context, { path: '/push/renew-before', replacedBy: '/push/renew-after' });
  await context.grantPermissions(['notifications']);
  await signedIn(page, 'kierowca', '/app/account/notifications');
  await page.getByRole('button', { name: 'Włącz powiadomienia na tym urządzeniu' }).click();
  await expect(toast(page, 'Powiadomienia na tym urządzeniu są włączone.')).toBeVisible();
  await expect(devices(page)).toHaveCount(1);

  // the push service ends the subscription and the browser makes another, telling nobody
  await page.evaluate(() => localStorage.setItem('__pushKept', 'replaced'));
  await page.reload();
  // the portal registered the new one and removed the old: one device, this one, and a test reaches the new address
  await expect(async () => {
    await page.reload();
    await expect(devices(page)).toHaveCount(1, { timeout: 2_000 });
    await expect(devices(page).first()).toContainText('To urządzenie', { timeout: 2_000 });
  }).toPass();
  const before = receiver.received.length;
  await devices(page).first().getByRole('button', { name: 'Wyślij powiadomienie testowe' }).click();
  await expect(toast(page, 'Wysłano powiadomienie testowe na 1 urządzenie.')).toBeVisible();
  expect(receiver.received.slice(before).map((r) => r.path)).toEqual(['/push/renew-after']);
  expect(receiver.problems).toEqual([]);
});
