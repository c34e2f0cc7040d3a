import { describe, expect, it } from 'vitest';
import type { MultipartPart } from '../../../core/multipart';
import wizardJson from '../../../../screens/order-wizard.json';
import type { WizardDecl } from '../../config/bundle';
import { followUpFailure, runFollowUps, type FollowUpDeps, type ItemFiles } from './follow-ups';

const wizard = wizardJson as unknown as WizardDecl;
const pdf = (name: string) => new File([new Uint8Array([37, 80, 68, 70])], name, { type: 'application/pdf' });
const texts: Record<string, string> = {
  'order-wizard:attachmentFailed': 'Nie udało się dodać załącznika „{{file}}” do zlecenia',
  'order-wizard:noteFailed': 'Nie udało się dodać notatki do zlecenia',
};
const t = (key: string, vars?: Record<string, unknown>) => (texts[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, v) => String(vars?.[v] ?? ''));

/** A fake server that records the calls and refuses the uploads of the named files. */
function fakeServer(refused: string[] = []) {
  const calls: { endpoint: string; body?: Record<string, unknown>; parts?: MultipartPart[] }[] = [];
  const warnings: string[] = [];
  const deps: FollowUpDeps = {
    post: async (endpoint, body) => { calls.push({ endpoint, body }); return {}; },
    postMultipart: async (endpoint, parts) => {
      calls.push({ endpoint, parts });
      const file = parts.find((p) => 'filename' in p) as { filename: string } | undefined;
      if (file && refused.includes(file.filename)) throw new Error('Zawartość pliku nie odpowiada jego rozszerzeniu');
      return {};
    },
    warn: (text) => warnings.push(text),
    detailOf: (e) => (e instanceof Error ? e.message : undefined),
    t,
  };
  return { calls, warnings, deps };
}

/** The wizard's data with two attachments (their files beside them) and one note. */
function typedIn() {
  const first = { tytul: 'Protokół', opis: 'Protokół odbioru', file: 'protokol.pdf' };
  const second = { tytul: 'Zdjęcie', opis: 'Zdjęcie licznika', file: 'licznik.pdf' };
  const files: ItemFiles = new WeakMap();
  files.set(first, new Map([['file', pdf('protokol.pdf')]]));
  files.set(second, new Map([['file', pdf('licznik.pdf')]]));
  const data = { order: { rejestr: 'WZ12345' }, attachments: [first, second], notes: [{ tresc: 'Samochód dostępny od 8:00.' }] };
  return { data, files };
}
const answer = { order: { autId: 4711, autNr: '' }, message: 'Dodano zlecenie' };

describe('the follow-ups of the order wizard after the save', () => {
  it('uploads each attachment with its file to the new order (group SA_AUTO), then posts the notes', async () => {
    const { data, files } = typedIn();
    const server = fakeServer();
    const failed = await runFollowUps(wizard.submit.then, data, answer, null, files, server.deps);
    expect(failed).toBe(0);
    expect(server.calls.map((c) => c.endpoint)).toEqual(['/attachment/upload', '/attachment/upload', '/note']);
    const [upload] = server.calls;
    expect(upload.parts!.filter((p) => !('filename' in p))).toEqual([
      { name: 'id', value: '4711' }, { name: 'group', value: 'SA_AUTO' }, { name: 'tytul', value: 'Protokół' }, { name: 'opis', value: 'Protokół odbioru' },
    ]);
    const filePart = upload.parts!.find((p) => 'filename' in p) as Extract<MultipartPart, { filename: string }>;
    expect(filePart).toMatchObject({ name: 'file', filename: 'protokol.pdf', type: 'application/pdf' });
    expect(Array.from(filePart.content)).toEqual([37, 80, 68, 70]);
    expect(server.calls[2].body).toEqual({ zrodlo: 'AUTORY', zrodloId: 4711, tresc: 'Samochód dostępny od 8:00.' });
  });

  it('warns naming the file whose upload failed, with the server\'s reason, and still sends the rest', async () => {
    const { data, files } = typedIn();
    const server = fakeServer(['protokol.pdf']);
    const failed = await runFollowUps(wizard.submit.then, data, answer, null, files, server.deps);
    expect(failed).toBe(1);
    expect(server.warnings).toEqual(['Nie udało się dodać załącznika „protokol.pdf” do zlecenia: Zawartość pliku nie odpowiada jego rozszerzeniu']);
    expect(server.calls.map((c) => c.endpoint)).toEqual(['/attachment/upload', '/attachment/upload', '/note']);
  });

  it('makes no upload when no attachment was added', async () => {
    const server = fakeServer();
    await runFollowUps(wizard.submit.then, { notes: [] }, answer, null, new WeakMap(), server.deps);
    expect(server.calls).toEqual([]);
  });

  it('shows the declared text alone when the server gives no reason', () => {
    expect(followUpFailure({ failureToast: 'order-wizard:noteFailed' }, { tresc: 'x' }, undefined, t)).toBe('Nie udało się dodać notatki do zlecenia');
  });
});
