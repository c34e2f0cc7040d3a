/**
 * The few icons the shell shows before anyone signs in (toasts, the cookie notice, the error
 * dialog) as inline SVG, so that the login page does not download the icon font (issue 11:
 * ~130 KB). They are Bootstrap Icons' own drawings, so they look the same as the font's glyphs
 * on the signed-in pages; the font loads only when a page uses a `bi` glyph.
 */
import checkCircleFill from 'bootstrap-icons/icons/check-circle-fill.svg?raw';
import exclamationOctagonFill from 'bootstrap-icons/icons/exclamation-octagon-fill.svg?raw';
import exclamationTriangleFill from 'bootstrap-icons/icons/exclamation-triangle-fill.svg?raw';
import infoCircle from 'bootstrap-icons/icons/info-circle.svg?raw';
import xOctagonFill from 'bootstrap-icons/icons/x-octagon-fill.svg?raw';

const ICONS = {
  'check-circle-fill': checkCircleFill,
  'exclamation-octagon-fill': exclamationOctagonFill,
  'exclamation-triangle-fill': exclamationTriangleFill,
  'info-circle': infoCircle,
  'x-octagon-fill': xOctagonFill,
} as const;

export type ShellIconName = keyof typeof ICONS;

/** A decorative icon (hidden from screen readers; the text beside it says what it means). */
export function ShellIcon({ name, className = '' }: { name: ShellIconName; className?: string }) {
  // the markup is a file of the icon package bundled at build time, never data
  return <span className={`shell-icon ${className}`.trim()} aria-hidden="true" dangerouslySetInnerHTML={{ __html: ICONS[name] }} />;
}
