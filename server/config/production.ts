/**
 * What a production process (NODE_ENV=production, docs/deployment.md) refuses to start without:
 * the operator keys that seal secrets which must be used again (their development keys are in the
 * source, so anyone could read what they seal), and no lifting of the second factor the
 * configuration requires (SECOND_FACTOR_OPTIONAL is for the demo and tests). Answers the ids of the
 * start-up texts (locales/pl/app.json `startup.*`) to print, none when the process may start.
 */
export function productionRefusals(env: Record<string, string | undefined>): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const refusals: string[] = [];
  if (!env.WEBHOOK_SECRET_KEY) refusals.push('webhookSecretKeyMissing');
  if (!env.TOTP_SECRET_KEY) refusals.push('totpSecretKeyMissing');
  if (env.SECOND_FACTOR_OPTIONAL === '1') refusals.push('secondFactorOptionalInProduction');
  return refusals;
}
