/**
 * Cell renderer `icon`: shows an icon (Bootstrap Icons) or a short text for the cell's value, in
 * the declared colour, with the value's meaning as tooltip and accessible name (spec §2 orders
 * list: status icon, Z, K, T). A value without an entry shows nothing.
 */
import type { CustomCellRendererProps } from 'ag-grid-react';
import type { Tone } from '../../../config/types';

export interface ResolvedIcon {
  icon?: string;
  text?: string;
  label: string;
  tone?: Tone;
}

export default function IconCell(props: CustomCellRendererProps & { icons: Record<string, ResolvedIcon> }) {
  const entry = props.value === null || props.value === undefined ? undefined : props.icons[String(props.value)];
  if (!entry || (!entry.icon && !entry.text)) return null;
  const tone = entry.tone ? ` text-${entry.tone}` : '';
  return (
    <span className={`cell-icon${tone}`} title={entry.label} role="img" aria-label={entry.label} data-value={String(props.value)}>
      {entry.icon ? <i className={`bi bi-${entry.icon}`} aria-hidden="true" /> : <span className={`cell-icon-text border-${entry.tone ?? 'secondary'}`} aria-hidden="true">{entry.text}</span>}
    </span>
  );
}
