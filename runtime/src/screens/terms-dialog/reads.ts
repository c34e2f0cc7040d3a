import type { TermsDialogDecl } from '../../config/bundle';
import type { ScreenReads } from '../types';

/** The terms' dialog first asks whether the user has accepted the current version (TermsDialog.tsx). */
export const reads: ScreenReads<TermsDialogDecl> = (screen) => [screen.status];
