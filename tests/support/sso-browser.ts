/**
 * The browser's part of a single sign-on (issue 36), done by hand for the API tests: at the test's
 * OpenID provider (tests/support/oidc-provider.ts) it follows the redirects, keeping the provider's
 * cookies, until the provider sends the person back to the portal's `host`.
 */

/** The portal's cookie as a browser sends it back: the first Set-Cookie's name=value. */
export const cookiePair = (setCookie: string | string[] | undefined) => String(Array.isArray(setCookie) ? setCookie[0] : setCookie ?? '').split(';')[0];

/** The browser at the provider: follows its redirects, keeping its cookies, until it sends the person back to `host`. */
export async function atProvider(authorizationUrl: string, host: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
    const next = new URL(location, url);
    if (next.host === host) return next;
    url = next.href;
  }
  throw new Error('the provider kept redirecting');
}
