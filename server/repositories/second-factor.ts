/**
 * `app.secondFactor` (issue 36): the store of TOTP secrets, recovery codes, passkeys and sign-in
 * tickets (auth/second-factor.ts), and whether the configuration's requirement is enforced.
 *
 * `enforce: false` is the switch of automated tests and the demo (SECOND_FACTOR_OPTIONAL=1, see
 * docs/decisions.md "Two-factor sign-in, passkeys and sessions (issue 36)"): the configured
 * requirement (security.secondFactorRequiredWhen) is then not applied; an enrolled account is
 * still asked for its second factor. The start-up log warns when it is off.
 */
import fp from 'fastify-plugin';
import { secondFactorStore, totpBox, type SecondFactorStore } from '../auth/second-factor.ts';

export interface SecondFactorOptions {
  /** TOTP_SECRET_KEY: the key TOTP secrets are sealed under (unset: a development key, logged). */
  secretKey?: string;
  /** Apply security.secondFactorRequiredWhen (default true). */
  enforce?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    secondFactor: { store: SecondFactorStore; enforce: boolean; developmentKey: boolean };
  }
}

export default fp<SecondFactorOptions>(async (app, options) => {
  const box = totpBox(options.secretKey);
  app.decorate('secondFactor', { store: secondFactorStore(app.db, box, () => app.clock()), enforce: options.enforce ?? true, developmentKey: box.development });
}, { name: 'second-factor', dependencies: ['db'] });
