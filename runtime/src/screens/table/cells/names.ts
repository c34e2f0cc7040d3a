/**
 * Names under which cell renderers are registered with the grid. A screen file names a renderer
 * by its `cell.type`; the grid knows it as `cell:<type>`, so it cannot clash with ag-grid's own
 * component names.
 */
export const CELL_TYPES = ['icon', 'files', 'link'] as const;
export type CellType = (typeof CELL_TYPES)[number];

export const cellRendererName = (type: CellType) => `cell:${type}`;
