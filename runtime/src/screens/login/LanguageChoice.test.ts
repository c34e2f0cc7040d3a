import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseLanguage } from './LanguageChoice';

/** A page's globals as chooseLanguage meets them: the cookie store (if any), document.cookie, the tab's storage, the reload. */
function page({ cookieStore }: { cookieStore: boolean }) {
  const steps: string[] = [];
  let stored!: () => void;
  const store = {
    set: vi.fn((cookie: { name: string; value: string }) => {
      steps.push(`store ${cookie.name}=${cookie.value} asked`);
      return new Promise<void>((resolve) => (stored = () => {
        steps.push('store answered');
        resolve();
      }));
    }),
  };
  const document = {
    set cookie(text: string) {
      steps.push(`document.cookie ${text.split(';')[0]}`);
    },
  };
  vi.stubGlobal('document', document);
  vi.stubGlobal('sessionStorage', { setItem: () => undefined });
  vi.stubGlobal('window', { ...(cookieStore ? { cookieStore: store } : {}), location: { reload: () => steps.push('reload') } });
  return { steps, store, answer: () => stored() };
}

describe('a language chosen on the sign-in page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('loads the page again only once the cookie store holds the choice (a load that overtook the cookie came back in Polish)', async () => {
    const { steps, store, answer } = page({ cookieStore: true });
    const chosen = chooseLanguage('en');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(steps).toEqual(['store portal.lang=en asked']);
    expect(store.set).toHaveBeenCalledWith(expect.objectContaining({ name: 'portal.lang', value: 'en', path: '/', sameSite: 'lax' }));
    answer();
    await chosen;
    expect(steps).toEqual(['store portal.lang=en asked', 'store answered', 'document.cookie portal.lang=en', 'reload']);
  });

  it('without a cookie store (an insecure origin, an older browser) writes the cookie and loads the page again', async () => {
    const { steps } = page({ cookieStore: false });
    await chooseLanguage('uk');
    expect(steps).toEqual(['document.cookie portal.lang=uk', 'reload']);
  });
});
