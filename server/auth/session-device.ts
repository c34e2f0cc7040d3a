/**
 * A session's device and browser as people name them (issue 49, Ustawienia → Bezpieczeństwo):
 * "iPhone (iOS 17.4)", "Telefon z Androidem 14", "Komputer z Windows", "Mac", and "Chrome 120",
 * from the user agent the session signed in with (bowser). The words are security:sessions.devices
 * in the locales. What a user agent no longer tells truly is left out: Safari on every Mac says
 * macOS 10.15.7, and Windows 11 says Windows 10, so neither version is shown.
 */
import Bowser from 'bowser';

type Translate = (key: string, vars?: Record<string, unknown>) => string;

export function describeUserAgent(userAgent: string | null | undefined, t: Translate): { device: string; browser: string } {
  const unknown = t('security:sessions.unknown');
  if (!userAgent) return { device: unknown, browser: unknown };
  const parsed = Bowser.parse(userAgent);
  const os = parsed.os.name ?? '';
  const version = parsed.os.version ?? '';
  const type = parsed.platform.type ?? '';
  const key = (name: string, vars: Record<string, unknown> = {}) => t(`security:sessions.devices.${name}`, vars);
  let device: string;
  if (os === 'iOS' && parsed.platform.model) device = key('apple', { model: parsed.platform.model, version });
  else if (os === 'Android') device = key(type === 'tablet' ? 'androidTablet' : 'androidPhone', { version }).trim();
  else if (os === 'Windows') device = key('windows');
  else if (os === 'macOS') device = key('mac');
  else if (os === 'Chrome OS') device = key('chromebook');
  else if (os === 'Linux') device = key('linux');
  else {
    const kind = type ? t(`security:sessions.platforms.${type}`, { defaultValue: type }) : '';
    device = [kind, os && `(${[os, version].filter(Boolean).join(' ')})`].filter(Boolean).join(' ');
  }
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  return { device: device || unknown, browser: browser || unknown };
}
