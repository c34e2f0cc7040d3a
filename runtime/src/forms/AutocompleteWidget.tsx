/**
 * The autocomplete input of the forms (`widget: "autocomplete"`, e.g. the client of a fleet
 * manager): a text input whose value is what is typed or the option chosen from the answers of
 * the field's `source` (ui:options.source), asked for once enough characters are typed. A combobox
 * with a listbox (WAI-ARIA 1.2), operable by the arrow keys, Enter and Escape.
 *
 * A field whose schema type is a number (an id: the vehicle, the employee) holds the chosen item's
 * id and shows its `inputText`; what is typed only searches, and leaves the field empty until an option
 * is chosen. A value set beforehand (the user's own vehicle) shows the inputText of its `lookup`.
 * With `upperCase` the typed text is upper-cased (registrations); a form that gives
 * `onAutocompleteChoice` in its formContext (the wizard) hears which answer was chosen, to fill
 * other values from it.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../config/texts';
import { api } from '../api/client';
import { DEFAULT_MIN_LENGTH, fillTemplate, nextActive, searchRequest, shouldSearch, toOptions, type AutocompleteOption, type AutocompleteSource } from './autocomplete';

/** The form's data, handed to widgets through the form context (a search narrowed by another field). */
export interface FormDataContext {
  formData?: Record<string, unknown>;
}

const isNumeric = (schema: WidgetProps['schema']) => {
  const type = schema?.type;
  return (Array.isArray(type) ? type : [type]).some((x) => x === 'integer' || x === 'number');
};

/** What a form may give its autocomplete inputs through formContext. */
export interface AutocompleteFormContext {
  onAutocompleteChoice?: (source: AutocompleteSource, item: Record<string, unknown>) => void;
}

/** Wait for a pause in typing before asking the server. */
const SEARCH_DELAY_MS = 250;

export function AutocompleteWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, required, rawErrors, onBlur, onFocus } = props;
  const { t } = useTranslation();
  const source = props.options.source as AutocompleteSource;
  const numeric = isNumeric(props.schema);
  const formData = (props.registry.formContext as FormDataContext | undefined)?.formData;
  const [shown, setShown] = useState<string | null>(null);
  const held = value === undefined || value === null ? '' : String(value);
  const text = numeric ? (shown ?? held) : typeof value === 'string' ? value : held;
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<AutocompleteOption[]>([]);
  const [answer, setAnswer] = useState<unknown[]>([]);
  const [searched, setSearched] = useState(false);
  const [active, setActive] = useState(-1);

  // a value set beforehand (no text chosen here): show its item's text
  useEffect(() => {
    if (!numeric || shown !== null || held === '' || !source.lookup || !source.inputText) return;
    const controller = new AbortController();
    api.get<Record<string, unknown>>(source.lookup.replace('{value}', encodeURIComponent(held)), { signal: controller.signal, quiet: true }).then(
      (item) => item && setShown(fillTemplate(source.inputText!, item)),
      () => undefined,
    );
    return () => controller.abort();
  }, [numeric, shown, held, source.lookup, source.inputText]);

  const narrowing = JSON.stringify(searchRequest(source, text, formData ?? {}));
  useEffect(() => {
    setActive(-1);
    if (!open || !shouldSearch(text, source)) {
      setOptions([]);
      setSearched(false);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const request = JSON.parse(narrowing) as ReturnType<typeof searchRequest>;
      const answer = request.body
        ? api.post(request.path, request.body, { signal: controller.signal, quiet: true })
        : api.get(request.path, { signal: controller.signal, quiet: true });
      answer.then(
        (answer) => {
          setOptions(toOptions(answer, source));
          setAnswer(Array.isArray(answer) ? answer : []);
          setSearched(true);
        },
        () => undefined,
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, text, narrowing]);

  const choose = (option: AutocompleteOption) => {
    if (numeric) {
      props.onChange(Number(option.value));
      setShown(option.text ?? option.label);
    } else props.onChange(option.text ?? option.value);
    setOpen(false);
    const item = answer.find((a) => String((a as Record<string, unknown> | null)?.[source.valueField]) === option.value);
    const context = props.registry.formContext as AutocompleteFormContext | undefined;
    if (item) context?.onAutocompleteChoice?.(source, item as Record<string, unknown>);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape' && open) {
      e.stopPropagation(); // closes the list, not the dialog
      setOpen(false);
    } else if (e.key === 'Enter' && open && active >= 0 && options[active]) {
      e.preventDefault();
      choose(options[active]);
    } else if (['ArrowDown', 'ArrowUp'].includes(e.key)) {
      e.preventDefault();
      setOpen(true);
      setActive(nextActive(active, e.key, options.length));
    }
  };

  const invalid = (rawErrors?.length ?? 0) > 0;
  const listId = `${id}__options`;
  const showList = open && (options.length > 0 || searched || text.trim().length > 0);
  const minLength = source.minLength ?? DEFAULT_MIN_LENGTH;
  return (
    <div className="autocomplete position-relative">
      <input
        id={id}
        name={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}__error` : undefined}
        className={`form-control${invalid ? ' is-invalid' : ''}`}
        value={text}
        disabled={disabled || readonly}
        required={required}
        onChange={(e) => {
          const typed = source.upperCase ? e.target.value.toUpperCase() : e.target.value;
          if (numeric) {
            // typing searches; the field holds an id only once an option is chosen
            setShown(typed);
            if (value !== undefined) props.onChange(undefined);
          } else props.onChange(typed === '' ? undefined : typed);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => onFocus(id, value)}
        onBlur={() => {
          setOpen(false);
          onBlur(id, value);
        }}
      />
      {showList && (
        <ul id={listId} role="listbox" className="autocomplete-list list-group shadow-sm" aria-label={t('app:autocomplete.results')}>
          {!shouldSearch(text, source) && <li className="list-group-item text-secondary small" role="presentation">{t('app:autocomplete.hint', { n: minLength })}</li>}
          {shouldSearch(text, source) && searched && options.length === 0 && (
            <li className="list-group-item text-secondary small" role="presentation">{t('app:autocomplete.none')}</li>
          )}
          {options.map((option, i) => (
            <li
              key={option.value}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`list-group-item list-group-item-action${i === active ? ' active' : ''}`}
              // mousedown, not click: the input's blur would close the list first
              onMouseDown={(e) => {
                e.preventDefault();
                choose(option);
              }}
            >
              {option.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
