/**
 * Which forms hold something typed and not yet sent (issue 47): a new version of the portal is
 * never put in place — the page reloaded — under a half-filled form (pwa/update.ts). Each open
 * form (FormDialog, Wizard, FormScreen) says whether what it shows differs from what it opened
 * with; the set empties as forms are sent or closed.
 */
import { atom, useAtomValue } from 'jotai';
import { useEffect, useId } from 'react';
import { store } from './store';

export const dirtyFormsAtom = atom<ReadonlySet<string>>(new Set<string>());

export function setFormDirty(id: string, dirty: boolean): void {
  const current = store.get(dirtyFormsAtom);
  if (current.has(id) === dirty) return;
  const next = new Set(current);
  if (dirty) next.add(id);
  else next.delete(id);
  store.set(dirtyFormsAtom, next);
}

/** A form's part: dirty while `dirty` holds, clean again once it does not or the form is gone. */
export function useDirtyForm(dirty: boolean): void {
  const id = useId();
  useEffect(() => {
    setFormDirty(id, dirty);
  }, [id, dirty]);
  useEffect(() => () => setFormDirty(id, false), [id]);
}

/** Whether any form is half-filled now. */
export const useAnyFormDirty = () => useAtomValue(dirtyFormsAtom).size > 0;
