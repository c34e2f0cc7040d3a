/**
 * A variant's branding as the server's own documents use it (issue 15's `app.branding`): the logo
 * an e-mail or a PDF can carry (the variant's `mailLogo`, else its `logo` when that is a PNG or
 * JPEG; an SVG is for browsers only) read from its assets/ folder with its size, and its primary
 * colour. One home, so an e-mail and a report's PDF of the same variant look alike.
 */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Bundle } from './bundle.ts';
import { variantAssetsDir } from './load-bundle.ts';

export interface Branding {
  logo?: string;
  logoAlt?: string;
  mailLogo?: string;
  colors?: { primary?: string; primaryDark?: string };
}

export type LogoType = 'image/png' | 'image/jpeg';
export interface BrandLogo { filename: string; content: Buffer; contentType: LogoType; width: number; height: number }

const IMAGE_TYPES: Record<string, LogoType> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' };

export const brandingOf = (bundle: Bundle): Branding => ((bundle.app as { branding?: Branding }).branding ?? {}) as Branding;

/** A colour a document may use: #rgb or #rrggbb only (the meta-schema's cssColor allows more), else the fallback. */
export const hexColour = (value: string | undefined, fallback: string) => (value && /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/.test(value) ? value : fallback);

/** Logos read in the last seconds: a backlog of e-mails reads the file once, a changed logo shows within LOGO_CACHE_MS. */
const LOGO_CACHE_MS = 10_000;
const logos = new Map<string, { at: number; content: Promise<Buffer | undefined> }>();

function logoFile(path: string): Promise<Buffer | undefined> {
  const cached = logos.get(path);
  if (cached && Date.now() - cached.at < LOGO_CACHE_MS) return cached.content;
  const content = readFile(path).catch(() => undefined);
  logos.set(path, { at: Date.now(), content });
  return content;
}

/** The variant's logo for documents (see the file's comment), or none: the document then names the portal in text. */
export async function brandLogo(bundle: Bundle, root: string): Promise<BrandLogo | undefined> {
  const branding = brandingOf(bundle);
  const file = branding.mailLogo ?? branding.logo;
  const contentType = file ? IMAGE_TYPES[extname(file).toLowerCase()] : undefined;
  if (!file || !contentType) return undefined;
  const content = await logoFile(join(variantAssetsDir(root, bundle.variant), file));
  const size = content && imageSize(content, contentType);
  return content && size ? { filename: file, content, contentType, ...size } : undefined;
}

/** A PNG's or JPEG's width and height from its header (an e-mail states them, as mail clients want; a PDF scales by them). */
export function imageSize(content: Buffer, contentType: string): { width: number; height: number } | undefined {
  if (contentType === 'image/png') {
    if (content.length < 24 || content.readUInt32BE(12) !== 0x49484452) return undefined; // IHDR
    return { width: content.readUInt32BE(16), height: content.readUInt32BE(20) };
  }
  // JPEG: the first start-of-frame segment (SOF0…SOF15 but DHT, JPG, DAC) holds height and width
  for (let at = 2; at + 9 < content.length;) {
    if (content[at] !== 0xff) return undefined;
    const marker = content[at + 1];
    const length = content.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: content.readUInt16BE(at + 5), width: content.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}
