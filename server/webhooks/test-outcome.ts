/**
 * What the administrator is told after "Wyślij zdarzenie testowe" (issue 49): what happened to the
 * test message, in words, not "wysłane" while the log says ENOTFOUND. The first attempt decides:
 * a 2xx answer is delivered, another status was refused by the receiver, no answer at all failed
 * with its reason (a DNS name not found, a refused connection, a time-out…); no attempt yet (the
 * queue is busy, or the receiver holds the request) is said as such.
 */
export interface FirstAttempt {
  status: number | null;
  error: string | null;
}

export type TestOutcome = 'delivered' | 'refused' | 'failed' | 'pending';

type Translate = (key: string, vars?: Record<string, unknown>) => string;

/**
 * The system's code in an attempt's error ("ENOTFOUND: getaddrinfo …", "Error: getaddrinfo
 * ENOTFOUND host", "TIMEOUT", "ADDRESS_NOT_ALLOWED: …" → ENOTFOUND, TIMEOUT …), or 'other'.
 */
export function errorCode(error: string): string {
  return /\b(E[A-Z][A-Z0-9_]+|ERR_[A-Z0-9_]+|[A-Z_]*CERT[A-Z0-9_]*|TIMEOUT|ADDRESS_NOT_ALLOWED)\b/.exec(error)?.[1] ?? 'other';
}

/** The reason of a failed attempt as webhooks:sendErrors names it; a code it does not know, by its code. */
export function failureReason(error: string, t: Translate): string {
  const code = errorCode(error);
  // TLS: many codes (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID…), one meaning
  const known = /CERT|SIGNATURE|TLS/.test(code) ? 'CERT' : code;
  const key = `webhooks:sendErrors.${known}`;
  const text = t(key, { code });
  if (text !== key && text !== `sendErrors.${known}`) return text;
  return code === 'other' ? t('webhooks:sendErrors.unknown') : t('webhooks:sendErrors.other', { code });
}

export function testOutcome(attempt: FirstAttempt | undefined, t: Translate): { outcome: TestOutcome; message: string } {
  if (!attempt) return { outcome: 'pending', message: t('webhooks:messages.testPending') };
  const { status, error } = attempt;
  if (status !== null && status >= 200 && status < 300) return { outcome: 'delivered', message: t('webhooks:messages.testSent', { status }) };
  if (status !== null) return { outcome: 'refused', message: t('webhooks:messages.testRefused', { status }) };
  return { outcome: 'failed', message: t('webhooks:messages.testFailed', { reason: failureReason(error ?? '', t) }) };
}
