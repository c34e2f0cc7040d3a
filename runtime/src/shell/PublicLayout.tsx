import type { ReactNode } from 'react';
import { Footer } from './Footer';
import { PublicFrame } from './PublicFrame';

export { MAIN_ID } from './PublicFrame';

/**
 * The layout of public pages (login): the page and the footer. A module apart from the signed-in
 * shell (Shell.tsx), which the login page does not load (issue 33).
 */
export function PublicLayout({ children }: { children: ReactNode }) {
  return <PublicFrame footer={<Footer />}>{children}</PublicFrame>;
}
