/**
 * Whether an uploaded file is what its name says (spec §5 "Attachment", §8): its extension must be
 * one the configuration allows (config.attachmentExtensions) and its first bytes must be of that
 * kind, read by `file-type` (magic numbers). A renamed executable (MZ…) called "faktura.pdf" is
 * refused. Formats without a signature (plain text) must have none that `file-type` knows and no
 * NUL byte. The MIME type stored and served is the one derived here, never the client's claim.
 */
import { fileTypeFromBuffer } from 'file-type';

/** What `file-type` may report for each extension (old Office files are OLE compound files, "cfb"). */
const SIGNATURES: Record<string, { detected: string[]; mime: string }> = {
  pdf: { detected: ['pdf'], mime: 'application/pdf' },
  jpg: { detected: ['jpg'], mime: 'image/jpeg' },
  jpeg: { detected: ['jpg'], mime: 'image/jpeg' },
  png: { detected: ['png'], mime: 'image/png' },
  gif: { detected: ['gif'], mime: 'image/gif' },
  webp: { detected: ['webp'], mime: 'image/webp' },
  tif: { detected: ['tif'], mime: 'image/tiff' },
  tiff: { detected: ['tif'], mime: 'image/tiff' },
  zip: { detected: ['zip'], mime: 'application/zip' },
  doc: { detected: ['cfb', 'doc'], mime: 'application/msword' },
  xls: { detected: ['cfb', 'xls'], mime: 'application/vnd.ms-excel' },
  docx: { detected: ['docx', 'zip'], mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { detected: ['xlsx', 'zip'], mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  odt: { detected: ['odt', 'zip'], mime: 'application/vnd.oasis.opendocument.text' },
  ods: { detected: ['ods', 'zip'], mime: 'application/vnd.oasis.opendocument.spreadsheet' },
};

/** Formats that have no signature: accepted when nothing is detected and the bytes are text. */
const TEXT: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/**
 * Every media type a stored attachment can be served as, for the OpenAPI document: those of the
 * extensions above (without parameters such as charset). An allowed extension this module knows
 * no signature for is served as what file-type detects; add it here when the configuration allows one.
 */
export const KNOWN_MIME_TYPES: readonly string[] = [
  ...new Set([...Object.values(SIGNATURES).map((s) => s.mime), ...Object.values(TEXT).map((m) => m.split(';')[0])]),
];

/** The lower-case extension of a file name (without the dot), or '' when it has none. */
export function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function extensionAllowed(filename: string, allowed: readonly string[]): boolean {
  const ext = extensionOf(filename);
  return ext !== '' && allowed.some((a) => a.toLowerCase().replace(/^\./, '') === ext);
}

/** The MIME type to store when the content matches the extension, or null when it does not. */
export async function contentMimeType(filename: string, content: Uint8Array): Promise<string | null> {
  const ext = extensionOf(filename);
  const detected = content.length ? await fileTypeFromBuffer(content) : undefined;
  if (ext in TEXT) {
    if (detected || content.includes(0)) return null;
    return TEXT[ext];
  }
  const signature = SIGNATURES[ext];
  // an allowed extension this module knows no signature for: only its own detected kind passes
  if (!signature) return detected && detected.ext === ext ? detected.mime : null;
  return detected && signature.detected.includes(detected.ext) ? signature.mime : null;
}

/** Shown in the browser window rather than saved (spec: PDFs and images open in a new window). */
export function previewable(mime: string): boolean {
  return mime === 'application/pdf' || /^image\/(png|jpeg|gif|webp)$/.test(mime);
}
