import type { ReactNode } from 'react';

export const MAIN_ID = 'main-content';

/**
 * The public pages' markup (PublicLayout.tsx) with the footer given: no hook, so that the server
 * draws the same frame around the sign-in form it writes into the page (server/init/first-paint.ts).
 */
export function PublicFrame({ children, footer }: { children: ReactNode; footer: ReactNode }) {
  return (
    <div className="public-layout">
      <main id={MAIN_ID} className="public-main" tabIndex={-1}>
        {children}
      </main>
      {footer}
    </div>
  );
}

/** The version and copyright line (spec §1; Footer.tsx gives it its texts). */
export function FooterLine({ version, copyright }: { version: string; copyright?: string }) {
  return (
    <footer className="app-footer">
      <span data-testid="app-version">{version}</span>
      {copyright && <span>{copyright}</span>}
    </footer>
  );
}
