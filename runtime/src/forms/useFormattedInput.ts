/**
 * The props of a text input that edits a value through an input format (forms/input-formats.ts):
 * the text typed is kept while the field is edited (a money amount is not rewritten under the
 * caret), masks (phone, postcode) are applied as characters come, and the text is tidied when the
 * input is left. A value set from outside (a loaded record, followValue) replaces the text.
 */
import { useState, type ChangeEvent } from 'react';
import { useTranslation } from '../config/texts';
import type { InputFormat } from './input-formats';

export function useFormattedInput(format: InputFormat, value: unknown, onChange: (value: unknown) => void) {
  const [text, setText] = useState(() => format.display(value));
  const [seen, setSeen] = useState<unknown>(value);
  const { t } = useTranslation();
  if (!Object.is(seen, value)) {
    setSeen(value);
    setText(format.display(value));
  }
  return {
    value: text,
    inputMode: format.inputMode,
    maxLength: format.maxLength,
    placeholder: typeof format.placeholder === 'function' ? format.placeholder(t) : format.placeholder,
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const typed = e.target.value;
      const parsed = format.parse(typed);
      setSeen(parsed);
      setText(format.maskWhileTyping && parsed !== undefined ? format.display(parsed) : typed);
      onChange(parsed);
    },
    onBlur: () => {
      const parsed = format.parse(text);
      setText(parsed === undefined ? '' : format.display(parsed));
    },
  };
}
