/**
 * The revision of the data on screen: a saved change anywhere (a form dialog, a modal route such
 * as the odometer reading) bumps it, and every record a screen shows (screens/useRecord.ts) is
 * read again, so the vehicle panel beneath a modal shows the new reading once it closes.
 */
import { atom } from 'jotai';
import { store } from './store';

export const dataRevisionAtom = atom(0);

/** Tells every shown record that the data may have changed. */
export function dataChanged(): void {
  store.set(dataRevisionAtom, (n) => n + 1);
}
