import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { isPhoto, jpegName, retriable, withRetry } from './photos';

const noPause = { sleep: async () => undefined };

describe('photos from the camera', () => {
  it('treats camera and gallery images as photos, and other files (a PDF) as files to send unchanged', () => {
    expect(isPhoto({ type: 'image/jpeg', name: 'IMG_1.JPG' })).toBe(true);
    expect(isPhoto({ type: 'image/heic', name: 'IMG_2.HEIC' })).toBe(true);
    expect(isPhoto({ type: '', name: 'scan.png' })).toBe(true);
    expect(isPhoto({ type: 'application/pdf', name: 'polisa.pdf' })).toBe(false);
  });

  it('names the re-encoded photo as a JPEG', () => {
    expect(jpegName('IMG_0042.HEIC')).toBe('IMG_0042.jpg');
    expect(jpegName('opona.lewa.png')).toBe('opona.lewa.jpg');
    expect(jpegName('.png')).toBe('zdjecie.jpg');
  });

  it('sends again after no answer, a time-out or a server failure, until it arrives', async () => {
    const failures = [new ApiError(0, null, 'offline'), new ApiError(503, null, 'busy')];
    let calls = 0;
    const answer = await withRetry(async () => {
      calls++;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'stored';
    }, noPause);
    expect(answer).toBe('stored');
    expect(calls).toBe(3);
  });

  it('waits while the server is still storing the same key, but takes a refusal as the answer', async () => {
    expect(retriable(new ApiError(409, { code: 'IDEMPOTENCY_IN_PROGRESS' }, 'in progress'))).toBe(true);
    expect(retriable(new ApiError(409, { code: 'IDEMPOTENCY_KEY_REUSED' }, 'reused'))).toBe(false);
    let calls = 0;
    await expect(withRetry(async () => {
      calls++;
      throw new ApiError(400, { code: 'VALIDATION', detail: 'Plik jest za duży' }, 'too large');
    }, noPause)).rejects.toThrow('too large');
    expect(calls).toBe(1);
  });

  it('gives up after the attempts, pausing longer each time', async () => {
    const pauses: number[] = [];
    let calls = 0;
    await expect(withRetry(async () => {
      calls++;
      throw new ApiError(0, null, 'offline');
    }, { attempts: 4, firstPauseMs: 1000, sleep: async (ms) => void pauses.push(ms) })).rejects.toThrow('offline');
    expect(calls).toBe(4);
    expect(pauses).toEqual([1000, 3000, 9000]);
  });
});
