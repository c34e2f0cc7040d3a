/**
 * Photos from the phone's camera (issue 47), for every photo and attachment input of the runtime
 * (the file widget of forms and wizard lists — the damage wizard's photos —, the inspection's
 * checklist):
 *
 * - `preparePhoto`: an image chosen or taken is scaled in the browser to at most 1600 px on its
 *   longer side and about 500 KB, and re-encoded as JPEG through a canvas (browser-image-compression,
 *   `preserveExif: false`), which leaves every EXIF field behind — the location (GPS), the camera,
 *   the time. Anything that is not a photo (a PDF) passes unchanged; a photo that cannot be decoded
 *   is refused rather than sent with its location.
 * - `CAMERA`: the input's `capture` value (the rear camera opens on a phone; a desktop browser
 *   ignores it and offers files).
 * - `withRetry`: an upload tried again after a failure the network or the server caused (no
 *   answer, a time-out, 5xx, the server still busy with the same Idempotency-Key), with growing
 *   pauses; the caller passes the same key each time, so a photo that did arrive is not stored twice.
 *   A refusal (4xx: too large, wrong kind) is the photo's answer and is not tried again.
 */
import { ApiError } from '../api/client';

export const PHOTO_MAX_SIDE = 1600;
export const PHOTO_MAX_MB = 0.5;
export const CAMERA = 'environment';
/** The images a camera or a gallery gives that the browser can decode and re-encode. */
const IMAGE_TYPES = /^image\/(jpeg|png|webp|heic|heif|bmp|gif)$/i;
const IMAGE_NAME = /\.(jpe?g|png|webp|heic|heif|bmp|gif)$/i;

export const isPhoto = (file: Pick<File, 'type' | 'name'>) => IMAGE_TYPES.test(file.type) || (!file.type && IMAGE_NAME.test(file.name));

/** The photo's name as a JPEG ("IMG_0042.HEIC" → "IMG_0042.jpg"). */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '') || 'zdjecie';
  return `${base}.jpg`;
}

/** A photo scaled and re-encoded without its EXIF (see above); any other file unchanged. */
export async function preparePhoto(file: File): Promise<File> {
  if (!isPhoto(file)) return file;
  const { default: imageCompression } = await import('browser-image-compression');
  const scaled = await imageCompression(file, {
    maxWidthOrHeight: PHOTO_MAX_SIDE,
    maxSizeMB: PHOTO_MAX_MB,
    fileType: 'image/jpeg',
    initialQuality: 0.85,
    preserveExif: false,
    // the worker would load the library from a CDN (libURL): the portal sends nothing elsewhere
    useWebWorker: false,
  });
  return new File([scaled], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
}

/** Whether a failed call may be tried again with the same Idempotency-Key. */
export function retriable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500) return true;
  return error.status === 409 && error.body?.code === 'IDEMPOTENCY_IN_PROGRESS';
}

/** Runs `send` until it succeeds, a refusal comes, or the attempts are used up (pauses 1 s, 3 s, 9 s …). */
export async function withRetry<T>(send: () => Promise<T>, options: { attempts?: number; firstPauseMs?: number; sleep?: (ms: number) => Promise<void> } = {}): Promise<T> {
  const attempts = options.attempts ?? 4;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let pause = options.firstPauseMs ?? 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= attempts || !retriable(error)) throw error;
      await sleep(pause);
      pause *= 3;
    }
  }
}
