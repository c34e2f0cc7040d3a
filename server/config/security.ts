/**
 * Sign-in settings the server reads from screens/app.json instead of naming them in code
 * (issue 10): which account roles each login-screen choice admits (security.signInChoices), the
 * page the password-reset mail links to (security.resetLink), and which config flags travel in
 * the session (sessionConfig → postConfig.logicConfig). Pure readers over the bundle's app file.
 */
import type { Bundle } from './bundle.ts';
import { DEFAULT_SESSION_LIFETIME, type SessionLifetime } from '../auth/sessions.ts';

type App = Bundle['app'];

/** The account roles that may sign in with the role chosen on the login screen (none for an unknown choice). */
export function accountRolesFor(app: App, choice: string): string[] {
  const choices: Record<string, string[]> = app.security?.signInChoices ?? {};
  return Object.hasOwn(choices, choice) ? choices[choice] : [];
}

/** The password-reset link for a request that came to `origin` (e.g. https://portal.example). */
export function resetLink(app: App, origin: string): string {
  return `${origin.replace(/\/$/, '')}${app.security.resetLink}`;
}

/** The flags of `config` the session carries (postConfig.logicConfig), by the names app.sessionConfig lists. */
export function sessionConfig(app: App, config: Bundle['config']): Record<string, unknown> {
  const names: string[] = app.sessionConfig ?? [];
  return Object.fromEntries(names.filter((name) => Object.hasOwn(config, name)).map((name) => [name, config[name]]));
}

/** How long sessions live (security.session; ASVS 7.3.1/7.3.2), or the defaults when a configuration names none. */
export function sessionLifetimeOf(app: App): SessionLifetime {
  return (app.security as { session?: SessionLifetime } | undefined)?.session ?? DEFAULT_SESSION_LIFETIME;
}
