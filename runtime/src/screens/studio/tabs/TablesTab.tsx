/**
 * Tabele: a table screen's columns in their order: shown or hidden by default (`hide`), moved up
 * or down (the order of `columns`), their width, and whether the export takes them (`exported:
 * false` keeps a column out; the export writes the columns the user sees, in their order, less
 * those). Saved as the whole edited document (PUT /documents).
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../../config/texts';
import { fieldLabelKey } from '../../../../core/labels';
import { copyOf, moveColumn, setColumnExported, setColumnHidden, setColumnWidth, wholeNumber } from '../edits';
import { DocumentSelect, Empty, FieldProblems, LoadFailure, SaveBar, Spinner, TabHeading, useFieldProblems } from '../parts';
import { pointer } from '../pointers';
import { screensOfTypes, useInDraft, useStudio, useStudioDocument } from '../StudioContext';
import { useEdited } from '../useEdited';

export default function TablesTab() {
  const { t } = useTranslation();
  const { overview, screen, scope, api, write } = useStudio();
  const tables = screensOfTypes(overview?.documents, screen.tableTypes ?? ['table']);
  const [path, setPath] = useState('');
  const { doc, loading, error } = useStudioDocument(path || null);
  const { edited, change, reset, dirty, setEdited } = useEdited<any>(doc?.effective);
  const inDraft = useInDraft();
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (!doc || !edited) return;
    setBusy(true);
    await write(() => api.saveDocuments([{ scope, path: doc.path, document: edited }]), t('config-studio:saved'));
    setBusy(false);
  };
  const forget = async () => {
    if (!doc) return;
    setBusy(true);
    await write(() => api.forgetDocument(scope, doc.path), t('config-studio:forgotten'));
    setBusy(false);
  };

  return (
    <div className="studio-tables">
      <TabHeading>{t('config-studio:tables.title')}</TabHeading>
      <DocumentSelect id="studio-table-choice" label={t('config-studio:tables.choose')} documents={tables} value={path} onChange={setPath} />
      <p className="studio-note">{t('config-studio:tables.exportNote')}</p>
      {loading && !doc && <Spinner />}
      {error ? <LoadFailure error={error} /> : null}
      {doc && edited && (
        <>
          {(edited.columns ?? []).length === 0 && <Empty text={t('config-studio:tables.noColumns')} />}
          <div className="table-responsive">
            <table className="table table-sm align-middle studio-columns studio-stack" data-testid="studio-columns">
              <caption className="visually-hidden">{t('config-studio:tables.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('config-studio:tables.order')}</th>
                  <th scope="col">{t('config-studio:tables.column')}</th>
                  <th scope="col">{t('config-studio:tables.shown')}</th>
                  <th scope="col">{t('config-studio:tables.width')}</th>
                  <th scope="col">{t('config-studio:tables.exported')}</th>
                </tr>
              </thead>
              <tbody>
                {(edited.columns ?? []).map((column: any, i: number) => (
                  <ColumnRow
                    key={column.id}
                    index={i}
                    count={edited.columns.length}
                    column={column}
                    header={t(column.header ?? fieldLabelKey(edited.entity, column.field ?? column.id))}
                    layerPath={doc.layerPath}
                    onHidden={(hidden) => change((d) => setColumnHidden(d, i, hidden))}
                    onMove={(delta) => change((d) => moveColumn(d, i, delta))}
                    onWidth={(width) => change((d) => setColumnWidth(d, i, width))}
                    onExported={(exported) => change((d) => setColumnExported(d, i, exported))}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <SaveBar dirty={dirty} busy={busy} onSave={() => void save()} onReset={reset} inDraft={inDraft(doc.layerPath)} onForget={() => void forget()} changed={doc.changed} onFiles={() => setEdited(copyOf(doc.files))} />
        </>
      )}
    </div>
  );
}

function ColumnRow({ index, count, column, header, layerPath, onHidden, onMove, onWidth, onExported }: {
  index: number;
  count: number;
  column: any;
  header: string;
  layerPath: string;
  onHidden(hidden: boolean): void;
  onMove(delta: number): void;
  onWidth(width: number | null): void;
  onExported(exported: boolean): void;
}) {
  const { t } = useTranslation();
  const [widthText, setWidthText] = useState(column.width === undefined ? '' : String(column.width));
  const [seenWidth, setSeenWidth] = useState(column.width);
  if (seenWidth !== column.width) {
    setSeenWidth(column.width);
    setWidthText(column.width === undefined ? '' : String(column.width));
  }
  const rowPointer = pointer('columns', index);
  const rowProblems = useFieldProblems(layerPath, rowPointer, true);
  const widthProblems = useFieldProblems(layerPath, `${rowPointer}/width`);
  const shownId = `studio-col-${column.id}-shown`;
  const widthId = `studio-col-${column.id}-width`;
  const exportedId = `studio-col-${column.id}-exported`;
  const exported = column.exported !== false;
  const exportedProblems = useFieldProblems(layerPath, `${rowPointer}/exported`);
  const widthValue = wholeNumber(widthText);
  // a number the checks refuse (below 30) is sent all the same: the server's message is shown here
  const widthBad = Number.isNaN(widthValue);
  return (
    <tr data-column={column.id} className={rowProblems.invalid ? 'table-danger' : undefined}>
      <td className="studio-order" data-label={t('config-studio:tables.order')}>
        <span className="studio-order-number">{index + 1}</span>
        <Button variant="outline-secondary" size="sm" disabled={index === 0} onClick={() => onMove(-1)} aria-label={t('config-studio:moveUp', { name: header })}>
          <i className="bi bi-arrow-up" aria-hidden="true" />
        </Button>
        <Button variant="outline-secondary" size="sm" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={t('config-studio:moveDown', { name: header })}>
          <i className="bi bi-arrow-down" aria-hidden="true" />
        </Button>
      </td>
      <th scope="row" className="studio-column-name">
        {header} <code>{column.id}</code>
        <FieldProblems problems={rowProblems.list.filter((p) => !widthProblems.list.includes(p) && !exportedProblems.list.includes(p))} />
      </th>
      <td data-label={t('config-studio:tables.shown')}>
        <div className="form-check">
          <input id={shownId} className="form-check-input" type="checkbox" checked={!column.hide} onChange={(e) => onHidden(!e.target.checked)} aria-label={t('config-studio:tables.shownOf', { name: header })} />
          <span className="form-check-label" aria-hidden="true">
            {column.hide ? t('config-studio:no') : t('config-studio:yes')}
          </span>
        </div>
      </td>
      <td data-label={t('config-studio:tables.width')}>
        <label htmlFor={widthId} className="visually-hidden">
          {t('config-studio:tables.widthOf', { name: header })}
        </label>
        <input
          id={widthId}
          className={`form-control form-control-sm studio-width${widthBad || widthProblems.invalid ? ' is-invalid' : ''}`}
          inputMode="numeric"
          value={widthText}
          placeholder={t('config-studio:tables.auto')}
          aria-invalid={widthBad || widthProblems.invalid || undefined}
          aria-describedby={widthBad ? `${widthId}-local` : widthProblems.id}
          onChange={(e) => {
            setWidthText(e.target.value);
            const n = wholeNumber(e.target.value);
            if (!Number.isNaN(n)) onWidth(n);
          }}
        />
        {widthBad && (
          <div id={`${widthId}-local`} className="studio-field-problem">
            {t('config-studio:tables.widthRule')}
          </div>
        )}
        <FieldProblems problems={widthProblems.list} id={widthProblems.id} />
      </td>
      <td className="studio-export" data-label={t('config-studio:tables.exported')}>
        <div className="form-check">
          <input
            id={exportedId}
            className="form-check-input"
            type="checkbox"
            checked={exported}
            onChange={(e) => onExported(e.target.checked)}
            aria-label={t('config-studio:tables.exportedOf', { name: header })}
            aria-invalid={exportedProblems.invalid || undefined}
            aria-describedby={exportedProblems.id}
          />
          <span className="form-check-label" aria-hidden="true">
            {!exported ? t('config-studio:no') : column.hide ? t('config-studio:tables.exportedWhenShown') : t('config-studio:yes')}
          </span>
        </div>
        <FieldProblems problems={exportedProblems.list} id={exportedProblems.id} />
      </td>
    </tr>
  );
}
