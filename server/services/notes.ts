/**
 * Adding a note (spec §2 "Notes modal", §5 "Orders, damages, notes", §7 Notes; issue 45, "routes
 * only translate HTTP"). The note belongs to an order (AUTORY) or a damage (SZKODY), and the caller
 * must see that record through its resource's row scope (schemas/resources/note.json parentScope;
 * ACCESS.md); another client's record answers 404, as if absent. The author is the signed-in
 * user's display name (last name, first name; max 40) and the date is now — neither is the
 * caller's to choose. The note and its trail entry commit together.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { recordChange, type Actor } from '../audit/index.ts';
import type { Session } from '../auth/sessions.ts';
import { HttpError } from '../http-error.ts';

const RESOURCE = 'note';
/** Spec §5 / §9: note author max 40. */
const AUTHOR_MAX = 40;

export interface NoteInput { zrodlo: 'AUTORY' | 'SZKODY'; zrodloId: number; tresc: string }

export function noteService(app: FastifyInstance) {
  const t = (key: string) => app.config.t(key);

  /** The parent record is one the caller sees (a role that reads no such records sees none of them). */
  async function parentVisible(session: Session, zrodlo: NoteInput['zrodlo'], zrodloId: number): Promise<boolean> {
    const parent = (app.config.bundle.resources[RESOURCE]?.parentScope?.parents as Record<string, string> | undefined)?.[zrodlo];
    try {
      return parent !== undefined && (await app.tableQueries.isVisible(parent, session, zrodloId));
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 403) return false;
      throw error;
    }
  }

  return {
    /** POST /api/note: the note as stored (its id, date, author, text and record). */
    async add(actor: Actor, session: Session, { zrodlo, zrodloId, tresc }: NoteInput) {
      if (!(await parentVisible(session, zrodlo, zrodloId))) throw new HttpError(404, t('errors:notFound'));
      const user = await app.users.byId(session.userId);
      const autor = [user?.lastName, user?.firstName].filter(Boolean).join(' ').slice(0, AUTHOR_MAX) || session.login.slice(0, AUTHOR_MAX);
      return app.db.transaction().execute(async (trx) => {
        const added = await app.notes.add({ zrodlo, zrodloId, tresc: tresc.trim(), autor, userId: session.userId }, trx);
        // the trail (issue 37), last
        await recordChange(trx, { actor, resource: RESOURCE, recordKey: added.id, action: 'create', changes: {
          zrodlo: [null, zrodlo], zrodloId: [null, zrodloId], tresc: [null, added.tresc], autor: [null, added.autor],
        } });
        return added;
      });
    },
  };
}

export type NoteService = ReturnType<typeof noteService>;

declare module 'fastify' {
  interface FastifyInstance {
    noteService: NoteService;
  }
}

export default fp(
  async (app) => {
    app.decorate('noteService', noteService(app));
  },
  { name: 'note-service', dependencies: ['config', 'db', 'table-queries', 'users-repository', 'notes-repository'] },
);
