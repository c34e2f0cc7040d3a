import type { TermsStatus } from '../../../core/generated/api';
import { api } from '../../api/client';
import type { TermsDialogDecl } from '../../config/bundle';
import type { GateCheck } from '../types';

/**
 * The terms' gate has nothing to show when every version is accepted: its dialog (TermsDialog.tsx)
 * would close itself at once. Asked before that dialog's code (shell/SessionGates.tsx), from the
 * answer the first page asked ahead (routing/first-reads.ts). A failed check shows the dialog,
 * which asks again and says so (spec §4).
 */
export const passedAtOnce: GateCheck<TermsDialogDecl> = async (screen) => (await api.get<TermsStatus>(screen.status, { quiet: true })).allAccepted === true;
