/**
 * Reads a multipart upload (spec §7 POST /attachment/upload) as it streams in, through
 * @fastify/multipart (busboy). Limits apply while reading: a file longer than the configured size
 * is cut off at the limit (busboy stops handing its bytes over) and the request is refused at that
 * moment, so at most `maxFileBytes` of one file is ever held; more files than allowed, too many
 * or too long fields are refused the same way. Nothing is written here: the route checks the
 * fields and writes every file in one transaction afterwards.
 */
import type { FastifyRequest } from 'fastify';

export interface UploadLimits {
  /** Bytes of one file (config.attachmentMaxSizeKb × 1024). */
  maxFileBytes: number;
  /** Files in one request (1 for a single upload; the indexed variant may send several). */
  maxFiles: number;
}

export interface ReceivedFile {
  field: string;
  filename: string;
  content: Buffer;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

/** Why an upload stopped; the route turns it into its Polish 400. */
export class UploadRefused extends Error {
  constructor(public readonly reason: 'tooLarge' | 'secondFile' | 'tooManyFiles' | 'malformed', public readonly field: string, public readonly filename?: string) {
    super(reason);
  }
}

/** Short text fields only (title ≤ 29, description ≤ 255, ids): 4 KB is far beyond any of them. */
const FIELD_BYTES = 4096;
const MAX_FIELDS = 60;

export async function receiveUpload(request: FastifyRequest, limits: UploadLimits, onStart: () => void = () => undefined): Promise<ReceivedUpload> {
  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  // one file more than allowed is still handed over, so "a second file" can be named as such
  const parts = request.parts({
    limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles + 1, fields: MAX_FIELDS, fieldSize: FIELD_BYTES, parts: MAX_FIELDS + limits.maxFiles + 1, headerPairs: 20 },
  });
  onStart();
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated || part.fieldnameTruncated || Object.hasOwn(fields, part.fieldname)) throw new UploadRefused('malformed', part.fieldname);
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      // a second file under one name is two files for one attachment
      if (files.some((f) => f.field === part.fieldname)) throw new UploadRefused('secondFile', part.fieldname, part.filename);
      if (files.length >= limits.maxFiles) throw new UploadRefused('tooManyFiles', part.fieldname, part.filename);
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) {
        if (part.file.truncated) break;
        chunks.push(chunk as Buffer);
      }
      if (part.file.truncated) throw new UploadRefused('tooLarge', part.fieldname, part.filename);
      files.push({ field: part.fieldname, filename: part.filename ?? '', content: Buffer.concat(chunks) });
    }
  } catch (error) {
    if (error instanceof UploadRefused) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new UploadRefused('tooLarge', 'file');
    if (code === 'FST_FILES_LIMIT') throw new UploadRefused('secondFile', 'file');
    throw new UploadRefused('malformed', 'file');
  }
  return { fields, files };
}
