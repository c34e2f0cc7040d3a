/**
 * A day of Raporty's own period, typed as the reader writes a day (DD.MM.YYYY, DD/MM/YYYY: the
 * forms' date format, forms/input-formats.ts) rather than in the browser's date picker, whose
 * order follows the browser's settings, not the portal's language (issue 48). The report is asked
 * again only for a whole day: while one is being typed, the period stays the last whole one.
 */
import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { date } from '../../forms/input-formats';
import { useFormattedInput } from '../../forms/useFormattedInput';

const WHOLE_DAY = /^\d{4}-\d{2}-\d{2}$/;

export function DayInput({ day, onDay }: { day: string; onDay: (day: string) => void }) {
  // the input's own value (a day, or the text not yet a day): the period changes only with a whole day
  const [value, setValue] = useState<unknown>(day);
  const input = useFormattedInput(date, value, (typed) => {
    setValue(typed);
    if (typeof typed === 'string' && WHOLE_DAY.test(typed)) onDay(typed);
  });
  const invalid = value !== undefined && !(typeof value === 'string' && WHOLE_DAY.test(value));
  return <Form.Control type="text" {...input} isInvalid={invalid} aria-invalid={invalid || undefined} />;
}
