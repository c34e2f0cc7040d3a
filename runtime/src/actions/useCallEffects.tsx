/**
 * The effects a screen gives `call` actions (./call-action.ts): the Tak/Nie question drawn by the
 * screen (render `confirmation`), the API client, toasts, the screen's texts, and what the screen
 * reloads or closes after a success. `busy` is true while a call runs (buttons wait).
 */
import { lazy, Suspense, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../config/texts';
import { api } from '../api/client';
import { showToast } from '../state/ui';
// registers the `call` kind in run-action.ts: a screen that offers calls carries their code, a table does not
import './call-action';
import type { CallEffects } from './call-types';
import type { Fact } from './facts';

// the question and the shown-once value are modals (react-bootstrap's): their code comes with the
// first call that asks or shows, not with every screen that offers calls (the dashboard's budget)
const ConfirmDialog = lazy(() => import('./ConfirmDialog').then((m) => ({ default: m.ConfirmDialog })));
const RevealDialog = lazy(() => import('./RevealDialog').then((m) => ({ default: m.RevealDialog })));

export function useCallEffects({ reload, close }: { reload: (what: string[]) => void; close: () => void }): {
  call: CallEffects;
  confirmation: ReactNode;
  busy: boolean;
  track: <T>(work: void | Promise<T>) => void;
} {
  const { t } = useTranslation();
  const [question, setQuestion] = useState<{ text: string; facts?: Fact[]; answer: (yes: boolean) => void } | null>(null);
  const [shown, setShown] = useState<{ texts: { title: string; label: string; warning: string }; value: string; done: () => void } | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef({ reload, close });
  latest.current = { reload, close };

  const call = useMemo<CallEffects>(
    () => ({
      confirm: (text, facts) => new Promise<boolean>((resolve) => setQuestion({ text, facts, answer: resolve })),
      request: (method, path, body) => {
        const options = { quiet: true };
        if (method === 'GET') return api.get(path, options);
        if (method === 'DELETE') return api.delete(path, options);
        return (method === 'PUT' ? api.put : api.post)(path, body ?? {}, options);
      },
      toast: (kind, text, key) => showToast(kind, text, key),
      t: (key, vars) => t(key, vars),
      reload: (what) => latest.current.reload(what),
      close: () => latest.current.close(),
      reveal: (texts, value) => new Promise<void>((resolve) => setShown({ texts, value, done: resolve })),
    }),
    [t],
  );

  const track = <T,>(work: void | Promise<T>) => {
    if (!work) return;
    setBusy(true);
    void work.finally(() => setBusy(false));
  };

  const confirmation = (question || shown) && (
    <Suspense fallback={null}>
      {question && (
        <ConfirmDialog
          question={question.text}
          facts={question.facts}
          onAnswer={(yes) => {
            setQuestion(null);
            question.answer(yes);
          }}
        />
      )}
      {shown && (
        <RevealDialog
          {...shown.texts}
          value={shown.value}
          onClose={() => {
            setShown(null);
            shown.done();
          }}
        />
      )}
    </Suspense>
  );
  return { call, confirmation, busy, track };
}
