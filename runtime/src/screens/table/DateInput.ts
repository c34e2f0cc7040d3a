/**
 * The day of a table's date filter (ag-grid's `agDateInput`, replaced under its own name): a text
 * input that reads and shows the day by the reader's language's pattern, as the forms' date fields
 * do (runtime/core/date-text.ts, as forms/input-formats.ts: DD.MM.YYYY, DD/MM/YYYY) — not the browser's own date picker, whose
 * order follows the browser's settings (an American browser's MM/DD/YYYY for an English reader of
 * a Polish fleet), nor ag-grid's text input, which reads YYYY-MM-DD only.
 */
import type { IAfterGuiAttachedParams, IDateComp, IDateParams } from 'ag-grid-community';
import { dayText, readDay } from '../../../core/date-text';
import { formatSettings } from '../../format-settings';

export class DateInput implements IDateComp {
  private readonly input = document.createElement('input');

  init(params: IDateParams): void {
    const input = this.input;
    input.type = 'text';
    input.inputMode = 'numeric';
    input.maxLength = 10;
    input.className = 'ag-input-field-input ag-text-field-input';
    input.dataset.dateInput = '';
    // the grid re-reads getDate() on each change: a day not yet whole is no day (null), as the grid's own input
    input.addEventListener('input', () => params.onDateChanged());
    input.addEventListener('focusin', () => params.onFocusIn?.());
  }

  getGui(): HTMLElement {
    return this.input;
  }

  /** The day typed, as a local midnight (what the grid's own input gives), or null while it is no day. */
  getDate(): Date | null {
    const read = readDay(this.input.value, formatSettings().datePattern);
    if (!read || read.rest !== '') return null;
    const [y, m, d] = read.day.split('-').map(Number);
    return new Date(y, m - 1, d);
  }

  setDate(day: Date | null): void {
    this.input.value = day ? dayText(day.getFullYear(), day.getMonth() + 1, day.getDate(), formatSettings().datePattern) : '';
  }

  setInputPlaceholder(placeholder: string): void {
    this.input.placeholder = placeholder;
  }

  setInputAriaLabel(label: string): void {
    this.input.setAttribute('aria-label', label);
  }

  setDisabled(disabled: boolean): void {
    this.input.disabled = disabled;
  }

  afterGuiAttached(params?: IAfterGuiAttachedParams): void {
    if (!params?.suppressFocus) this.input.focus({ preventScroll: true });
  }
}
