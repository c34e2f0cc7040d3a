/**
 * The few icons the shell shows before anyone signs in (toasts, the cookie notice, the error
 * dialog) as inline SVG, so that the login page does not download the icon font (issue 11:
 * ~130 KB). They are Bootstrap Icons' own drawings, so they look the same as the font's glyphs
 * on the signed-in pages; the font loads only when a page uses a `bi` glyph. Each caller imports
 * the drawing it shows (`bootstrap-icons/icons/<name>.svg?raw`), so a page carries only its own.
 */

/** A decorative icon (hidden from screen readers; the text beside it says what it means). */
export function ShellIcon({ svg, className = '' }: { svg: string; className?: string }) {
  // the markup is a file of the icon package bundled at build time, never data
  return <span className={`shell-icon ${className}`.trim()} aria-hidden="true" dangerouslySetInnerHTML={{ __html: svg }} />;
}
