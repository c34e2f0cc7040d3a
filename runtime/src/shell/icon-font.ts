/**
 * The stylesheet of the icon font (`bi bi-*` glyphs, ~13 KB gzipped and render-blocking in the
 * page's head until issue 33): the signed-in shell imports it (Shell.tsx), so it is in before the
 * shell is drawn; the login page, which shows none, asks for it when it opens a dialog.
 */
export function loadIconFont(): void {
  import('bootstrap-icons/font/bootstrap-icons.css').catch(() => undefined);
}
