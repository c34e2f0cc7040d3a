/**
 * Cell renderer `icon`: shows an icon (Bootstrap Icons) or a short text for the cell's value, in
 * the declared colour, with the value's meaning as tooltip and accessible name (spec §2 orders
 * list: status icon, Z, K, T). The hover text covers the whole cell, and a value whose entry has
 * only a label (e.g. "no cost estimate") shows no mark but still says its meaning on hover and to
 * screen readers. A value without an entry shows nothing.
 */
import type { CustomCellRendererProps } from 'ag-grid-react';
import type { Tone } from '../../../config/bundle';

export interface ResolvedIcon {
  icon?: string;
  text?: string;
  label: string;
  tone?: Tone;
}

export default function IconCell(props: CustomCellRendererProps & { icons: Record<string, ResolvedIcon> }) {
  const entry = props.value === null || props.value === undefined ? undefined : props.icons[String(props.value)];
  if (!entry || (!entry.icon && !entry.text && !entry.label)) return null;
  const tone = entry.tone ? ` text-${entry.tone}` : '';
  let mark = null;
  if (entry.icon) mark = <i className={`bi bi-${entry.icon}`} aria-hidden="true" />;
  else if (entry.text) mark = <span className={`cell-icon-text border-${entry.tone ?? 'secondary'}`} aria-hidden="true">{entry.text}</span>;
  return (
    <span className={`cell-icon${tone}`} title={entry.label} role="img" aria-label={entry.label} data-value={String(props.value)}>
      {mark}
    </span>
  );
}
