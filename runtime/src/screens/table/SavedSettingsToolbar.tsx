/**
 * The toolbar of saved filters and column views of one table (spec §3): save the current filter or
 * view under a name, apply one, delete one. Names are checked by the server, whose Polish message
 * ('Nazwa filtru jest wymagana', 'Filtr o podanej nazwie już istnieje' …) is shown on the field.
 */
import type { GridApi } from 'ag-grid-community';
import { useCallback, useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { ApiError, errorText } from '../../api/client';
import { showToast } from '../../state/ui';
import { columnStateOfView, savedSettingsApi, viewOfColumnState, type SavedSettings } from './saved-settings';

type Kind = 'filter' | 'view';

interface Props {
  tableName: string;
  gridApi: () => GridApi | null;
  /**
   * The table's filter as the user set it, and how to set it: the grid's own on a wide window; on
   * a phone, whose one column has no filters, the one the table carries for it (TableScreen.tsx).
   */
  filter: { get: () => Record<string, unknown>; set: (filterModel: Record<string, unknown>) => void };
  /** Column views: not on a phone, whose rows are lines, not columns. */
  views: boolean;
}

export function SavedSettingsToolbar({ tableName, gridApi, filter, views }: Props) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState<SavedSettings>({ filters: [], views: [] });
  const [saving, setSaving] = useState<Kind | null>(null);

  const reload = useCallback(() => {
    savedSettingsApi
      .load(tableName)
      .then(setSaved)
      .catch((e) => showToast('error', errorText(e)));
  }, [tableName]);
  useEffect(reload, [reload]);

  const applyFilter = filter.set;
  const applyView = (columnOrder: string[]) => {
    const api = gridApi();
    if (api) api.applyColumnState({ state: columnStateOfView(columnOrder, api.getColumnState()), applyOrder: true });
  };

  const remove = async (kind: Kind, id: number, name: string) => {
    try {
      await (kind === 'filter' ? savedSettingsApi.deleteFilter(id) : savedSettingsApi.deleteView(id));
      showToast('success', t(kind === 'filter' ? 'table:saved.filterDeleted' : 'table:saved.viewDeleted', { name }));
    } catch (e) {
      showToast('error', errorText(e));
    }
    reload();
  };

  const menu = (kind: Kind) => {
    const items = kind === 'filter' ? saved.filters : saved.views;
    return (
      <Dropdown className="saved-settings" data-testid={`saved-${kind}s`}>
        <Dropdown.Toggle variant="outline-secondary" size="sm">
          <i className={`bi bi-${kind === 'filter' ? 'funnel' : 'layout-three-columns'} me-1`} aria-hidden="true" />
          {t(kind === 'filter' ? 'table:saved.filters' : 'table:saved.views')}
        </Dropdown.Toggle>
        <Dropdown.Menu>
          {items.length === 0 && <Dropdown.ItemText className="text-secondary">{t(kind === 'filter' ? 'table:saved.noFilters' : 'table:saved.noViews')}</Dropdown.ItemText>}
          {items.map((item) => (
            <div key={item.id} className="saved-settings-item d-flex align-items-center">
              <Dropdown.Item
                as="button"
                className="flex-grow-1"
                onClick={() => ('filterModel' in item ? applyFilter(item.filterModel) : applyView(item.columnOrder))}
              >
                {item.name}
              </Dropdown.Item>
              <Button variant="link" size="sm" className="text-danger px-2" aria-label={t('table:saved.deleteNamed', { name: item.name })} title={t('table:saved.deleteNamed', { name: item.name })} onClick={() => remove(kind, item.id, item.name)}>
                <i className="bi bi-trash" aria-hidden="true" />
              </Button>
            </div>
          ))}
          <Dropdown.Divider />
          <Dropdown.Item as="button" onClick={() => setSaving(kind)}>
            <i className="bi bi-plus-lg me-1" aria-hidden="true" />
            {t(kind === 'filter' ? 'table:saved.saveFilter' : 'table:saved.saveView')}
          </Dropdown.Item>
        </Dropdown.Menu>
      </Dropdown>
    );
  };

  const save = async (kind: Kind, name: string) => {
    const api = gridApi();
    if (!api) return;
    if (kind === 'filter') await savedSettingsApi.saveFilter(tableName, name, filter.get());
    else await savedSettingsApi.saveView(tableName, name, viewOfColumnState(api.getColumnState()));
    showToast('success', t(kind === 'filter' ? 'table:saved.filterSaved' : 'table:saved.viewSaved', { name: name.trim() }));
    setSaving(null);
    reload();
  };

  return (
    <>
      {menu('filter')}
      {views && menu('view')}
      {saving && <SaveDialog kind={saving} onSave={(name) => save(saving, name)} onClose={() => setSaving(null)} />}
    </>
  );
}

function SaveDialog({ kind, onSave, onClose }: { kind: Kind; onSave: (name: string) => Promise<void>; onClose: () => void }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSave(name);
    } catch (err) {
      // the server's message for the name ('Nazwa filtru jest wymagana' …) belongs under the field
      const onName = err instanceof ApiError ? err.fieldErrors.find((f) => f.field === 'name') : undefined;
      if (onName) setError(onName.message);
      else showToast('error', errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const title = t(kind === 'filter' ? 'table:saved.saveFilterTitle' : 'table:saved.saveViewTitle');
  return (
    <Modal show onHide={onClose} centered aria-label={title}>
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton closeLabel={t('app:close')}>
          <Modal.Title as="h2" className="h5">{title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group controlId={inputId}>
            <Form.Label>{t(kind === 'filter' ? 'table:saved.filterName' : 'table:saved.viewName')}</Form.Label>
            <Form.Control value={name} maxLength={100} autoFocus isInvalid={error !== null} onChange={(e) => setName(e.target.value)} />
            <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>{t('table:saved.cancel')}</Button>
          <Button type="submit" disabled={busy}>{t('table:saved.save')}</Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
