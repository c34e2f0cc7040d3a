import type { ReactNode } from 'react';
import { Footer } from './Footer';

export const MAIN_ID = 'main-content';

/**
 * The layout of public pages (login): the page and the footer. A module apart from the signed-in
 * shell (Shell.tsx), which the login page does not load (issue 33).
 */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="public-layout">
      <main id={MAIN_ID} className="public-main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  );
}
