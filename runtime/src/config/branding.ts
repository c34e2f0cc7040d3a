/**
 * A client variant's look (screens/app.json `branding`, set in its variant.json; docs/variants.md):
 * colours as CSS custom properties (styles.css reads them under :root[data-branded]), the favicon,
 * and the logo the login page shows. The images come from GET /api/ui/assets/{file} through the
 * API client, so a signed-in user whose client chooses the variant gets its images on any host;
 * they are shown from blob: URLs (allowed by the CSP's img-src).
 */
import { api } from '../api/client';
import type { Bundle } from './bundle';

export interface Branding {
  logo?: string;
  logoAlt?: string;
  favicon?: string;
  colors?: { primary?: string; primaryDark?: string; loginBackground?: string };
}

/** What the screens show of the branding: the logo as a URL the browser can display. */
export interface AppliedBranding {
  logoUrl?: string;
  logoAlt?: string;
}

const COLOR_PROPERTIES: Record<keyof NonNullable<Branding['colors']>, string> = {
  primary: '--portal-primary',
  primaryDark: '--portal-primary-dark',
  loginBackground: '--portal-login-background',
};

/** '#1e6b3a' → '30, 107, 58' (Bootstrap's *-rgb properties). */
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ');

/**
 * The CSS custom properties of the branding's colours (pure: tested without a document): the
 * portal's own (styles.css) and Bootstrap's primary and link colours, so links, checked radios
 * and focus rings follow the brand too.
 */
export function brandingStyle(branding: Branding): Record<string, string> {
  const colors = branding.colors ?? {};
  const style: Record<string, string> = Object.fromEntries(
    Object.entries(colors).flatMap(([name, value]) => (value ? [[COLOR_PROPERTIES[name as keyof typeof COLOR_PROPERTIES], value]] : [])),
  );
  if (colors.primary) {
    Object.assign(style, { '--bs-primary': colors.primary, '--bs-primary-rgb': rgb(colors.primary), '--bs-link-color': colors.primary, '--bs-link-color-rgb': rgb(colors.primary) });
  }
  if (colors.primaryDark) Object.assign(style, { '--bs-link-hover-color': colors.primaryDark, '--bs-link-hover-color-rgb': rgb(colors.primaryDark) });
  return style;
}

async function imageUrl(file: string): Promise<string | undefined> {
  try {
    const blob = await api.get<Blob>(`/ui/assets/${encodeURIComponent(file)}`, { responseType: 'blob', quiet: true });
    return URL.createObjectURL(blob);
  } catch {
    return undefined; // a missing image leaves the default look, never a broken page
  }
}

export async function applyBranding(bundle: Bundle): Promise<AppliedBranding> {
  const branding = ((bundle.app as { branding?: Branding }).branding ?? {}) as Branding;
  const root = document.documentElement;
  const style = brandingStyle(branding);
  for (const [property, value] of Object.entries(style)) root.style.setProperty(property, value);
  if (Object.keys(style).length) root.dataset.branded = bundle.variant;
  const [logoUrl, faviconUrl] = await Promise.all([
    branding.logo ? imageUrl(branding.logo) : undefined,
    branding.favicon ? imageUrl(branding.favicon) : undefined,
  ]);
  if (faviconUrl) document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.setAttribute('href', faviconUrl);
  return { logoUrl, logoAlt: branding.logoAlt };
}
