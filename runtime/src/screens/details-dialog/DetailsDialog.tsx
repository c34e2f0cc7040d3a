/**
 * The `details-dialog` screen type: a large modal about one record, loaded from `load.endpoint`,
 * with tabs of read-only sections or an embedded table (given the record's `srcField` as srcId).
 * Tabs and sections follow their conditions with context.record = the loaded record.
 */
import { useId, useMemo } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useTranslation } from 'react-i18next';
import type { ConditionContext } from '../../../core/conditions';
import { errorText } from '../../api/client';
import { useConfig } from '../../config/ConfigContext';
import type { DetailsDialogDecl, TabDecl } from '../../config/bundle';
import { useConditionContext } from '../../config/useConditionContext';
import { allFieldsEmpty, FieldGrid } from '../FieldGrid';
import { Loading } from '../Loading';
import { ScreenView } from '../ScreenView';
import type { ScreenProps } from '../types';
import { useRecord } from '../useRecord';

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

export default function DetailsDialog({ screen, screenId, params, onClose }: ScreenProps<DetailsDialogDecl>) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  const titleId = useId();
  const state = useRecord(screen.load.endpoint, params);
  const record = state.status === 'loaded' ? state.record : null;
  const ctx = useConditionContext(record);

  const tabs = useMemo(
    () => (record ? screen.tabs.filter((tab) => conditions.isVisible(tab, ctx)).map((tab) => ({ tab, disabled: conditions.isDisabled(tab, ctx) })) : []),
    [record, screen.tabs, conditions, ctx],
  );
  const firstEnabled = tabs.find((x) => !x.disabled)?.tab.id;
  const title = screen.title ? t(screen.title, { title: record && screen.titleField ? String(record[screen.titleField] ?? '') : '' }) : '';
  const close = () => onClose?.();

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
        <Button variant="secondary" onClick={close}>
          {t('app:close')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
