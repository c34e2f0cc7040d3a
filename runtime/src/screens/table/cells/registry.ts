/**
 * The cell renderers a screen may name (`"cell": {"type": …}`), registered with every grid by
 * name. A new renderer is one component here, one name in names.ts and one branch of the `cell`
 * definition in schemas/meta/table.schema.json.
 */
import type { ComponentType } from 'react';
import FilesCell from './FilesCell';
import IconCell from './IconCell';
import { cellRendererName, type CellType } from './names';

const renderers: Record<CellType, ComponentType<any>> = {
  icon: IconCell,
  files: FilesCell,
};

/** The grid's `components` option: registered name → component. */
export const cellComponents: Record<string, ComponentType<any>> = Object.fromEntries(
  Object.entries(renderers).map(([type, component]) => [cellRendererName(type as CellType), component]),
);
