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

/**
 * The cookie notice's markup (CookieNotice.tsx gives it its texts and what the button does): at
 * the end of the page, after the frame; the server draws it into the first paint for a visitor
 * who has not acknowledged it (the `portal.cookies` cookie), as it is a large part of the first screen.
 */
export function CookieNoticeView({ label, text, accept, icon, onAccept }: { label: string; text: string; accept: string; icon: ReactNode; onAccept?: () => void }) {
  return (
    <section className="cookie-notice shadow" aria-label={label} data-testid="cookie-notice">
      <p className="mb-0">
        {icon}
        {text}
      </p>
      <button type="button" className="btn btn-light btn-sm" onClick={onAccept}>
        {accept}
      </button>
    </section>
  );
}
