/**
 * Cell renderer `link`: the cell's text as a link to the path another field of the row holds
 * (Dziennik zmian's "Rekord" opens the record it names: `recordOpen`, /app/order?open=12). The link
 * is the cell's control (interactive.ts), so clicking it opens its record, not the row's dialog;
 * a row without a path shows the text alone.
 */
import type { CustomCellRendererProps } from 'ag-grid-react';
import type { ReactNode } from 'react';
import { useNavigateTo } from '../../../routing/useNavigateTo';
import { portalPath } from './portal-path';

export function PortalLink({ to, children }: { to: string; children: ReactNode }) {
  const navigateTo = useNavigateTo();
  return (
    <a
      href={to}
      className="cell-link"
      data-cell-control=""
      onClick={(e) => {
        // a click with a modifier opens a new tab, as a link does
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigateTo(to);
      }}
    >
      {children}
    </a>
  );
}

export default function LinkCell(props: CustomCellRendererProps & { hrefField: string }) {
  const text = props.valueFormatted ?? (props.value === null || props.value === undefined ? '' : String(props.value));
  const to = portalPath((props.data as Record<string, unknown> | undefined)?.[props.hrefField]);
  if (!text) return null;
  return to ? <PortalLink to={to}>{text}</PortalLink> : <>{text}</>;
}
