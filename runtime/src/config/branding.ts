/**
 * A client variant's look (screens/app.json `branding`, set in its variant.json; docs/variants.md):
 * colours as CSS custom properties (styles.css reads them under :root[data-branded]), the favicon,
 * and the logo the login page shows. The images come from GET /api/ui/assets/{file} through the
 * API client, so a signed-in user whose client chooses the variant gets its images on any host;
 * they are shown from blob: URLs (allowed by the CSP's img-src).
 */
import { api } from '../api/client';
import { brandingStyle, type Branding } from '../../core/branding-style';
import type { Bundle } from './bundle';

export { brandingStyle, type Branding };

/** What the screens show of the branding: the logo as a URL the browser can display. */
export interface AppliedBranding {
  logoUrl?: string;
  logoAlt?: string;
}

/** `decoded`: the image is decoded before its URL is given, so the page that shows it draws it at its size at once (the logo replacing the served page's: no shift). */
async function imageUrl(file: string, decoded = false): Promise<string | undefined> {
  try {
    const blob = await api.get<Blob>(`/ui/assets/${encodeURIComponent(file)}`, { responseType: 'blob', quiet: true });
    const url = URL.createObjectURL(blob);
    if (decoded) {
      const image = new Image();
      image.src = url;
      await image.decode().catch(() => undefined);
    }
    return url;
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
    branding.logo ? imageUrl(branding.logo, true) : undefined,
    branding.favicon ? imageUrl(branding.favicon) : undefined,
  ]);
  if (faviconUrl) document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.setAttribute('href', faviconUrl);
  return { logoUrl, logoAlt: branding.logoAlt };
}
