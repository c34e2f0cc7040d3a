import type { PanelSetDecl } from '../../config/bundle';
import type { ScreenReads } from '../types';

/** A panel set reads its record (PanelSet.tsx useRecord); asked ahead only when its address needs no value of a record or route. */
export const reads: ScreenReads<PanelSetDecl> = (screen) => (screen.load.endpoint.includes('{') ? [] : [screen.load.endpoint]);
