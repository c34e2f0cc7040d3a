/**
 * Adding a note (spec §2 "Notes modal", §5 "Orders, damages, notes", §7 Notes: POST /note
 * {zrodlo, zrodloId, tresc}). The text is required (max 500); the author is the signed-in user's
 * display name (last name, first name; max 40) and the date is now — neither is the caller's to
 * choose. The note belongs to an order (AUTORY) or a damage (SZKODY), and the caller must see that
 * record through its resource's row scope (schemas/resources/note.json parentScope; ACCESS.md);
 * another client's record answers 404, as if absent. Listing is the note table resource's.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.ts';
import { actorOf, recordChange } from '../audit/index.ts';

const RESOURCE = 'note';
/** Spec §5 / §9: note author max 40. */
const AUTHOR_MAX = 40;

interface NoteBody { zrodlo: 'AUTORY' | 'SZKODY'; zrodloId: number; tresc: string }

export default async function noteRoutes(app: FastifyInstance) {
  const t = (key: string) => app.config.t(key);

  app.post<{ Body: NoteBody }>('/api/note', {
    config: { access: { resource: RESOURCE }, operation: { resource: RESOURCE, action: 'add', summary: 'Add a note to an order or a damage' } },
    schema: {
      description: 'Adds a note to an order (zrodlo AUTORY) or a damage (SZKODY) the caller sees; the author and date are the server\'s.',
      body: { $ref: 'note-create-request#' },
      response: { 200: { $ref: 'note#' }, 400: { $ref: 'error-response#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const session = request.session!;
      const { zrodlo, zrodloId, tresc } = request.body;
      const parent = (app.config.bundle.resources[RESOURCE]?.parentScope?.parents as Record<string, string> | undefined)?.[zrodlo];
      let visible = false;
      try {
        visible = parent !== undefined && (await app.tableQueries.isVisible(parent, session, zrodloId));
      } catch (error) {
        // a role that reads no such records sees none of them
        if (!(error instanceof HttpError && error.statusCode === 403)) throw error;
      }
      if (!visible) throw new HttpError(404, t('errors:notFound'));
      const user = await app.users.byId(session.userId);
      const autor = [user?.lastName, user?.firstName].filter(Boolean).join(' ').slice(0, AUTHOR_MAX) || session.login.slice(0, AUTHOR_MAX);
      const note = await app.db.transaction().execute(async (trx) => {
        const added = await app.notes.add({ zrodlo, zrodloId, tresc: tresc.trim(), autor, userId: session.userId }, trx);
        // the trail (issue 37), last
        await recordChange(trx, { actor: actorOf(request), resource: RESOURCE, recordKey: added.id, action: 'create', changes: {
          zrodlo: [null, zrodlo], zrodloId: [null, zrodloId], tresc: [null, added.tresc], autor: [null, added.autor],
        } });
        return added;
      });
      return { ...note, data: new Date(note.data).toISOString() };
    },
  });
}
