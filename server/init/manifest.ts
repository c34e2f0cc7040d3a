/**
 * The web app manifest of the request's variant (issue 47): what a phone needs to put the portal
 * on its home screen — the name (loginAppName), the short name, colours, start page and icons of
 * `app.install` (screens/app.json, overlaid by the variant: docs/variants.md), its description in
 * the caller's language. Served by server/routes/variant-assets.ts at /api/ui/manifest and linked
 * from every page (runtime/index.html); without `install` the variant is not offered for
 * installation (no manifest: 404).
 */
import { brandingImagePath, type Branding } from '../../runtime/core/branding-style.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle } from '../config/bundle.ts';

export interface InstallConfig {
  shortName: string;
  description: string;
  startPath?: string;
  themeColor?: string;
  backgroundColor?: string;
  icons?: { icon192: string; icon512: string; maskable: string };
}

/** The runtime's own icons (runtime/public/icons, drawn by tools/app-icons.ts from runtime/public/favicon.svg). */
export const RUNTIME_ICONS = { icon192: '/icons/icon-192.png', icon512: '/icons/icon-512.png', maskable: '/icons/icon-maskable-512.png' };

/** Bootstrap's primary colour: the portal's look without a variant's branding. */
const DEFAULT_THEME = '#0d6efd';

export const installConfig = (bundle: Bundle) => (bundle.app as { install?: InstallConfig }).install;

/** The manifest (https://www.w3.org/TR/appmanifest/), or undefined when the variant declares no installation. */
export function webAppManifest(bundle: Bundle, t: Translate, languageId: string): Record<string, unknown> | undefined {
  const install = installConfig(bundle);
  if (!install) return undefined;
  const app = bundle.app as { loginAppName: string; branding?: Branding };
  const own = install.icons;
  const src = (file: string, runtime: string) => (own ? brandingImagePath(file) : runtime);
  const start = install.startPath ?? '/app';
  const { themeColor } = installHead(bundle);
  return {
    // one installed app per variant host, whatever page it was installed from
    id: '/',
    name: app.loginAppName,
    short_name: install.shortName,
    description: t(install.description),
    lang: languageId,
    dir: 'ltr',
    start_url: start,
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: themeColor,
    background_color: install.backgroundColor ?? '#ffffff',
    icons: [
      { src: src(own?.icon192 ?? '', RUNTIME_ICONS.icon192), sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: src(own?.icon512 ?? '', RUNTIME_ICONS.icon512), sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: src(own?.maskable ?? '', RUNTIME_ICONS.maskable), sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

/** The page's own installation tags (server/plugins/delivery.ts): the status bar's colour and the iOS home-screen icon. */
export function installHead(bundle: Bundle): { themeColor: string; touchIcon: string } {
  const install = installConfig(bundle);
  const branding = (bundle.app as { branding?: Branding }).branding;
  return {
    themeColor: install?.themeColor ?? branding?.colors?.primary ?? DEFAULT_THEME,
    touchIcon: install?.icons ? brandingImagePath(install.icons.icon192) : RUNTIME_ICONS.icon192,
  };
}

/** The asset files a variant's installation names (served by /api/ui/assets beside the logo and favicon). */
export const installIconFiles = (bundle: Bundle): string[] => Object.values(installConfig(bundle)?.icons ?? {});
