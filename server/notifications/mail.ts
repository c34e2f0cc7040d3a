/**
 * A rendered notification as an e-mail: a text part and an HTML part in Polish, in the recipient's
 * variant's look — its name (the sender's display name), its e-mail logo (inline, so it shows
 * without the portal being reachable from the mail client) and its colours — with the event's text,
 * the facts a reader needs without opening the portal (which order, which vehicle, its status, its
 * date, the price where he may see it), one clear button to the record and a line to the
 * recipient's notification settings.
 *
 * The HTML is what mail clients render alike: nested tables 600 px wide at most (100 % on a phone),
 * every style inline, a "bulletproof" button (a link inside a coloured table cell), the address
 * under it for clients that show no button, and media queries that let the card take a narrower
 * window's width and stack the facts on a phone where the client honours them (the two columns
 * still fit one that does not).
 *
 * Links are built from the portal's public address (PUBLIC_URL), never from a request's Host
 * header, which a caller chooses. The Message-ID is derived from the notification's id, so a mail
 * system that sees the same notification twice can tell it is one message.
 */
import type { NotificationsFile } from '../../runtime/core/generated/meta.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle } from '../config/bundle.ts';
import { localeOf } from '../config/locale.ts';
import { brandingOf, brandLogo, hexColour } from '../config/branding.ts';
import type { Message } from '../mail/mailer.ts';
import { appNameOf, type Rendered } from './render.ts';

const DEFAULT_SETTINGS_ROUTE = '/app/account/notifications';
/** The portal's own colours where a variant names none (its top bar, its buttons). */
const DEFAULT_HEADER = '#0a4fb5';
const DEFAULT_BUTTON = '#0a4fb5';
/** The logo's box in the head of the e-mail (the image is drawn at twice this for sharp screens). */
const LOGO_HEIGHT = 48;
const FONT = 'Arial, Helvetica, sans-serif';

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
  /** The language it is written in (the recipient's); else the bundle's locale's. */
  language?: string;
}

export async function composeMail(input: MailInput): Promise<Message> {
  const { rendered, bundle, t, file, publicUrl } = input;
  const appName = appNameOf(bundle);
  const branding = brandingOf(bundle);
  const frame = file.mail ?? {};
  const recordUrl = rendered.link ? portalUrl(publicUrl, rendered.link) : portalUrl(publicUrl, '/');
  const settingsUrl = portalUrl(publicUrl, frame.settingsRoute ?? DEFAULT_SETTINGS_ROUTE);
  const greeting = frame.greeting ? t(frame.greeting) : '';
  const openLine = frame.open ? t(frame.open, { url: recordUrl }) : recordUrl;
  const buttonLabel = rendered.linkLabel ?? (frame.button ? t(frame.button) : openLine);
  const copyLine = frame.copyLink ? t(frame.copyLink, { url: recordUrl }) : recordUrl;
  const settingsLine = frame.settings ? t(frame.settings, { url: settingsUrl }) : settingsUrl;
  const footer = frame.footer ? t(frame.footer, { appName }) : appName;
  const facts = rendered.facts ?? [];

  const text = [
    ...(greeting ? [greeting] : []),
    ...rendered.paragraphs,
    ...(facts.length ? [facts.map((f) => `${f.label}: ${f.value}`).join('\n')] : []),
    openLine,
    '--',
    settingsLine,
    footer,
  ].join('\n\n');

  const found = await brandLogo(bundle, input.root);
  const logo = found && { ...found, cid: 'logo@portal' };
  const html = htmlOf({
    subject: rendered.subject, title: rendered.title || rendered.subject, greeting, paragraphs: rendered.paragraphs, facts,
    recordUrl, buttonLabel, copyLine, settingsUrl, settingsLine, footer, appName,
    logo: logo && { cid: logo.cid, alt: branding.logoAlt ?? appName, width: Math.round((logo.width / logo.height) * LOGO_HEIGHT) },
    header: hexColour(branding.colors?.primaryDark ?? branding.colors?.primary, DEFAULT_HEADER),
    button: hexColour(branding.colors?.primary, DEFAULT_BUTTON),
    lang: input.language ?? localeOf(bundle.config).split('-')[0],
  });

  return {
    to: input.to,
    subject: rendered.subject,
    text,
    html,
    fromName: appName,
    messageId: messageIdOf(input.notificationId, publicUrl),
    inline: logo ? [{ filename: logo.filename, content: logo.content, contentType: logo.contentType, cid: logo.cid }] : [],
    ...(rendered.attachments?.length ? { attachments: rendered.attachments } : {}),
  };
}

interface HtmlParts {
  subject: string;
  title: string;
  greeting: string;
  paragraphs: string[];
  facts: { label: string; value: string }[];
  recordUrl: string;
  buttonLabel: string;
  copyLine: string;
  settingsUrl: string;
  settingsLine: string;
  footer: string;
  appName: string;
  logo: { cid: string; alt: string; width: number } | undefined;
  header: string;
  button: string;
  /** The language the e-mail is written in (the recipient's: its bundle's locale), for screen readers and spell checkers. */
  lang: string;
}

/** The line with its address made a link (the address escaped once, as it appears in the line). */
function withLink(line: string, url: string, colour: string): string {
  const link = `<a href="${escapeHtml(url)}" style="color:${colour};text-decoration:underline;word-break:break-all">${escapeHtml(url)}</a>`;
  return escapeHtml(line).replace(escapeHtml(url), link);
}

function htmlOf(p: HtmlParts): string {
  const text = `font-family:${FONT};color:#212529`;
  const paragraph = (content: string) => `<p style="margin:0 0 14px;font-size:15px;line-height:1.55;${text}">${content}</p>`;
  const head = p.logo
    ? `<img src="cid:${p.logo.cid}" width="${p.logo.width}" height="${LOGO_HEIGHT}" alt="${escapeHtml(p.logo.alt)}" style="display:block;border:0;outline:none;height:${LOGO_HEIGHT}px;width:${p.logo.width}px;max-width:100%">`
    : `<span style="font-family:${FONT};font-size:20px;font-weight:bold;line-height:1.3;color:#ffffff">${escapeHtml(p.appName)}</span>`;
  const factRows = p.facts.map((f, i) => {
    const border = i === 0 ? '' : 'border-top:1px solid #e9ecef;';
    return `<tr><td class="fact-label" width="38%" style="${border}padding:9px 12px 9px 0;vertical-align:top;font-family:${FONT};font-size:14px;line-height:1.4;font-weight:bold;color:#495057">${escapeHtml(f.label)}</td>`
      + `<td class="fact-value" style="${border}padding:9px 0;vertical-align:top;font-family:${FONT};font-size:14px;line-height:1.4;color:#212529">${escapeHtml(f.value)}</td></tr>`;
  }).join('');
  return [
    `<!doctype html><html lang="${escapeHtml(p.lang)}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light">',
    `<title>${escapeHtml(p.subject)}</title>`,
    // a phone: the card the screen's width, the facts one under the other (clients without media queries keep two columns, which fit)
    '<style>@media only screen and (max-width: 620px) { .card { width: 100% !important; } .pad { padding-left: 18px !important; padding-right: 18px !important; } }',
    ' @media only screen and (max-width: 480px) { .fact-label, .fact-value { display: block !important; width: 100% !important; } .fact-label { padding-right: 0 !important; } .fact-value { padding-top: 0 !important; border-top: 0 !important; } }</style>',
    '</head>',
    '<body style="margin:0;padding:0;background:#f1f3f5;-webkit-text-size-adjust:100%;-ms-text-size-adjust:100%">',
    // the line an inbox shows beside the subject
    `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(p.paragraphs[0] ?? p.title)}</div>`,
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f1f3f5"><tr><td align="center" style="padding:24px 10px">',
    '<table role="presentation" class="card" width="600" cellpadding="0" cellspacing="0" border="0" style="width:600px;max-width:600px;background:#ffffff;border:1px solid #dee2e6;border-radius:8px;border-collapse:separate">',
    `<tr><td class="pad" bgcolor="${p.header}" style="background:${p.header};padding:18px 28px;border-radius:8px 8px 0 0">${head}</td></tr>`,
    '<tr><td class="pad" style="padding:28px 28px 6px">',
    `<h1 style="margin:0 0 16px;font-size:21px;line-height:1.3;font-weight:bold;${text}">${escapeHtml(p.title)}</h1>`,
    p.greeting ? paragraph(escapeHtml(p.greeting)) : '',
    ...p.paragraphs.map((x) => paragraph(escapeHtml(x).replace(/\n/g, '<br>'))),
    '</td></tr>',
    factRows
      ? `<tr><td class="pad" style="padding:4px 28px 6px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;border-top:2px solid ${p.button};border-bottom:1px solid #e9ecef">${factRows}</table></td></tr>`
      : '',
    '<tr><td class="pad" style="padding:22px 28px 8px">',
    '<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>',
    `<td align="center" bgcolor="${p.button}" style="background:${p.button};border-radius:6px">`,
    `<a href="${escapeHtml(p.recordUrl)}" style="display:inline-block;padding:13px 26px;font-family:${FONT};font-size:16px;line-height:1.2;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(p.buttonLabel)}</a>`,
    '</td></tr></table>',
    `<p style="margin:14px 0 0;font-family:${FONT};font-size:12px;line-height:1.5;color:#6c757d">${withLink(p.copyLine, p.recordUrl, p.button)}</p>`,
    '</td></tr>',
    `<tr><td class="pad" style="padding:22px 28px 26px;border-top:1px solid #e9ecef">`,
    `<p style="margin:0 0 8px;font-family:${FONT};font-size:12px;line-height:1.5;color:#6c757d">${withLink(p.settingsLine, p.settingsUrl, p.button)}</p>`,
    `<p style="margin:0;font-family:${FONT};font-size:12px;line-height:1.5;color:#6c757d">${escapeHtml(p.footer)}</p>`,
    '</td></tr>',
    '</table>',
    '</td></tr></table>',
    '</body></html>',
  ].join('');
}
