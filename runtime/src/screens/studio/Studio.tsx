/**
 * The `studio` screen type (Konfiguracja portalu, issue 26; schemas/meta/studio.schema.json):
 * the scope chooser (the base portal or one variant), the draft's status with Podgląd, Opublikuj
 * and Odrzuć wersję roboczą, the problems of the last refused change, the broken entries of the
 * layer, and the declared tabs, each loaded when first opened (tabs/*). Every text is a key of
 * locales/pl/config-studio.json; what is configurable is the screen file, not this code.
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import Nav from 'react-bootstrap/Nav';
import Tab from 'react-bootstrap/Tab';
import { useTranslation } from '../../config/texts';
import type { ScreenProps } from '../types';
import { DraftStatus } from './DraftStatus';
import { Spinner, LoadFailure } from './parts';
import { ProblemList, BrokenList, ConflictPanel } from './ProblemList';
import { StudioProvider, useStudio, type StudioDecl } from './StudioContext';
import './studio.css';

type TabKind = StudioDecl['tabs'][number]['kind'];

const TABS: Record<TabKind, LazyExoticComponent<ComponentType>> = {
  texts: lazy(() => import('./tabs/TextsTab')),
  tables: lazy(() => import('./tabs/TablesTab')),
  forms: lazy(() => import('./tabs/FormsTab')),
  menu: lazy(() => import('./tabs/MenuTab')),
  reminders: lazy(() => import('./tabs/RemindersTab')),
  reports: lazy(() => import('./tabs/ReportsTab')),
  json: lazy(() => import('./tabs/JsonTab')),
  versions: lazy(() => import('./tabs/VersionsTab')),
  preview: lazy(() => import('./tabs/PreviewTab')),
};

// ScreenProps<any>: the runtime's union of renderable screens (config/bundle.ts) does not list this type's file
export default function Studio({ screen, screenId, presentation }: ScreenProps<any>) {
  return (
    <StudioProvider screen={screen as StudioDecl} screenId={screenId}>
      <StudioPage heading={presentation !== 'modal'} />
    </StudioProvider>
  );
}

function ScopeChooser() {
  const { t } = useTranslation();
  const { overview, scope, setScope, scopeLabel } = useStudio();
  const scopes = overview?.scopes ?? ['base'];
  return (
    <div className="studio-scope">
      <label htmlFor="studio-scope" className="form-label mb-0">
        {t('config-studio:scope.label')}
      </label>
      <select id="studio-scope" className="form-select" value={scope} onChange={(e) => setScope(e.target.value)}>
        {scopes.map((s) => (
          <option key={s} value={s}>
            {scopeLabel(s)}
          </option>
        ))}
      </select>
    </div>
  );
}

function StudioPage({ heading }: { heading: boolean }) {
  const { t } = useTranslation();
  const { screen, screenId, overview, overviewError, tab, setTab } = useStudio();
  return (
    <div className="studio" data-screen={screenId}>
      {heading && <h1 className="page-title">{t(screen.title)}</h1>}
      {screen.intro && <p className="studio-intro">{t(screen.intro)}</p>}
      {!overview && !overviewError && <Spinner />}
      {!overview && overviewError ? <LoadFailure error={overviewError} /> : null}
      {overview && (
        <>
          <div className="studio-top">
            <ScopeChooser />
            <DraftStatus />
          </div>
          <ConflictPanel />
          <ProblemList />
          <BrokenList />
          <Tab.Container activeKey={tab} onSelect={(key) => key && setTab(key)} mountOnEnter id="studio-tabs">
            <Nav variant="tabs" className="studio-tabs" as="ul" role="tablist">
              {screen.tabs.map((tb) => (
                <Nav.Item key={tb.id} as="li" role="presentation">
                  <Nav.Link eventKey={tb.id} as="button" type="button" data-tab={tb.id}>
                    {t(tb.label)}
                  </Nav.Link>
                </Nav.Item>
              ))}
            </Nav>
            <Tab.Content className="studio-tab-content">
              {screen.tabs.map((tb) => {
                const Component = TABS[tb.kind];
                return (
                  <Tab.Pane key={tb.id} eventKey={tb.id}>
                    <Suspense fallback={<Spinner />}>
                      <Component />
                    </Suspense>
                  </Tab.Pane>
                );
              })}
            </Tab.Content>
          </Tab.Container>
        </>
      )}
    </div>
  );
}
