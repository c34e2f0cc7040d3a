import type { CustomCellRendererProps } from 'ag-grid-react';
import type { NarrowPart } from './narrow';
import { PortalLink } from './cells/LinkCell';
import { cellComponents } from './cells/registry';
import { cellRendererName } from './cells/names';

/** The grid's own files renderer (the invoices' download button), drawn on the phone's line as in the grid's cell. */
const FilesButton = cellComponents[cellRendererName('files')];

/** A row on a phone (narrow.ts): its lines, the first in bold, a labelled value after its header. */
export function NarrowRowCell(props: CustomCellRendererProps & { lines: (row: Record<string, unknown> | undefined) => NarrowPart[][] }) {
  const lines = props.lines(props.data as Record<string, unknown> | undefined);
  return (
    <div className="narrow-row">
      {lines.map((line, i) => line.length > 0 && (
        <div key={i} className={i === 0 ? 'narrow-row-first' : 'narrow-row-more'}>
          {line.map((part, j) => (
            <span key={j} className={part.joined ? 'narrow-row-part narrow-row-part--joined' : 'narrow-row-part'}>
              {part.label && <span className="narrow-row-label">{part.label}: </span>}
              {part.files ? <FilesButton data={part.files.row} value={part.files.value} files={part.files.decl} />
                : part.href ? <PortalLink to={part.href}>{part.text}</PortalLink> : part.text}
            </span>
          ))}
        </div>
      ))}
    </div>
  );
}
