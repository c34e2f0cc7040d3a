/**
 * The cell renderers a screen may name (`"cell": {"type": …}`), registered with every grid by
 * name. A new renderer is one component here, one name in names.ts and one branch of the `cell`
 * definition in schemas/meta/table.schema.json. A renderer with code of its own that few tables
 * use is loaded when a cell first draws it (the files cell, with its dialog: issue 33, the table
 * screen's JavaScript); its cells are empty for that moment.
 */
import { createElement, lazy, Suspense, type ComponentType } from 'react';
import IconCell from './IconCell';
import LinkCell from './LinkCell';
import { cellRendererName, type CellType } from './names';

function loadedWhenDrawn(load: () => Promise<{ default: ComponentType<any> }>): ComponentType<any> {
  const Renderer = lazy(load);
  return function LoadedWhenDrawn(props: object) {
    return createElement(Suspense, { fallback: null }, createElement(Renderer, props));
  };
}

const renderers: Record<CellType, ComponentType<any>> = {
  icon: IconCell,
  link: LinkCell,
  files: loadedWhenDrawn(() => import('./FilesCell')),
};

/** The grid's `components` option: registered name → component. */
export const cellComponents: Record<string, ComponentType<any>> = Object.fromEntries(
  Object.entries(renderers).map(([type, component]) => [cellRendererName(type as CellType), component]),
);
