/**
 * Cells that hold a control the user operates (a download button). The grid handles clicks and
 * keys of a row with its own listeners, which run before React's, so a renderer cannot stop the
 * row from reacting; instead the table asks here whether an event belongs to such a control.
 * Renderers mark the control with the attribute `data-cell-control`.
 */
const CONTROL = '[data-cell-control]';

/** Whether the event started on a control inside a cell (its own click, not the row's). */
export function isFromCellControl(event: Event | null | undefined): boolean {
  const target = event?.target;
  return target instanceof Element && target.closest(CONTROL) !== null;
}

/**
 * Keyboard use: the grid moves focus from cell to cell, not into a cell's buttons, so Enter on a
 * focused cell that holds an enabled control presses it. Answers whether the key was the
 * control's (then the row's own Enter action must not run).
 */
export function pressCellControl(event: KeyboardEvent): boolean {
  if (event.key !== 'Enter') return false;
  if (isFromCellControl(event)) return true; // the focused button handles its own Enter
  const target = event.target;
  const control = target instanceof Element ? target.querySelector<HTMLElement>(CONTROL) : null;
  if (!control || (control as HTMLButtonElement).disabled) return false;
  event.preventDefault();
  control.click();
  return true;
}
