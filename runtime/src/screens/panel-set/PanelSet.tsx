/**
 * The `panel-set` screen type: one record (e.g. the session's vehicle) shown as cards — field
 * panels like a dialog's sections, and an actions panel whose buttons navigate or open a dialog
 * (a form-dialog in its mode starts from the record; a saved change reloads the record). A record
 * its address names (`?open=<id>`, a notification's link) opens in the declared details dialog over
 * the panels; closing it drops the name from the address.
 */
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from '../../config/texts';
import { useSearchParams } from 'react-router';
import type { ConditionContext } from '../../../core/conditions';
import { runAction, type DialogOpening } from '../../actions/run-action';
import { errorText } from '../../api/client';
import { useConfig } from '../../config/ConfigContext';
import type { PanelActionDecl, PanelSetDecl } from '../../config/bundle';
import { useConditionContext } from '../../config/useConditionContext';
import { OPEN_PARAM } from '../../routing/filter-param';
import { useNavigateTo } from '../../routing/useNavigateTo';
import { FieldGrid } from '../FieldGrid';
import { Loading } from '../Loading';
import { ScreenView } from '../ScreenView';
import type { ScreenProps } from '../types';
import { useRecord } from '../useRecord';

function ActionButtons({ actions, ctx, onAction }: { actions: PanelActionDecl[]; ctx: ConditionContext; onAction: (a: PanelActionDecl) => void }) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  return (
    <div className="d-flex flex-wrap gap-2">
      {actions
        .filter((action) => conditions.isVisible(action, ctx))
        .map((action) => (
          <Button
            key={action.id}
            variant="outline-primary"
            disabled={conditions.isDisabled(action, ctx)}
            onClick={() => onAction(action)}
            data-action={action.id}
          >
            {action.icon && <i className={`bi bi-${action.icon} me-2`} aria-hidden="true" />}
            {t(action.label)}
          </Button>
        ))}
    </div>
  );
}

export default function PanelSet({ screen, screenId, params }: ScreenProps<PanelSetDecl>) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  const navigateTo = useNavigateTo();
  const state = useRecord(screen.load.endpoint, params);
  const record = state.status === 'loaded' ? state.record : null;
  const ctx = useConditionContext(record);
  const [dialog, setDialog] = useState<{ screen: string; opening?: DialogOpening } | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const openId = screen.open ? searchParams.get(OPEN_PARAM) : null;
  const dropOpen = () =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      next.delete(OPEN_PARAM);
      return next;
    }, { replace: true });

  const onAction = (action: PanelActionDecl) =>
    runAction(action, record, { navigate: navigateTo, openDialog: (id, _recordId, opening) => setDialog({ screen: id, opening }) });

  return (
    <section className="panel-set" data-screen={screenId}>
      {screen.title && <h1 className="page-title">{t(screen.title)}</h1>}
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <Alert variant="warning">{errorText(state.error, t('errors:notFound'))}</Alert>}
      {record && (
        <Row xs={1} xl={2} className="g-3">
          {screen.panels
            .filter((panel) => conditions.isVisible(panel, ctx))
            .map((panel) => (
              <Col key={panel.id} className={panel.actions ? 'col-xl-12' : undefined}>
                <Card className="h-100 shadow-sm" as="section" aria-labelledby={`panel-${panel.id}`} data-panel={panel.id}>
                  <Card.Header as="h2" className="h6 mb-0" id={`panel-${panel.id}`}>
                    {t(panel.label)}
                  </Card.Header>
                  <Card.Body>
                    {panel.actions && <ActionButtons actions={panel.actions} ctx={ctx} onAction={onAction} />}
                    {panel.fields && <FieldGrid fields={panel.fields} record={record} entity={screen.entity} ctx={ctx} columns={{ sm: 2 }} />}
                  </Card.Body>
                </Card>
              </Col>
            ))}
        </Row>
      )}
      {dialog && record && <ScreenView screenId={dialog.screen} presentation="dialog" params={record} opening={dialog.opening} onClose={() => setDialog(null)} />}
      {screen.open && openId && !dialog && (
        <ScreenView screenId={screen.open.screen} presentation="dialog" params={{ id: openId }} onClose={dropOpen} />
      )}
    </section>
  );
}
