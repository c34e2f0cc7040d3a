/**
 * A newer runtime (issue 47): `available` once its service worker waits (pwa/register.ts);
 * `afterForm` once the user asked to refresh while a form was half-filled — it happens as soon
 * as no form is (pwa/UpdateNotice.tsx).
 */
import { atom } from 'jotai';

export type RuntimeUpdate = 'available' | 'afterForm' | null;
export const runtimeUpdateAtom = atom<RuntimeUpdate>(null);

/** What pressing "Odśwież" does: refresh now, or wait for the open form. */
export const onRefreshPressed = (anyFormDirty: boolean): 'now' | 'afterForm' => (anyFormDirty ? 'afterForm' : 'now');
