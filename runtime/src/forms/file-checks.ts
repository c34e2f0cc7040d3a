/**
 * The file field of a form (`widget: "file"`, spec §5 "Attachment"): the limits its `fileLimits`
 * reads from the configuration (allowed extensions; the size in KB, shown in MB), the check of a
 * chosen file against them before anything is sent, and the parts of a multipart submit.
 */
import type { MultipartPart } from '../../core/multipart';
import type { FormFieldDecl } from '../config/bundle';

export type FileLimitsDecl = NonNullable<FormFieldDecl['fileLimits']>;

export interface FileLimits {
  /** Lower case, without the dot; empty = any. */
  extensions: string[];
  maxBytes: number;
  /** The limit as the user reads it: MB to two decimals (10240 KB → 10). */
  mb: number;
}

/** The files chosen in a form, by field id (the form data holds only their names). */
export type ChosenFiles = Map<string, File>;

export function fileLimitsOf(decl: FileLimitsDecl, config: Record<string, unknown>): FileLimits {
  const list = config[decl.extensionsFrom];
  const kb = Number(config[decl.maxSizeKbFrom]);
  const maxKb = Number.isFinite(kb) && kb > 0 ? kb : Infinity;
  return {
    extensions: Array.isArray(list) ? list.map((e) => String(e).toLowerCase().replace(/^\./, '')) : [],
    maxBytes: maxKb * 1024,
    mb: Math.round((maxKb / 1024) * 100) / 100,
  };
}

/** The extension of a file name, lower case, without the dot ('' when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Why the file is refused (the message key and its values), or null when it may be sent. */
export function fileProblem(file: { name: string; size: number }, limits: FileLimits, decl: FileLimitsDecl): { key: string; vars: Record<string, unknown> } | null {
  if (limits.extensions.length && !limits.extensions.includes(extensionOf(file.name))) {
    return { key: decl.wrongExtension, vars: { extensions: limits.extensions.join(', ') } };
  }
  if (file.size > limits.maxBytes) return { key: decl.tooLarge, vars: { mb: limits.mb } };
  return null;
}

/** The input's `accept`: the allowed extensions (the browser's chooser offers them first). */
export const acceptOf = (limits: FileLimits) => (limits.extensions.length ? limits.extensions.map((e) => `.${e}`).join(',') : undefined);

/** The form data as multipart parts: every value a text part, then each file field's chosen file. */
export async function multipartParts(data: Record<string, unknown>, fileFields: ReadonlySet<string>, files: ChosenFiles): Promise<MultipartPart[]> {
  const parts: MultipartPart[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (fileFields.has(name) || value === undefined || value === null) continue;
    parts.push({ name, value: typeof value === 'string' ? value : String(value) });
  }
  for (const name of fileFields) {
    const file = files.get(name);
    if (file && data[name] !== undefined) parts.push({ name, filename: file.name, type: file.type, content: new Uint8Array(await file.arrayBuffer()) });
  }
  return parts;
}
