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
  /** The list item's text, a template of the answer's fields: "{nazwisko} {imie} ({nrPrac})". */
  optionLabel?: string;
  /** What the input shows once an option is chosen (a template); a text field takes it as its value. */
  inputText?: string;
  /** More query parameters, templates of the form's data: { "pojazdId": "{pojazdId}" } (left out while empty). */
  params?: Record<string, string>;
  /** GET endpoint of the item a held value stands for ("/car/{value}"), for the text of a value set beforehand. */
  lookup?: string;
  /** The endpoint is a table resource's POST /<resource>/table: the typed text filters this column (contains). */
  tableFilter?: string;
  /** The typed text is upper-cased (registrations). */
  upperCase?: boolean;
  /** Wizard: data paths filled from the chosen answer's properties. */
  fill?: Record<string, string>;
}

/** How many rows a table search asks for. */
export const TABLE_SEARCH_ROWS = 20;

/** The request of a search: a GET with the text as a query parameter, or a table's POST filtered by the text. */
export function searchRequest(source: AutocompleteSource, text: string, data: Record<string, unknown> = {}): { path: string; body?: Record<string, unknown> } {
  if (!source.tableFilter) return { path: searchPath(source, text, data) };
  return {
    path: source.endpoint,
    body: { startRow: 0, endRow: TABLE_SEARCH_ROWS, filterModel: { [source.tableFilter]: { filterType: 'text', type: 'contains', filter: text.trim() } } },
  };
}

export interface AutocompleteOption {
  value: string;
  label: string;
  /** The input's text once chosen (source.inputText); absent: the value. */
  text?: string;
}

/** "{nazwisko} {imie}" with the item's fields; an empty field leaves nothing (and no double space). */
export function fillTemplate(template: string, item: Record<string, unknown>): string {
  return template
    .replace(/\{(\w+)\}/g, (_, f: string) => {
      const v = item[f];
      return v === null || v === undefined ? '' : String(v);
    })
    .replace(/\(\s*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Spec §5 "Autocomplete searches only after more than 2 characters". */
export const DEFAULT_MIN_LENGTH = 3;

export function shouldSearch(text: string, source: { minLength?: number }): boolean {
  return text.trim().length >= (source.minLength ?? DEFAULT_MIN_LENGTH);
}

/** The GET path of a search: `<endpoint>?<query>=<text>`, with the source's params from the form's data. */
export function searchPath(source: AutocompleteSource, text: string, data: Record<string, unknown> = {}): string {
  const query = new URLSearchParams({ [source.query ?? 'searchText']: text.trim() });
  for (const [name, template] of Object.entries(source.params ?? {})) {
    const value = fillTemplate(template, data);
    if (value) query.set(name, value);
  }
  return `${source.endpoint}?${query}`;
}

/** The answer's items as options (value, and "value — label" to show); anything else is no option. */
export function toOptions(answer: unknown, source: AutocompleteSource): AutocompleteOption[] {
  if (!Array.isArray(answer)) return [];
  return answer.flatMap((item) => {
    const value = (item as Record<string, unknown> | null)?.[source.valueField];
    if (typeof value !== 'string' && typeof value !== 'number') return [];
    const record = item as Record<string, unknown>;
    const text = source.inputText ? fillTemplate(source.inputText, record) : undefined;
    if (source.optionLabel) return [{ value: String(value), label: fillTemplate(source.optionLabel, record), text }];
    const label = source.labelField ? record[source.labelField] : undefined;
    return [{ value: String(value), label: label ? `${value} — ${label}` : String(value), text }];
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
