/** When a password runs out (the login page's warning): a module apart from the password checks, which the login page does not need (issue 48's budget). */
const DAY_MS = 86_400_000;

/** Whether a password valid until pwdDo (YYYY-MM-DD, inclusive) expires within `days` days from now. */
export function expiresWithin(pwdDo: unknown, days: unknown, now = new Date()): boolean {
  if (typeof pwdDo !== 'string' || typeof days !== 'number' || days <= 0) return false;
  const expiry = Date.parse(`${pwdDo}T23:59:59`);
  return Number.isFinite(expiry) && expiry - now.getTime() <= days * DAY_MS;
}

/** Whether a user's password expires within `days` days: its day is the field `field` names (screens/app.json sessionFields.passwordValidUntil); none named, never. */
export function passwordExpiresWithin(user: object, field: string | undefined, days: unknown, now = new Date()): boolean {
  return field !== undefined && expiresWithin((user as Record<string, unknown>)[field], days, now);
}
