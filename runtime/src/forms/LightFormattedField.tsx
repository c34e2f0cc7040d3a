/**
 * A typed input of the light form (forms/LightForm.tsx): money, mileage, phone, postcode, date or
 * date-time as the @rjsf forms draw it (forms/input-formats.ts). A chunk of its own, loaded when a
 * light form has one: the login form has none (issue 33).
 */
import { INPUT_FORMATS } from './input-formats';
import type { InputFormatName } from './input-format-names';
import { useFormattedInput } from './useFormattedInput';

type Props = { format: InputFormatName; value: unknown; onChange: (value: unknown) => void; id: string; className: string; autoComplete?: string } & Record<`aria-${string}`, unknown>;

export default function LightFormattedField({ format, value, onChange, ...rest }: Props) {
  const input = useFormattedInput(INPUT_FORMATS[format], value, onChange);
  return <input {...rest} {...input} name={rest.id} type="text" />;
}
