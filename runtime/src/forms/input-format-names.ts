/**
 * The names of the typed inputs (forms/input-formats.ts holds one format per name; its type holds
 * it to this list). A module of its own: the uiSchema builder (ui-schema.ts) only asks whether a
 * widget is one, and the login page, which uses ui-schema.ts, has no typed input (issue 33).
 */
export const INPUT_FORMAT_NAMES = ['money', 'mileage', 'phone', 'postcode', 'date', 'dateTime', 'time', 'percent', 'tread', 'quantity'] as const;

export type InputFormatName = (typeof INPUT_FORMAT_NAMES)[number];

/** Whether a form field's `widget` is a typed input. */
export function isInputFormatName(widget: string | undefined): widget is InputFormatName {
  return (INPUT_FORMAT_NAMES as readonly (string | undefined)[]).includes(widget);
}
