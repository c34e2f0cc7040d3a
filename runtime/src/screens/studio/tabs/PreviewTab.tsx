/**
 * Podgląd: a route of the portal rendered with the draft, as a chosen role and variant, before
 * anything is published: the route opened in a frame with
 * `?studioPreview=draft&studioVariant=<variant>&studioRole=<ROLE>` (the runtime's preview mode,
 * runtime/src/config/preview.ts). "Odśwież podgląd" reads the draft again after a change.
 */
import { useEffect, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../../config/texts';
import { menuRoutes } from '../edits';
import { Spinner, TabHeading } from '../parts';
import { useStudio, useStudioDocument } from '../StudioContext';


/** The variant the preview asks for: the base portal is the default variant. */
export const previewVariant = (scope: string) => (scope === 'base' ? 'default' : scope);

/** The address the frame opens (the variant's name travels with it, for the frame's banner). */
export function previewUrl(path: string, scope: string, role: string, variantName?: string): string {
  const query = new URLSearchParams({ studioPreview: 'draft', studioVariant: previewVariant(scope), studioRole: role });
  if (variantName) query.set('studioVariantName', variantName);
  return `${path}${path.includes('?') ? '&' : '?'}${query.toString()}`;
}

export default function PreviewTab() {
  const { t } = useTranslation();
  const { screen, overview, scope, scopeLabel, revision } = useStudio();
  const routesDoc = useStudioDocument(screen.documents?.routes ?? 'screens/routes.json');
  const routes = useMemo(() => menuRoutes(routesDoc.doc?.effective), [routesDoc.doc]);
  const roles = screen.roles;
  // the first role the studio declares is the one a preview starts as (screens/config-studio.json)
  const [role, setRole] = useState<string>(roles[0]);
  // the preview starts in the scope being edited, and follows it when it changes
  const [variant, setVariant] = useState(scope);
  useEffect(() => setVariant(scope), [scope]);
  const [route, setRoute] = useState('');
  const [shown, setShown] = useState<{ url: string; title: string; heading: string } | null>(null);
  const [reloads, setReloads] = useState(0);
  const roleLabel = (r: string) => t(`${screen.roleLabels}.${r}`);
  const path = route || routes[0]?.path || '';

  const show = () => {
    if (!path) return;
    const title = routes.find((r) => r.path === path)?.title;
    const names = { path, screen: title ? t(title) : path, role: roleLabel(role), variant: scopeLabel(variant) };
    setShown({
      url: previewUrl(path, variant, role, variant === 'base' ? undefined : scopeLabel(variant)),
      title: t('config-studio:preview.frameTitle', names),
      heading: t('config-studio:preview.heading', names),
    });
    setReloads((n) => n + 1);
  };

  return (
    <div className="studio-preview">
      <TabHeading>{t('config-studio:preview.title')}</TabHeading>
      <p className="studio-note">{t('config-studio:preview.intro')}</p>
      {!routesDoc.doc && <Spinner />}
      <form
        className="studio-preview-choice"
        onSubmit={(e) => {
          e.preventDefault();
          show();
        }}
      >
        <div>
          <label htmlFor="studio-preview-role" className="form-label">
            {t('config-studio:preview.role')}
          </label>
          <select id="studio-preview-role" className="form-select" value={role} onChange={(e) => setRole(e.target.value)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {roleLabel(r)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="studio-preview-variant" className="form-label">
            {t('config-studio:preview.variant')}
          </label>
          <select id="studio-preview-variant" className="form-select" value={variant} onChange={(e) => setVariant(e.target.value)}>
            {(overview?.scopes ?? ['base']).map((s) => (
              <option key={s} value={s}>
                {scopeLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="studio-preview-route">
          <label htmlFor="studio-preview-route" className="form-label">
            {t('config-studio:preview.route')}
          </label>
          <select id="studio-preview-route" className="form-select" value={path} onChange={(e) => setRoute(e.target.value)}>
            {routes.map((r) => (
              <option key={r.path} value={r.path}>
                {r.title ? `${t(r.title)} (${r.path})` : r.path}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" disabled={!path}>
          <i className="bi bi-eye me-1" aria-hidden="true" />
          {shown ? t('config-studio:preview.refresh') : t('config-studio:preview.show')}
        </Button>
      </form>
      {shown && (
        <h3 className="h6 studio-preview-heading" data-testid="preview-heading">
          <i className="bi bi-person-badge me-1" aria-hidden="true" />
          {shown.heading}
        </h3>
      )}
      {shown && (
        <iframe
          key={`${shown.url}-${reloads}-${revision}`}
          className="studio-preview-frame"
          src={shown.url}
          title={shown.title}
          data-testid="preview-frame"
        />
      )}
    </div>
  );
}
