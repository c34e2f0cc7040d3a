/**
 * The `details-dialog` screen type: a large modal about one record, loaded from `load.endpoint`
 * (optionally one member of a richer reply, `load.record`, with the reply's other members beside
 * it), with tabs of read-only sections, lists of the rows the record carries (RecordList) and an
 * embedded table (given the record's `srcField` as srcId). It opens on the tab its opener asks for
 * (`opening.tab`, e.g. a reminder's), else on the first. A tab may read a reply of its own when it is
 * opened (`load`: a record's history of changes), its lists then over that reply. Tabs, sections, lists and buttons follow
 * their conditions with context.record = the loaded record. Buttons run declared actions
 * (actions/run-action.ts): a call (Tak/Nie, toast) reloads the record and tells the opener
 * (`onChanged`, the tables reload); a dialog opened from here gets the record as its `parent`.
 */
import { useCallback, useId, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useTranslation } from '../../config/texts';
import type { ConditionContext } from '../../../core/conditions';
import { runAction, type ActionEffects, type DialogOpening } from '../../actions/run-action';
import { useCallEffects } from '../../actions/useCallEffects';
import { errorText } from '../../api/client';
import { useConfig } from '../../config/ConfigContext';
import type { DetailsDialogDecl, TabDecl } from '../../config/bundle';
import { useConditionContext } from '../../config/useConditionContext';
import { useNavigateTo } from '../../routing/useNavigateTo';
import { allFieldsEmpty, FieldGrid } from '../FieldGrid';
import { Loading } from '../Loading';
import { ScreenView } from '../ScreenView';
import type { ScreenProps } from '../types';
import { useRecord, type RecordState } from '../useRecord';
import { ActionButtons } from './ActionButtons';
import { buttonInstances, dialogRecord, namedRecord, titleValue, type ButtonInstance } from './record';
import { formatKindFor, formatValue, type Translate } from '../../format';
import type { FormatKind } from '../../../core/format-kind';
import { RecordList } from './RecordList';
import { recordNameOf } from '../../../core/record-name';
import { formatSettings } from '../../format-settings';

type Data = Record<string, unknown>;

function TabBody({ tab, record, entity, ctx, busy, onRun }: {
  tab: TabDecl;
  record: Data;
  entity: string;
  ctx: ConditionContext;
  busy: boolean;
  onRun: (b: ButtonInstance, parent?: Data) => void;
}) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  // a tab may show the record's own fields and, below them, the table of its children (e.g. all fuel cards of the car)
  const table = tab.table && <ScreenView screenId={tab.table.screen} presentation="embedded" srcId={record[tab.table.srcField]} />;
  const lists = (tab.lists ?? [])
    .filter((list) => conditions.isVisible(list, ctx))
    .map((list) => <RecordList key={list.id} list={list} record={record} ctx={ctx} busy={busy} onRun={onRun} />);
  if (!tab.sections) return <>{lists}{table}</>;
  const sections = tab.sections.filter((section) => conditions.isVisible(section, ctx));
  // empty fields above a table: the table alone says what there is (one empty state, not two)
  const fieldsEmpty = sections.every((s) => allFieldsEmpty(s.fields.filter((f) => conditions.isVisible(f, ctx)), record));
  if ((table || lists.length) && fieldsEmpty) return <>{lists}{table}</>;
  return (
    <>
      {sections.map((section) => (
          <section key={section.id} className="details-section" aria-label={section.label ? t(section.label) : undefined}>
            {section.label && <h3 className="details-section-title">{t(section.label)}</h3>}
            <FieldGrid fields={section.fields} record={record} entity={entity} ctx={ctx} />
          </section>
        ))}
      {lists}
      {table}
    </>
  );
}

/** A tab with a reply of its own (`load`, e.g. a record's history): read when the tab is first opened, its lists over that reply. */
function LoadedTabBody({ endpoint, ...props }: Parameters<typeof TabBody>[0] & { endpoint: string }) {
  const { t } = useTranslation();
  const state = useRecord(endpoint, props.record);
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'failed') return <Alert variant="danger">{errorText(state.error, t('errors:notFound'))}</Alert>;
  return <TabBody {...props} record={state.record} />;
}

/** The loaded record, or the row given when the screen declares no load endpoint (a table row that carries every field). */
function useShownRecord(screen: DetailsDialogDecl, params: Record<string, unknown> | undefined, row: Data | undefined, version: number): RecordState {
  const loaded = useRecord(screen.load?.endpoint ?? null, params, version);
  if (screen.load) return loaded;
  return row ? { status: 'loaded', record: row } : { status: 'failed', error: null };
}

/** The title's formatted fields (`titleValues`): each as the screens show it, an empty one as nothing. */
function titleValues(record: Data, fields: { id: string; format?: FormatKind; valueLabels?: string }[] | undefined, t: Translate): Record<string, string> {
  return Object.fromEntries((fields ?? []).map((f) => [f.id, formatValue(record[f.id], formatKindFor(undefined, f.format), t, '', f.valueLabels)]));
}

export default function DetailsDialog({ screen, screenId, params, opening, onClose, onChanged }: ScreenProps<DetailsDialogDecl>) {
  const { t } = useTranslation();
  const { conditions, bundle } = useConfig();
  const navigateTo = useNavigateTo();
  const titleId = useId();
  const [version, setVersion] = useState(0);
  const state = useShownRecord(screen, params, opening?.record, version);
  const record = useMemo(() => (state.status === 'loaded' ? dialogRecord(state.record, screen.load?.record) : null), [state, screen.load?.record]);
  const ctx = useConditionContext(record);
  // the tab asked for by the opener (a reminder opens the insurance tab); a hidden or disabled one falls back to the first
  const [activeTab, setActiveTab] = useState<string | null>(opening?.tab ?? null);
  const [dialog, setDialog] = useState<{ screen: string; id: unknown; opening?: DialogOpening } | null>(null);

  const close = useCallback(() => onClose?.(), [onClose]);
  const reload = useCallback(
    (what: string[]) => {
      if (what.includes('tables')) onChanged?.();
      // a loaded record is read again; a row shown as it was given is stale after a change: the dialog closes
      if (what.includes('dialog')) {
        if (screen.load) setVersion((v) => v + 1);
        else close();
      }
    },
    [onChanged, close, screen.load],
  );
  const calls = useCallEffects({ reload, close });

  const tabs = useMemo(
    () => (record ? screen.tabs.filter((tab) => conditions.isVisible(tab, ctx)).map((tab) => ({ tab, disabled: conditions.isDisabled(tab, ctx) })) : []),
    [record, screen.tabs, conditions, ctx],
  );
  const firstEnabled = tabs.find((x) => !x.disabled)?.tab.id;
  const shownTab = tabs.some((x) => x.tab.id === activeTab && !x.disabled) ? activeTab! : firstEnabled;
  // {{recordName}}: the record as users know it (its entity's x-recordName: an order by its number, else its day)
  const recordName = record ? recordNameOf(bundle.schemas[screen.entity] as never, record, t, formatSettings().timeZone, formatSettings().datePattern) : null;
  // the buttons' rows carry that name too, so a confirmation's facts name the record as the title does
  const footer = record ? buttonInstances(screen.actions, namedRecord(record, recordName), conditions, ctx) : [];
  const title = screen.title
    ? t(screen.title, {
      ...(record ?? {}),
      title: record ? titleValue(record, screen.titleField) : '',
      ...(recordName !== null ? { recordName } : {}),
      ...(record ? titleValues(record, screen.titleValues, t) : {}),
    })
    : '';

  /** Runs a button's action on its row; a dialog opened from here gets the dialog's record as its parent. */
  const run = (b: ButtonInstance, parent?: Data) => {
    const effects: ActionEffects = {
      navigate: navigateTo,
      openDialog: (dialogScreen, id, opening) => setDialog({ screen: dialogScreen, id, opening: { ...opening, parent: parent ?? record ?? undefined } }),
      matches: (condition, row) => conditions.matches(condition as never, { ...ctx, record: row ?? null }),
      call: calls.call,
    };
    calls.track(runAction(b.button.action, { ...b.row, actionLabel: t(b.label) }, effects));
  };

  return (
    <>
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
            <Tabs id={`${screenId}-tabs`} activeKey={shownTab} onSelect={(key) => setActiveTab(key)} mountOnEnter className="mb-3">
              {tabs.map(({ tab, disabled }) => (
                <Tab key={tab.id} eventKey={tab.id} title={t(tab.label)} disabled={disabled}>
                  {tab.load
                    ? <LoadedTabBody endpoint={tab.load.endpoint} tab={tab} record={record} entity={screen.entity} ctx={ctx} busy={calls.busy} onRun={run} />
                    : <TabBody tab={tab} record={record} entity={screen.entity} ctx={ctx} busy={calls.busy} onRun={run} />}
                </Tab>
              ))}
            </Tabs>
          )}
        </Modal.Body>
        <Modal.Footer>
          <ActionButtons buttons={footer} busy={calls.busy} onRun={(b) => run(b)} className="me-auto" />
          <Button variant="secondary" onClick={close}>
            {t('app:close')}
          </Button>
        </Modal.Footer>
      </Modal>
      {calls.confirmation}
      {dialog && (
        <ScreenView
          screenId={dialog.screen}
          presentation="dialog"
          params={{ id: dialog.id }}
          opening={dialog.opening}
          onClose={() => setDialog(null)}
          onChanged={() => reload(['dialog', 'tables'])}
        />
      )}
    </>
  );
}
