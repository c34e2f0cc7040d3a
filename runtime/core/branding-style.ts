/**
 * A client variant's colours as CSS custom properties (screens/app.json `branding`, docs/variants.md):
 * pure, shared by the runtime (config/branding.ts sets them on the document) and the server, which
 * writes the same ones into the page it serves (server/init/first-paint.ts), so the first paint
 * already has the variant's colours.
 */
export interface Branding {
  logo?: string;
  logoAlt?: string;
  favicon?: string;
  colors?: { primary?: string; primaryDark?: string; loginBackground?: string };
}

const COLOR_PROPERTIES: Record<keyof NonNullable<Branding['colors']>, string> = {
  primary: '--portal-primary',
  primaryDark: '--portal-primary-dark',
  loginBackground: '--portal-login-background',
};

/** '#1e6b3a' → '30, 107, 58' (Bootstrap's *-rgb properties). */
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ');

/**
 * The CSS custom properties of the branding's colours: the portal's own (styles.css) and
 * Bootstrap's primary and link colours, so links, checked radios and focus rings follow the brand too.
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

/** Where the runtime and the served page ask for a branding image (server/routes/variant-assets.ts). */
export const brandingImagePath = (file: string) => `/api/ui/assets/${encodeURIComponent(file)}`;
