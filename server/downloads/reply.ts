/**
 * How a one-time download answers (issue 4). The download URL is opened in a new browser window,
 * so both outcomes must read well there: the file with a proper name (Polish letters included,
 * RFC 6266/5987), or, when the link is spent or wrong, a short Polish page instead of raw JSON.
 * A caller that asks for JSON (an API client, a test) gets the usual error body.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface DownloadFile {
  filename: string;
  mime: string;
  content: Buffer | Uint8Array;
  /** Shown in the window (a PDF) rather than saved (a spreadsheet). */
  inline?: boolean;
}

/** `attachment; filename="Faktura_FV_1.pdf"; filename*=UTF-8''Faktura_FV_1.pdf` with a plain-ASCII fallback. */
export function contentDisposition(filename: string, inline = false): string {
  const ascii = filename.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ł/g, 'l').replace(/Ł/g, 'L').replace(/[^A-Za-z0-9._-]+/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function sendDownload(reply: FastifyReply, file: DownloadFile) {
  return reply
    .header('Content-Type', file.mime)
    .header('Content-Disposition', contentDisposition(file.filename, file.inline))
    .header('Content-Length', String(file.content.byteLength))
    // a one-time link must not be served again from a cache
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A refused download: a page in the caller's language for a browser window, the usual error body for everyone else. */
export function refuseDownload(request: FastifyRequest, reply: FastifyReply, statusCode: number, detail: string, code: string) {
  const accept = String(request.headers.accept ?? '');
  if (accept.includes('text/html')) {
    return reply
      .status(statusCode)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(
        `<!doctype html><html lang="${escapeHtml(request.server.config.language.id)}"><head><meta charset="utf-8"><title>${escapeHtml(detail)}</title>` +
          `<meta name="viewport" content="width=device-width,initial-scale=1"></head>` +
          `<body style="font-family:system-ui,sans-serif;margin:3rem auto;max-width:36rem;line-height:1.5">` +
          `<h1 style="font-size:1.25rem">${escapeHtml(detail)}</h1></body></html>`,
      );
  }
  return reply.status(statusCode).send({ statusCode, code, detail });
}
