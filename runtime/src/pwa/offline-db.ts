/**
 * Where the phone keeps what it needs without a network (issue 47): one IndexedDB database (idb),
 * two stores, every record under its user's key (docs/architecture.md "Offline"):
 * - `answers`: the last answer of each declared GET call ([user, path] → body, time);
 * - `outbox`: the submissions waiting to be sent, in the order they were made (auto-increment id).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { KeptAnswer, OfflineStorage, Submission } from './offline-types';

interface OfflineSchema extends DBSchema {
  answers: { key: [string, string]; value: KeptAnswer; indexes: { user: string } };
  outbox: { key: number; value: Submission; indexes: { user: string } };
}

export const OFFLINE_DB = 'portal-offline';

let opening: Promise<IDBPDatabase<OfflineSchema>> | null = null;
const db = () =>
  (opening ??= openDB<OfflineSchema>(OFFLINE_DB, 1, {
    upgrade(database) {
      database.createObjectStore('answers', { keyPath: ['user', 'path'] }).createIndex('user', 'user');
      database.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true }).createIndex('user', 'user');
    },
  }));

export const indexedDbStorage: OfflineStorage = {
  async putAnswer(answer) {
    await (await db()).put('answers', answer);
  },
  async getAnswer(user, path) {
    return (await db()).get('answers', [user, path]);
  },
  async deleteAnswers() {
    await (await db()).clear('answers');
  },
  async addSubmission(submission) {
    const { id: _none, ...rest } = submission;
    return (await db()).add('outbox', rest as Submission);
  },
  async putSubmission(submission) {
    await (await db()).put('outbox', submission);
  },
  async deleteSubmission(id) {
    await (await db()).delete('outbox', id);
  },
  async submissions() {
    return (await db()).getAll('outbox');
  },
};
