/**
 * The pre-configuration (GET /api/init/pre-config, and written into the runtime's page:
 * plugins/delivery.ts): the portal's name and title, the compatibility messages, the password
 * policy and, for a visitor, the part of the bundle the sign-in page shows (config/guest-view.ts).
 * Written out as JSON here, once per bundle for its large part, since every page load asks for it.
 */
import type { FastifyInstance } from 'fastify';
import type { Bundle } from '../config/bundle.ts';
import { guestView } from '../config/guest-view.ts';
import type { Language } from '../config/languages.ts';
import { languageView } from '../config/language-view.ts';
import { compatibilityItems } from './compatibility.ts';

/** The `guest` part per bundle, written out once per language and set of extra texts (the compatibility messages'). */
const guestBodies = new WeakMap<Bundle, Map<string, string>>();
function guestJson(bundle: Bundle, extraTexts: string[], language: Language): string {
  let byTexts = guestBodies.get(bundle);
  if (!byTexts) guestBodies.set(bundle, (byTexts = new Map()));
  const key = [language.id, ...[...new Set(extraTexts)].sort()].join('\n');
  let json = byTexts.get(key);
  if (json === undefined) byTexts.set(key, (json = JSON.stringify(languageView(guestView(bundle, extraTexts), language, bundle.languages))));
  return json;
}

/**
 * The pre-configuration of the current request's variant as JSON; `guest`: with the visitor's
 * part of the bundle (a start-up with a session waits for its client's whole bundle anyway).
 */
export async function preConfigJson(app: FastifyInstance, { guest }: { guest: boolean }): Promise<string> {
  const bundle = app.config.bundle;
  const { app: settings } = bundle;
  const compatibility = await compatibilityItems(app);
  const body = JSON.stringify({ name: settings.name, loginAppName: settings.loginAppName, compatibility, ...settings.passwordPolicy });
  return guest ? `${body.slice(0, -1)},"guest":${guestJson(bundle, compatibility.map((c) => c.initError), app.config.language)}}` : body;
}
