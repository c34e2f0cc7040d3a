/**
 * The autocomplete input's logic (form-field `widget: "autocomplete"` with its `source`), pure so
 * it is tested without a DOM: when to ask (spec §5: only after more than 2 characters), what to
 * ask, how an answer becomes options, and how the arrow keys move through them.
 */
export interface AutocompleteSource {
  endpoint: string;
  query?: string;
  valueField: string;
  labelField?: string;
  minLength?: number;
  /** The typed text is upper-cased (registrations). */
  upperCase?: boolean;
  /** Wizard: data paths filled from the chosen answer's properties. */
  fill?: Record<string, string>;
}

export interface AutocompleteOption {
  value: string;
  label: string;
}

/** Spec §5 "Autocomplete searches only after more than 2 characters". */
export const DEFAULT_MIN_LENGTH = 3;

export function shouldSearch(text: string, source: { minLength?: number }): boolean {
  return text.trim().length >= (source.minLength ?? DEFAULT_MIN_LENGTH);
}

/** The GET path of a search: `<endpoint>?<query>=<text>`. */
export function searchPath(source: AutocompleteSource, text: string): string {
  return `${source.endpoint}?${new URLSearchParams({ [source.query ?? 'searchText']: text.trim() })}`;
}

/** The answer's items as options (value, and "value — label" to show); anything else is no option. */
export function toOptions(answer: unknown, source: AutocompleteSource): AutocompleteOption[] {
  if (!Array.isArray(answer)) return [];
  return answer.flatMap((item) => {
    const value = (item as Record<string, unknown> | null)?.[source.valueField];
    if (typeof value !== 'string' && typeof value !== 'number') return [];
    const label = source.labelField ? (item as Record<string, unknown>)[source.labelField] : undefined;
    return [{ value: String(value), label: label ? `${value} — ${label}` : String(value) }];
  });
}

/** The option highlighted after a key: arrows move and wrap, Home/End jump; -1 is none. */
export function nextActive(active: number, key: string, count: number): number {
  if (count === 0) return -1;
  if (key === 'ArrowDown') return active < 0 || active >= count - 1 ? 0 : active + 1;
  if (key === 'ArrowUp') return active <= 0 ? count - 1 : active - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return active;
}
