/**
 * A rendered notification as an e-mail: a text and an HTML part in Polish, the recipient's
 * variant's name (the sender's display name, the heading) and logo (inline, so it shows without
 * the portal being reachable from the mail client), a link to the record and one to the
 * recipient's notification settings. Links are built from the portal's public address
 * (PUBLIC_URL), never from a request's Host header, which a caller chooses. The Message-ID is
 * derived from the notification's id, so a mail system that sees the same notification twice can
 * tell it is one message.
 */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { NotificationsFile } from '../../runtime/core/generated/meta.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle } from '../config/bundle.ts';
import { variantAssetsDir } from '../config/load-bundle.ts';
import type { Message } from '../mail/mailer.ts';
import { appNameOf, type Rendered } from './render.ts';

const DEFAULT_SETTINGS_ROUTE = '/app/account/notifications';
const IMAGE_TYPES: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An absolute address in the portal: the public address and an in-portal path. */
export function portalUrl(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** `<notification-12@portal.example.pl>`: one notification, one Message-ID, on every attempt. */
export function messageIdOf(notificationId: number, publicUrl: string): string {
  let host = 'localhost';
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // a malformed PUBLIC_URL is refused at start-up; this is only a fallback
  }
  return `<notification-${notificationId}@${host}>`;
}

export interface MailInput {
  rendered: Rendered;
  notificationId: number;
  to: string;
  bundle: Bundle;
  t: Translate;
  file: NotificationsFile;
  publicUrl: string;
  /** The configuration root (the variants' assets/ folders). */
  root: string;
}

export async function composeMail(input: MailInput): Promise<Message> {
  const { rendered, bundle, t, file, publicUrl } = input;
  const appName = appNameOf(bundle);
  const frame = file.mail ?? {};
  const recordUrl = rendered.link ? portalUrl(publicUrl, rendered.link) : portalUrl(publicUrl, '/');
  const settingsUrl = portalUrl(publicUrl, frame.settingsRoute ?? DEFAULT_SETTINGS_ROUTE);
  const openLine = frame.open ? t(frame.open, { url: recordUrl }) : recordUrl;
  const settingsLine = frame.settings ? t(frame.settings, { url: settingsUrl }) : settingsUrl;
  const footer = frame.footer ? t(frame.footer, { appName }) : appName;

  const text = [...rendered.paragraphs, openLine, '--', settingsLine, footer].join('\n\n');

  const logo = await logoOf(bundle, input.root);
  const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
  const withLink = (line: string, url: string) => escapeHtml(line).replace(escapeHtml(url), link(url, url));
  const html = [
    '<!doctype html><html lang="pl"><head><meta charset="utf-8"><title>', escapeHtml(rendered.subject), '</title></head>',
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#212529;max-width:640px">',
    logo ? `<p><img src="cid:${logo.cid}" alt="${escapeHtml(appName)}" style="max-height:48px"></p>` : '',
    `<h2 style="font-size:18px">${escapeHtml(appName)}</h2>`,
    `<h3 style="font-size:16px">${escapeHtml(rendered.subject)}</h3>`,
    ...rendered.paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
    `<p>${withLink(openLine, recordUrl)}</p>`,
    '<hr>',
    `<p style="font-size:12px;color:#6c757d">${withLink(settingsLine, settingsUrl)}</p>`,
    `<p style="font-size:12px;color:#6c757d">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('');

  return {
    to: input.to,
    subject: rendered.subject,
    text,
    html,
    fromName: appName,
    messageId: messageIdOf(input.notificationId, publicUrl),
    inline: logo ? [logo] : [],
  };
}

/** The variant's logo (app.branding.logo in its assets/ folder), or none. */
async function logoOf(bundle: Bundle, root: string) {
  const file = (bundle.app.branding as { logo?: string } | undefined)?.logo;
  const contentType = file ? IMAGE_TYPES[extname(file).toLowerCase()] : undefined;
  if (!file || !contentType) return undefined;
  const content = await readFile(join(variantAssetsDir(root, bundle.variant), file)).catch(() => undefined);
  return content ? { filename: file, content, contentType, cid: 'logo@portal' } : undefined;
}
