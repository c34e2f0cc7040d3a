import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_STORAGE_KEY as sessionModuleKey } from './state/session';
import { FIRST_USE_EVENTS, SESSION_STORAGE_KEY, startWhenUsed, waitsForFirstUse } from './start-gate';

/** A page as start-gate.ts sees it: the served sign-in page or not, its address, its tab's storage, its window's listeners. */
function page({ served = true, search = '', hash = '', stored = {} as Record<string, string>, framed = false, controls = [] as object[], focused = false } = {}) {
  const listeners = new Map<string, () => void>();
  const storage = new Map(Object.entries(stored));
  const self = {};
  // the served form: its fields as the browser has them, and whether one of them has the focus
  const field = {};
  const form = { contains: (node: unknown) => node === field, querySelectorAll: () => controls };
  vi.stubGlobal('document', { getElementById: (id: string) => (served && id === 'first-paint' ? form : null), activeElement: focused ? field : {} });
  vi.stubGlobal('location', { search, hash });
  vi.stubGlobal('sessionStorage', { getItem: (key: string) => storage.get(key) ?? null });
  vi.stubGlobal('self', self);
  vi.stubGlobal('top', framed ? {} : self);
  vi.stubGlobal('window', {
    addEventListener: (type: string, listener: () => void) => listeners.set(type, listener),
    removeEventListener: (type: string) => listeners.delete(type),
  });
  return { listeners, use: (type: string) => listeners.get(type)?.() };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('when the runtime starts', () => {
  it('waits for a visitor on the served sign-in page with nothing else to do', () => {
    page();
    expect(waitsForFirstUse()).toBe(true);
  });

  it('starts at once for a session in this tab, a studio preview, a dialog or call in the address, or a page the server did not draw', () => {
    page({ stored: { [SESSION_STORAGE_KEY]: '{"token":"t"}' } });
    expect(waitsForFirstUse()).toBe(false);
    page({ search: '?reset=abc' });
    expect(waitsForFirstUse()).toBe(false);
    page({ hash: '#sso=abc' });
    expect(waitsForFirstUse()).toBe(false);
    page({ search: '?studioPreview=draft' });
    expect(waitsForFirstUse()).toBe(false);
    page({ framed: true, stored: { 'portal.studioPreview.frame': '{}' } });
    expect(waitsForFirstUse()).toBe(false);
    page({ served: false });
    expect(waitsForFirstUse()).toBe(false);
  });

  it('starts at once where the browser refuses its storage to the page', () => {
    page();
    vi.stubGlobal('sessionStorage', { getItem: () => { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
    expect(waitsForFirstUse()).toBe(false);
  });

  it('reads the session where the runtime keeps it', () => {
    expect(SESSION_STORAGE_KEY).toBe(sessionModuleKey);
  });

  it('is started once, by whichever use comes first, and tries again at the next use when its files could not be fetched', async () => {
    const { listeners, use } = page();
    const start = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined);
    startWhenUsed(start);
    expect(start).not.toHaveBeenCalled();
    expect([...listeners.keys()].sort()).toEqual([...FIRST_USE_EVENTS].sort());
    use('click');
    expect(start).toHaveBeenCalledTimes(1);
    expect(listeners.size).toBe(0);
    // the failed fetch arms the page again
    await vi.waitFor(() => expect(listeners.size).toBe(FIRST_USE_EVENTS.length));
    use('keydown');
    expect(start).toHaveBeenCalledTimes(2);
    expect(listeners.size).toBe(0);
  });

  it('starts at once where it does not wait', () => {
    const { listeners } = page({ served: false });
    const start = vi.fn().mockResolvedValue(undefined);
    startWhenUsed(start);
    expect(start).toHaveBeenCalledTimes(1);
    expect(listeners.size).toBe(0);
  });

  it('starts at once where the visitor used the served page before the entry ran: a field focused, a value typed, a role or a language chosen', () => {
    const login = (value: string) => ({ type: 'text', value, defaultValue: '' });
    const role = (checked: boolean, defaultChecked: boolean) => ({ type: 'radio', checked, defaultChecked });
    const language = (selectedIndex: number) => ({ selectedIndex, options: [{ defaultSelected: true }, { defaultSelected: false }] });
    const untouched = [login(''), role(true, true), role(false, false), language(0)];
    const startsAtOnce = (options: Parameters<typeof page>[0]) => {
      const { listeners } = page(options);
      const start = vi.fn().mockResolvedValue(undefined);
      startWhenUsed(start);
      return start.mock.calls.length === 1 && listeners.size === 0;
    };
    expect(startsAtOnce({ controls: untouched })).toBe(false);
    expect(startsAtOnce({ controls: untouched, focused: true })).toBe(true);
    expect(startsAtOnce({ controls: [login('jan'), role(true, true), role(false, false), language(0)] })).toBe(true);
    expect(startsAtOnce({ controls: [login(''), role(false, true), role(true, false), language(0)] })).toBe(true);
    expect(startsAtOnce({ controls: [login(''), role(true, true), role(false, false), language(1)] })).toBe(true);
    // a select drawn with no option marked shows its first
    expect(startsAtOnce({ controls: [{ selectedIndex: 0, options: [{ defaultSelected: false }, { defaultSelected: false }] }] })).toBe(false);
  });

  it('a start that failed after such an early use waits for his next use, rather than trying again at once', async () => {
    const { listeners, use } = page({ controls: [{ type: 'text', value: 'jan', defaultValue: '' }] });
    const start = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined);
    startWhenUsed(start);
    expect(start).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(listeners.size).toBe(FIRST_USE_EVENTS.length));
    expect(start).toHaveBeenCalledTimes(1);
    use('keydown');
    expect(start).toHaveBeenCalledTimes(2);
  });
});
