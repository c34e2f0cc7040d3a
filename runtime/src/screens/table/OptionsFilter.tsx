/**
 * A column filter whose choices the server lists (a screen's column `"filter": { "options", "field" }`,
 * schemas/meta/table.schema.json): the user types a part of a name, the list answers from
 * GET <options>?q=…, the ticked choices are sent as `{ filterType: 'set', values }` on the filter's
 * field (the datasource maps the column to it). Dziennik zmian's "Kto" is one: a person by the id
 * the trail is indexed on, not by the text of a login. The chosen ones stay listed first with the
 * labels they were chosen by (kept in the model, so a kept or saved filter reads the same later).
 * Filtering happens on the server; `doesFilterPass` only keeps the grid's contract.
 */
import { useGridFilter, type CustomFilterProps } from 'ag-grid-react';
import { useCallback, useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { api } from '../../api/client';
import { useTranslation } from '../../config/texts';
import type { OptionsFilterParams } from './columns';

/** One choice as the options endpoint answers it (schemas/api/filter-options.schema.json). */
interface FilterOption {
  value: string;
  label: string;
  detail?: string;
}

export interface OptionsFilterModel {
  filterType: 'set';
  values: string[];
  /** Value → what the list showed when it was ticked. */
  labels?: Record<string, string>;
}

/** The choices asked for at a time; more matching ones are found by typing more. */
const LIMIT = 20;
/** Typing settles this long before the list is asked again. */
const SETTLE_MS = 250;

const display = (o: FilterOption) => (o.detail ? `${o.label} (${o.detail})` : o.label);

export type OptionsFilterProps = CustomFilterProps<any, any, OptionsFilterModel> & OptionsFilterParams;

export default function OptionsFilter({ model, onModelChange, getValue, options, placeholder }: OptionsFilterProps) {
  const { t } = useTranslation();
  const idBase = useId();
  const [text, setText] = useState('');
  const [found, setFound] = useState<{ items: FilterOption[]; more: boolean } | null>(null);
  const [failed, setFailed] = useState(false);
  const selected = model?.values ?? [];
  const labels = model?.labels ?? {};

  const doesFilterPass = useCallback(({ node }: { node: any }) => !model || model.values.includes(String(getValue(node))), [model, getValue]);
  useGridFilter({ doesFilterPass });

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      const query = new URLSearchParams({ q: text.trim(), limit: String(LIMIT) });
      api.get<{ items: FilterOption[]; more: boolean }>(`${options}?${query}`)
        .then((answer) => live && (setFound(answer), setFailed(false)))
        .catch(() => live && setFailed(true));
    }, text ? SETTLE_MS : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [options, text]);

  const toggle = (option: FilterOption, on: boolean) => {
    const values = on ? [...selected, option.value] : selected.filter((v) => v !== option.value);
    const kept = Object.fromEntries(Object.entries({ ...labels, [option.value]: display(option) }).filter(([v]) => values.includes(v)));
    onModelChange(values.length ? { filterType: 'set', values, labels: kept } : null);
  };

  // the chosen ones first (with the labels they were chosen by), then the others found
  const chosen: FilterOption[] = selected.map((value) => ({ value, label: labels[value] ?? value }));
  const others = (found?.items ?? []).filter((o) => !selected.includes(o.value));
  // a choice keeps its element and id when ticked (it moves up the list): the click stays inside the grid's popup
  const row = (option: FilterOption, checked: boolean) => (
    <Form.Check
      key={option.value}
      id={`${idBase}-${option.value}`}
      type="checkbox"
      label={checked ? option.label : display(option)}
      checked={checked}
      onChange={(e) => toggle(option, e.currentTarget.checked)}
    />
  );

  return (
    <div className="options-filter p-2" style={{ width: 280 }}>
      <Form.Control
        type="search"
        size="sm"
        value={text}
        placeholder={placeholder}
        aria-label={placeholder}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <div className="options-filter-list mt-2" role="group" aria-label={t('table:optionsFilter.choices')} style={{ maxHeight: 260, overflowY: 'auto' }}>
        {chosen.map((o) => row(o, true))}
        {others.map((o) => row(o, false))}
      </div>
      <p className="small text-secondary mb-0 mt-1" aria-live="polite">
        {failed ? t('table:optionsFilter.failed') : found && !found.items.length ? t('table:optionsFilter.none') : found?.more ? t('table:optionsFilter.more') : ''}
      </p>
      <Button variant="link" size="sm" className="px-0 mt-1" disabled={!model} onClick={() => onModelChange(null)}>
        {t('table:filters.resetFilter')}
      </Button>
    </div>
  );
}
