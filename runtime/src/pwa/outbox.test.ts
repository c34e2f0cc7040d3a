import { describe, expect, it } from 'vitest';
import type { KeptAnswer, OfflineStorage, Submission } from './offline-types';
import { Outbox, type AttemptFailure } from './outbox';
import { offlinePaths } from './offline-paths';

/** The outbox's storage in memory (IndexedDB's part is pwa/offline-db.ts). */
function memoryStorage(): OfflineStorage & { items: Submission[] } {
  const items: Submission[] = [];
  const answers = new Map<string, KeptAnswer>();
  let next = 1;
  return {
    items,
    putAnswer: async (a) => void answers.set(`${a.user}|${a.path}`, a),
    getAnswer: async (user, path) => answers.get(`${user}|${path}`),
    deleteAnswers: async () => answers.clear(),
    addSubmission: async (s) => {
      const id = next++;
      items.push({ ...s, id });
      return id;
    },
    putSubmission: async (s) => void items.splice(items.findIndex((i) => i.id === s.id), 1, s),
    deleteSubmission: async (id) => void items.splice(items.findIndex((i) => i.id === id), 1),
    submissions: async () => [...items],
  };
}

const reading = (user: string, licznik: number): Omit<Submission, 'id'> => ({
  user, key: `key-${licznik}`, title: 'car:counter.title', at: 0, plan: { kind: 'call', method: 'POST', path: '/counter', body: { licznik } },
});

class Refused extends Error {}
class NoNetwork extends Error {}
const classify = (e: unknown): AttemptFailure => (e instanceof Refused ? { kind: 'refused', reason: e.message } : { kind: 'retry' });

function outboxWith(send: (s: Submission) => Promise<void>) {
  const storage = memoryStorage();
  return { storage, outbox: new Outbox({ storage, send, classify, now: () => 42 }) };
}

describe('outbox', () => {
  it('sends the waiting submissions in the order they were made, each under its own key, and forgets them once sent', async () => {
    const sent: string[] = [];
    const { storage, outbox } = outboxWith(async (s) => void sent.push(s.key));
    await outbox.add(reading('u1', 100));
    await outbox.add(reading('u1', 200));
    await expect(outbox.flush('u1')).resolves.toEqual({ sent: 2, refused: 0, waiting: 0 });
    expect(sent).toEqual(['key-100', 'key-200']);
    expect(storage.items).toEqual([]);
  });

  it('stops at the first submission the network cannot take and keeps it and the rest, in order, for the next round', async () => {
    let online = false;
    const sent: string[] = [];
    const { outbox } = outboxWith(async (s) => {
      if (!online) throw new NoNetwork();
      sent.push(s.key);
    });
    await outbox.add(reading('u1', 100));
    await outbox.add(reading('u1', 200));
    await expect(outbox.flush('u1')).resolves.toEqual({ sent: 0, refused: 0, waiting: 2 });
    expect((await outbox.of('u1')).map((s) => s.key)).toEqual(['key-100', 'key-200']);
    online = true;
    await outbox.flush('u1');
    expect(sent).toEqual(['key-100', 'key-200']);
  });

  it('sends a submission whose answer was lost again under the same key (the server answers it once)', async () => {
    const attempts: string[] = [];
    let lose = true;
    const { outbox } = outboxWith(async (s) => {
      attempts.push(s.key);
      if (lose) {
        lose = false;
        throw new NoNetwork();
      }
    });
    await outbox.add(reading('u1', 100));
    await outbox.flush('u1');
    await outbox.flush('u1');
    expect(attempts).toEqual(['key-100', 'key-100']);
    expect(await outbox.of('u1')).toEqual([]);
  });

  it('keeps a refused submission with the server’s reason, never sends it again, and still sends the ones after it', async () => {
    const sent: string[] = [];
    const { outbox } = outboxWith(async (s) => {
      if (s.key === 'key-50') throw new Refused('Stan licznika nie może być niższy niż ostatni (100 km)');
      sent.push(s.key);
    });
    await outbox.add(reading('u1', 50));
    await outbox.add(reading('u1', 200));
    await expect(outbox.flush('u1')).resolves.toEqual({ sent: 1, refused: 1, waiting: 0 });
    const [failed] = await outbox.of('u1');
    expect(failed).toMatchObject({ key: 'key-50', failed: { reason: 'Stan licznika nie może być niższy niż ostatni (100 km)', at: 42 } });
    await outbox.flush('u1');
    expect(sent).toEqual(['key-200']);
  });

  it('joins a round under way instead of sending the same submission twice side by side', async () => {
    const sent: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { outbox } = outboxWith(async (s) => {
      await gate;
      sent.push(s.key);
    });
    await outbox.add(reading('u1', 100));
    const first = outbox.flush('u1');
    const second = outbox.flush('u1');
    release();
    await Promise.all([first, second]);
    expect(sent).toEqual(['key-100']);
  });

  it('shows and sends only the signed-in user’s submissions, and forgets another user’s when he signs in', async () => {
    const sent: string[] = [];
    const { outbox } = outboxWith(async (s) => void sent.push(`${s.user} ${s.key}`));
    await outbox.add(reading('previous', 100));
    await outbox.add(reading('next', 200));
    expect((await outbox.of('next')).map((s) => s.key)).toEqual(['key-200']);
    await outbox.flush('next');
    expect(sent).toEqual(['next key-200']);
    expect(await outbox.forgetOthers('next')).toBe(1);
    expect(await outbox.of('previous')).toEqual([]);
  });
});

describe('offline paths (screens/app.json offline)', () => {
  const paths = offlinePaths({ reads: ['/car/single-car', '/car/{id}'], sends: ['/counter', '/inspections'] });

  it('keeps the declared reads, a {name} standing for one segment, the query ignored, and the start-up’s own calls', () => {
    expect(paths.reads('/car/single-car')).toBe(true);
    expect(paths.reads('/car/17')).toBe(true);
    expect(paths.reads('/reminders/items?limit=10')).toBe(false);
    expect(paths.reads('/car/17/attachments')).toBe(false);
    expect(paths.reads('/ui/config')).toBe(true);
    expect(paths.reads('/init/pre-config')).toBe(true);
  });

  it('lets only the declared submissions wait in the outbox', () => {
    expect(paths.sends('/counter')).toBe(true);
    expect(paths.sends('/inspections')).toBe(true);
    expect(paths.sends('/damage/add')).toBe(false);
    expect(offlinePaths(undefined).sends('/counter')).toBe(false);
  });
});
