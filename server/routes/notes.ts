/**
 * Adding a note (spec §2 "Notes modal", §5 "Orders, damages, notes", §7 Notes: POST /note
 * {zrodlo, zrodloId, tresc}). The text is required (max 500). HTTP only (issue 45): the parent's
 * scope, the author, the note and its trail entry are app.noteService's (server/services/notes.ts).
 * Listing is the note table resource's.
 */
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../audit/index.ts';
import type { NoteInput } from '../services/notes.ts';

const RESOURCE = 'note';

export default async function noteRoutes(app: FastifyInstance) {
  app.post<{ Body: NoteInput }>('/api/note', {
    config: { access: { resource: RESOURCE }, operation: { resource: RESOURCE, action: 'add', summary: 'Add a note to an order or a damage' } },
    schema: {
      description: 'Adds a note to an order (zrodlo AUTORY) or a damage (SZKODY) the caller sees; the author and date are the server\'s.',
      body: { $ref: 'note-create-request#' },
      response: { 200: { $ref: 'note#' }, 400: { $ref: 'error-response#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const note = await app.noteService.add(actorOf(request), request.session!, request.body);
      return { ...note, data: new Date(note.data).toISOString() };
    },
  });
}
