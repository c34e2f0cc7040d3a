/**
 * The parts of the signed-in pages that the login page leaves out (issue 33): the shell (top
 * bar, side menu, session gates), the toasts, the closable modals. Asked for as a user signs in
 * (beside the sign-in call) and at a start-up that finds a session, so that the first signed-in
 * page does not wait for them one after another; React.lazy then finds them loaded.
 */
export function loadSignedInParts(): void {
  for (const load of [() => import('./Shell'), () => import('./Toasts'), () => import('./ClosableErrorModal'), () => import('./StatementModal')]) {
    // a part that cannot be loaded now is asked again when it is drawn
    load().catch(() => undefined);
  }
}
