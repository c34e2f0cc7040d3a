/**
 * The `details-dialog` screen type: a large modal about one record, loaded from `load.endpoint`
 * (or, without one, the row it was opened with), with tabs of read-only sections or an embedded
 * table (given the record's `srcField` as srcId), and footer actions that open a dialog about the
 * record (a handover form). Tabs, sections and actions follow their conditions with
 * context.record = the record shown.
 */
import { useId, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useTranslation } from 'react-i18next';
import type { ConditionContext } from '../../../core/conditions';
import { runAction, type DialogOpening } from '../../actions/run-action';
import { errorText } from '../../api/client';
import { useConfig } from '../../config/ConfigContext';
import type { DetailsDialogDecl, TabDecl } from '../../config/bundle';
import { useConditionContext } from '../../config/useConditionContext';
import { allFieldsEmpty, FieldGrid } from '../FieldGrid';
import { Loading } from '../Loading';
import { ScreenView } from '../ScreenView';
import type { ScreenProps } from '../types';
import { useRecord, type RecordState } from '../useRecord';

/** The loaded record, or the row given when the screen declares no load endpoint. */
function useShownRecord(screen: DetailsDialogDecl, params: Record<string, unknown> | undefined, row: Record<string, unknown> | undefined): RecordState {
  const loaded = useRecord(screen.load?.endpoint ?? null, params);
  if (screen.load) return loaded;
  return row ? { status: 'loaded', record: row } : { status: 'failed', error: null };
}

function TabBody({ tab, record, entity, ctx }: { tab: TabDecl; record: Record<string, unknown>; entity: string; ctx: ConditionContext }) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  // a tab may show the record's own fields and, below them, the table of its children (e.g. all fuel cards of the car)
  const table = tab.table && <ScreenView screenId={tab.table.screen} presentation="embedded" srcId={record[tab.table.srcField]} />;
  if (!tab.sections) return table;
  const sections = tab.sections.filter((section) => conditions.isVisible(section, ctx));
  // empty fields above a table: the table alone says what there is (one empty state, not two)
  if (table && sections.every((s) => allFieldsEmpty(s.fields.filter((f) => conditions.isVisible(f, ctx)), record))) return table;
  return (
    <>
      {sections.map((section) => (
          <section key={section.id} className="details-section" aria-label={section.label ? t(section.label) : undefined}>
            {section.label && <h3 className="details-section-title">{t(section.label)}</h3>}
            <FieldGrid fields={section.fields} record={record} entity={entity} ctx={ctx} />
          </section>
        ))}
      {table}
    </>
  );
}

export default function DetailsDialog({ screen, screenId, params, opening, onClose, onChanged }: ScreenProps<DetailsDialogDecl>) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  const titleId = useId();
  const state = useShownRecord(screen, params, opening?.record);
  const [dialog, setDialog] = useState<{ screen: string; id: unknown; opening?: DialogOpening } | null>(null);
  const record = state.status === 'loaded' ? state.record : null;
  const ctx = useConditionContext(record);

  const tabs = useMemo(
    () => (record ? screen.tabs.filter((tab) => conditions.isVisible(tab, ctx)).map((tab) => ({ tab, disabled: conditions.isDisabled(tab, ctx) })) : []),
    [record, screen.tabs, conditions, ctx],
  );
  const firstEnabled = tabs.find((x) => !x.disabled)?.tab.id;
  const title = screen.title ? t(screen.title, { title: record && screen.titleField ? String(record[screen.titleField] ?? '') : '' }) : '';
  const close = () => onClose?.();
  const actions = record ? (screen.actions ?? []).filter((a) => conditions.isVisible(a, ctx)) : [];
  const open = (action: (typeof actions)[number]) =>
    runAction(action, record, { navigate: () => undefined, openDialog: (id, recordId, how) => setDialog({ screen: id, id: recordId, opening: how }) });
  /** A change saved in a dialog opened from here: the opener reloads; a loaded record reloads itself, a row shown as given is stale, so this dialog closes. */
  const changed = () => {
    onChanged?.();
    if (!screen.load) close();
  };

  return (
    <Modal show onHide={close} size="xl" scrollable aria-labelledby={titleId} data-screen={screenId} className="details-dialog">
      <Modal.Header closeButton closeLabel={t('app:close')}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {record ? title : t('app:loading')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {state.status === 'loading' && <Loading />}
        {state.status === 'failed' && <Alert variant="danger">{errorText(state.error, t('errors:notFound'))}</Alert>}
        {record && (
          <Tabs id={`${screenId}-tabs`} defaultActiveKey={firstEnabled} mountOnEnter className="mb-3">
            {tabs.map(({ tab, disabled }) => (
              <Tab key={tab.id} eventKey={tab.id} title={t(tab.label)} disabled={disabled}>
                <TabBody tab={tab} record={record} entity={screen.entity} ctx={ctx} />
              </Tab>
            ))}
          </Tabs>
        )}
      </Modal.Body>
      <Modal.Footer>
        {actions.map((action) => (
          <Button key={action.id} variant="outline-primary" onClick={() => open(action)} data-action={action.id}>
            {action.icon && <i className={`bi bi-${action.icon} me-2`} aria-hidden="true" />}
            {t(action.label)}
          </Button>
        ))}
        <Button variant="secondary" onClick={close}>
          {t('app:close')}
        </Button>
      </Modal.Footer>
      {dialog && (
        <ScreenView
          screenId={dialog.screen}
          presentation="dialog"
          params={{ id: dialog.id }}
          opening={dialog.opening}
          onClose={() => setDialog(null)}
          onChanged={changed}
        />
      )}
    </Modal>
  );
}
