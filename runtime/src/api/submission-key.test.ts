import { describe, expect, it } from 'vitest';
import { followUpKey, newIdempotencyKey, submissionKeys } from './submission-key';

describe('the Idempotency-Key of a form submission', () => {
  it('keeps the key while the same body is sent again, and takes a new one for another body or after success', () => {
    let n = 0;
    const keys = submissionKeys(() => `key-${++n}`);
    expect(keys.keyFor({ licznik: 100 })).toBe('key-1');
    expect(keys.keyFor({ licznik: 100 })).toBe('key-1');
    expect(keys.keyFor({ licznik: 101 })).toBe('key-2');
    keys.done();
    expect(keys.keyFor({ licznik: 101 })).toBe('key-3');
  });

  it('makes keys the server takes (8 to 100 of A-Za-z0-9_.:-), follow-ups included', () => {
    const pattern = /^[A-Za-z0-9_.:-]{8,100}$/;
    const key = newIdempotencyKey();
    expect(key).toMatch(pattern);
    expect(followUpKey(key, 'attachments1')).toMatch(pattern);
    expect(followUpKey(key, 'attachments0')).not.toBe(followUpKey(key, 'attachments1'));
  });
});
