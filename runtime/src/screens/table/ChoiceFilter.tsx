/**
 * A choice-list filter for coded columns (roles, order statuses and types, yes/no): the user ticks
 * labels, the server receives the codes as `{ filterType: 'set', values: [...] }` (ag-grid's own set
 * filter is an enterprise feature). Filtering happens on the server; the grid never filters rows
 * itself in the infinite row model, so `doesFilterPass` only keeps the grid's contract.
 */
import { useGridFilter, type CustomFilterProps } from 'ag-grid-react';
import { useCallback, useId } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from '../../config/texts';
import type { Choice } from './columns';

export interface SetFilterModel {
  filterType: 'set';
  values: Choice['value'][];
}

export default function ChoiceFilter({ model, onModelChange, getValue, choices }: CustomFilterProps<any, any, SetFilterModel> & { choices: Choice[] }) {
  const { t } = useTranslation();
  const idBase = useId();
  const selected = model?.values ?? [];

  const doesFilterPass = useCallback(
    ({ node }: { node: any }) => !model || model.values.includes(getValue(node) as Choice['value']),
    [model, getValue],
  );
  useGridFilter({ doesFilterPass });

  const toggle = (value: Choice['value'], on: boolean) => {
    const next = on ? [...selected, value] : selected.filter((v) => v !== value);
    // keep the declared order, so a saved filter reads the same however it was ticked
    const ordered = choices.map((c) => c.value).filter((v) => next.includes(v));
    onModelChange(ordered.length ? { filterType: 'set', values: ordered } : null);
  };

  return (
    <div className="choice-filter p-2" role="group" aria-label={t('table:choiceFilter')}>
      {choices.map((choice, i) => (
        <Form.Check
          key={String(choice.value)}
          id={`${idBase}-${i}`}
          type="checkbox"
          label={choice.label}
          checked={selected.includes(choice.value)}
          onChange={(e) => toggle(choice.value, e.currentTarget.checked)}
        />
      ))}
      <Button variant="link" size="sm" className="px-0 mt-1" disabled={!model} onClick={() => onModelChange(null)}>
        {t('table:filters.resetFilter')}
      </Button>
    </div>
  );
}
