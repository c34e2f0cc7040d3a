/**
 * The typed inputs of the forms (spec §5, §9): what a money, mileage, phone, postcode, date or
 * date-time field shows while it is edited, and the value it sends. Pure functions, so the rjsf
 * widgets (forms/widgets.tsx) and the login page's LightForm share them.
 *
 * Each format has `display(value)` (the value of the form data → the text in the input) and
 * `parse(text)` (the text typed → the value of the form data). `parse` never throws: text it
 * cannot read is kept as it was typed, so the JSON schema reports it ("Niepoprawny format", or the
 * type's message) instead of the input silently dropping it. Empty text is `undefined` (absent).
 */
import { formatDateTime } from '../format';
import { formatSettings } from '../format-settings';
import { dayText, patternText, readDay } from '../../core/date-text';
import { groupPhoneDigits } from '../../core/format-kind';
import type { InputFormatName } from './input-format-names';

export type { InputFormatName } from './input-format-names';

export interface InputFormat {
  display(value: unknown): string;
  parse(text: string): unknown;
  /** The soft keyboard to offer on a phone (inputmode). */
  inputMode: 'decimal' | 'numeric' | 'tel' | 'text';
  /** Longest text the input takes, where the format has one. */
  maxLength?: number;
  /** What the empty input shows; a date's is its pattern in the reader's letters (DD.MM.RRRR, DD/MM/YYYY), hence a function of the texts. */
  placeholder?: string | ((t: (key: string) => string) => string);
  /** Re-shows the text as each character is typed (masks); otherwise it is tidied when the input is left. */
  maskWhileTyping?: boolean;
}

const NBSP = /[\s\u00a0\u202f]/g;
const pad = (n: number) => String(n).padStart(2, '0');

/** Groups thousands with a space, the Polish way (1 234 567). */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** Money: two decimals with a comma, thousands grouped (1 234,50); 0.00 … 1,000,000 by the schema. */
export const money: InputFormat = {
  inputMode: 'decimal',
  display(value) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return value === undefined || value === null ? '' : String(value);
    const [whole, fraction] = Math.abs(value).toFixed(2).split('.');
    return `${value < 0 ? '-' : ''}${groupThousands(whole)},${fraction}`;
  },
  parse(text) {
    const compact = text.replace(NBSP, '').replace(',', '.');
    if (compact === '') return undefined;
    if (!/^-?\d+(\.\d{0,2})?$/.test(compact)) return text;
    return Math.round(Number(compact) * 100) / 100;
  },
};

/** Mileage: whole kilometres, thousands grouped (123 456). */
export const mileage: InputFormat = {
  inputMode: 'numeric',
  display(value) {
    if (typeof value === 'number' && Number.isInteger(value)) return `${value < 0 ? '-' : ''}${groupThousands(String(Math.abs(value)))}`;
    return value === undefined || value === null ? '' : String(value);
  },
  parse(text) {
    const compact = text.replace(NBSP, '');
    if (compact === '') return undefined;
    return /^\d+$/.test(compact) ? Number(compact) : text;
  },
};

/** A phone number: nine digits shown as Poles write them (600 123 456, a landline 22 500 10 00), sent as the digits. */
export const phone: InputFormat = {
  inputMode: 'tel',
  maxLength: 12,
  maskWhileTyping: true,
  placeholder: '___ ___ ___',
  display(value) {
    if (typeof value !== 'string') return value === undefined || value === null ? '' : String(value);
    return /^\d{1,9}$/.test(value) ? groupPhoneDigits(value) : value;
  },
  parse(text) {
    const compact = text.replace(NBSP, '');
    if (compact === '') return undefined;
    return /^\d+$/.test(compact) ? compact.slice(0, 9) : text;
  },
};

/** A Polish postcode NN-NNN: the hyphen is put in as the digits are typed. */
export const postcode: InputFormat = {
  inputMode: 'numeric',
  maxLength: 6,
  maskWhileTyping: true,
  placeholder: '__-___',
  display(value) {
    return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  },
  parse(text) {
    const compact = text.replace(NBSP, '');
    if (compact === '') return undefined;
    const digits = compact.replace('-', '');
    if (!/^\d+$/.test(digits) || compact.indexOf('-') > 2) return text;
    return digits.length > 2 ? `${digits.slice(0, 2)}-${digits.slice(2, 5)}` : digits;
  },
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const HH_MM = /^\s+(\d{1,2}):(\d{2})$/;
const timeLetters = (t: (key: string) => string) => `${t('app:datePattern.hour')}:${t('app:datePattern.minute')}`;

/**
 * A date typed by the reader's language's pattern (config.datePattern: DD.MM.YYYY, DD/MM/YYYY),
 * sent as YYYY-MM-DD (JSON schema "format": "date").
 */
export const date: InputFormat = {
  inputMode: 'numeric',
  maxLength: 10,
  placeholder: (t) => patternText(formatSettings().datePattern, t),
  display(value) {
    const m = typeof value === 'string' ? ISO_DATE.exec(value) : null;
    return m ? dayText(m[1], m[2], m[3], formatSettings().datePattern) : value === undefined || value === null ? '' : String(value);
  },
  parse(text) {
    if (text.trim() === '') return undefined;
    const read = readDay(text, formatSettings().datePattern);
    return read && read.rest === '' ? read.day : text;
  },
};

/** A date with time, the pattern's day and HH:mm, sent as YYYY-MM-DDTHH:mm (local time of the form). */
export const dateTime: InputFormat = {
  inputMode: 'numeric',
  maxLength: 16,
  placeholder: (t) => patternText(formatSettings().datePattern, t, true),
  display(value) {
    // an instant (a record's creation time, ending Z or +01:00) is shown in the configured time zone
    if (typeof value === 'string' && INSTANT.test(value)) return formatDateTime(value) ?? '';
    const m = typeof value === 'string' ? ISO_DATE_TIME.exec(value) : null;
    return m ? `${dayText(m[1], m[2], m[3], formatSettings().datePattern)} ${m[4]}:${m[5]}` : value === undefined || value === null ? '' : String(value);
  },
  parse(text) {
    if (text.trim() === '') return undefined;
    const read = readDay(text, formatSettings().datePattern);
    const m = read ? HH_MM.exec(read.rest) : null;
    if (!read || !m || +m[1] > 23 || +m[2] > 59) return text;
    return `${read.day}T${pad(+m[1])}:${m[2]}`;
  },
};

const TIME_TEXT = /^(\d{1,2})[:.](\d{2})$/;

/** A time of day HH:mm (9:05 and 9.05 are read as 09:05). */
export const time: InputFormat = {
  inputMode: 'numeric',
  maxLength: 5,
  placeholder: timeLetters,
  display(value) {
    return value === undefined || value === null ? '' : String(value);
  },
  parse(text) {
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    const m = TIME_TEXT.exec(trimmed);
    if (!m || +m[1] > 23 || +m[2] > 59) return text;
    return `${pad(+m[1])}:${m[2]}`;
  },
};


/** A decimal with a comma and at most `places` places; text it cannot read is kept as typed. */
function decimal(places: number, fixed: boolean, inputMode: InputFormat['inputMode'] = 'decimal'): InputFormat {
  const pattern = places > 0 ? new RegExp(`^-?\\d+(\\.\\d{0,${places}})?$`) : /^-?\d+$/;
  return {
    inputMode,
    display(value) {
      if (typeof value !== 'number' || !Number.isFinite(value)) return value === undefined || value === null ? '' : String(value);
      return (fixed ? value.toFixed(places) : String(value)).replace('.', ',');
    },
    parse(text) {
      const compact = text.replace(NBSP, '').replace(',', '.');
      if (compact === '') return undefined;
      return pattern.test(compact) ? Number(compact) : text;
    },
  };
}

/** Discount percentage (spec §5): a whole number 0–100 (the schema says the range). */
export const percent: InputFormat = decimal(0, false, 'numeric');
/** Tread condition (spec §5): 0–10 in steps of 0.5, shown with one decimal (7,0). */
export const tread: InputFormat = decimal(1, true);
/** Quantity of a position: up to 2 decimals (1, 2,5). */
export const quantity: InputFormat = decimal(2, false);

export const INPUT_FORMATS: Record<InputFormatName, InputFormat> = { money, mileage, phone, postcode, date, dateTime, time, percent, tread, quantity };

/** The input format of a form field's `widget`, when it has one. */
export function inputFormatOf(widget: string | undefined): InputFormat | undefined {
  return widget && Object.hasOwn(INPUT_FORMATS, widget) ? INPUT_FORMATS[widget as InputFormatName] : undefined;
}
