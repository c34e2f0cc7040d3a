/**
 * Each person's language (issue 48): GET and PUT /api/account/language, Ustawienia → Język
 * (screens/language-settings.json) and the sign-in page's choice after sign-in. The choice is kept
 * on the account (app_user.language), so that his next sign-in anywhere, his e-mails, push
 * notifications and scheduled reports, and the API's answers to him follow it. The languages
 * offered are the configuration's (screens/app.json config.languages with texts).
 */
import type { FastifyInstance } from 'fastify';
import { chooseLanguage } from '../config/languages.ts';
import { HttpError } from '../http-error.ts';

const errorResponse = { $ref: 'error-response#' };

export default async function accountLanguageRoutes(app: FastifyInstance) {
  const op = (action: string, summary: string) => ({ resource: 'account', action, summary });
  const current = (chosen: string | null | undefined) => {
    const { languages } = app.config.bundle;
    return {
      language: chooseLanguage(languages, [chosen]).id,
      chosen: chosen && languages.some((l) => l.id === chosen) ? chosen : null,
      languages: languages.map(({ id, name }) => ({ id, name })),
    };
  };

  app.get('/api/account/language', {
    config: { access: 'signedIn', operation: op('language', "The caller's language, his own choice and the languages offered") },
    schema: { response: { 200: { $ref: 'account-language#' } } },
    handler: async (request) => {
      return current(await app.users.languageOf(request.session!.userId));
    },
  });

  app.put<{ Body: { language: string } }>('/api/account/language', {
    config: { access: 'signedIn', firstLoginExempt: true, termsExempt: true, secondFactorExempt: true, operation: op('saveLanguage', "Save the caller's language (one of the languages offered)") },
    schema: { body: { $ref: 'account-language-request#' }, response: { 200: { $ref: 'account-language-saved#' }, 400: errorResponse } },
    handler: async (request) => {
      const { language } = request.body;
      if (!app.config.bundle.languages.some((l) => l.id === language)) {
        throw new HttpError(400, app.config.t('validation:enum'), { code: 'VALIDATION', errors: [{ field: 'language', message: app.config.t('validation:enum') }] });
      }
      await app.users.setLanguage(request.session!.userId, language);
      // the confirmation already in the new language: the rest of this request speaks it
      app.config.preferLanguage(language);
      return { ...current(language), message: app.config.t('app:language.saved') };
    },
  });
}
