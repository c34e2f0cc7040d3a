/**
 * Notes on orders (zrodlo AUTORY) and damages (SZKODY), spec §3 Note, §7 Notes. Listing is the
 * note table resource's (schemas/resources/note.json, by zrodlo and zrodloId); this repository
 * only adds one. The parent's scope is checked by the route before.
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';

export interface NewNote {
  zrodlo: 'AUTORY' | 'SZKODY';
  zrodloId: number;
  tresc: string;
  autor: string;
  userId: number;
}

export function notesRepository(db: Kysely<DB>) {
  return {
    add: (note: NewNote, conn: Kysely<DB> = db) => conn.insertInto('note').values(note)
      .returning(['id', 'data', 'autor', 'tresc', 'zrodlo', 'zrodloId']).executeTakeFirstOrThrow(),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    notes: ReturnType<typeof notesRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('notes', notesRepository(app.db));
}, { name: 'notes-repository', dependencies: ['db'] });
