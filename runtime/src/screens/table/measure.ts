/**
 * Text widths as the grid draws them, measured on a canvas with the page's font (headers 600,
 * cells 400, 14 px), so a column's minimum fits its header's longest word and its typical value.
 */
import { estimateText, type MeasureText } from './columns';

let context: CanvasRenderingContext2D | null | undefined;

export const measureText: MeasureText = (text, kind) => {
  if (context === undefined) context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) return estimateText(text, kind);
  const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  context.font = `${kind === 'header' ? 600 : 400} 14px ${family}`;
  return Math.ceil(context.measureText(text).width);
};
