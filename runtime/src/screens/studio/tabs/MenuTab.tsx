/**
 * Menu: the groups' entries in order, each hidden for chosen roles (hiddenWhen) and moved up or
 * down; a new entry opens an existing route (screens/routes.json), with an icon and its label
 * written under custom:menu.<id> (the studio's namespace). The menu and the texts are saved in one
 * PUT /documents, checked together (an entry to an unknown route, a label without its text).
 */
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../../config/texts';
import { menuGroupKey, menuItemKey } from '../../../../core/labels';
import { addMenuEntry, copyOf, menuIds, menuRoutes, moveMenuEntry, removeMenuEntry } from '../edits';
import { setText, textIn } from '../form-model';
import { applyHidden, readHidden } from '../hidden-when';
import { FieldProblems, HiddenChooser, LoadFailure, SaveBar, Spinner, TabHeading, useFieldProblems } from '../parts';
import { pointer } from '../pointers';
import type { DocumentChange } from '../studio-api';
import { useInDraft, useStudio, useStudioDocument } from '../StudioContext';
import { useEdited } from '../useEdited';

const ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** The texts of the studio's namespace while no such file exists yet. */
const NO_TEXTS = {};

export default function MenuTab() {
  const { t } = useTranslation();
  const { screen, scope, api, write, overview } = useStudio();
  const menuPath = screen.documents?.menu ?? 'screens/menu.json';
  const routesPath = screen.documents?.routes ?? 'screens/routes.json';
  const customNs = screen.customNamespace ?? 'custom';
  const customPath = `locales/pl/${customNs}.json`;
  const hasCustom = Boolean(overview?.documents.some((d) => d.path === customPath));
  const menuDoc = useStudioDocument(menuPath);
  const routesDoc = useStudioDocument(routesPath);
  const customDoc = useStudioDocument(hasCustom ? customPath : null);
  const menu = useEdited<any>(menuDoc.doc?.effective);
  const custom = useEdited<any>(customDoc.doc?.effective ?? (hasCustom ? undefined : NO_TEXTS));
  const [busy, setBusy] = useState(false);
  const inDraft = useInDraft();
  const roles = screen.roles;
  const routes = useMemo(() => menuRoutes(routesDoc.doc?.effective), [routesDoc.doc]);

  const textOf = (key: string) => (key.startsWith(`${customNs}:`) ? textIn(custom.edited, key) ?? key : t(key, { defaultValue: key }));

  const save = async () => {
    if (!menuDoc.doc || !menu.edited) return;
    const changes: DocumentChange[] = [];
    if (custom.dirty) changes.push({ scope, path: customPath, document: custom.edited });
    if (menu.dirty) changes.push({ scope, path: menuDoc.doc.path, document: menu.edited });
    if (!changes.length) return;
    setBusy(true);
    await write(() => api.saveDocuments(changes), t('config-studio:saved'));
    setBusy(false);
  };
  const reset = () => {
    menu.reset();
    custom.reset();
  };
  const forget = async () => {
    if (!menuDoc.doc) return;
    setBusy(true);
    await write(() => api.forgetDocument(scope, menuDoc.doc!.path), t('config-studio:forgotten'));
    setBusy(false);
  };

  if (menuDoc.error) return <LoadFailure error={menuDoc.error} />;
  if (!menuDoc.doc || !menu.edited) return <Spinner />;
  const layerPath = menuDoc.doc.layerPath;
  return (
    <div className="studio-menu">
      <TabHeading>{t('config-studio:menu.title')}</TabHeading>
      <p className="studio-note">{t('config-studio:menu.intro')}</p>
      {(menu.edited.groups ?? []).map((group: any, g: number) => (
        <section key={group.id} className="studio-menu-group" aria-labelledby={`studio-menu-group-${group.id}`} data-group={group.id}>
          <h3 id={`studio-menu-group-${group.id}`} className="h6">
            {textOf(group.label ?? menuGroupKey(group.id))} <code>{group.id}</code>
          </h3>
          <ul className="studio-menu-items">
            {(group.items ?? []).map((item: any, i: number) => (
              <MenuItemRow
                key={item.id}
                item={item}
                label={textOf(item.label ?? menuItemKey(item.id))}
                ptr={pointer('groups', g, 'items', i)}
                layerPath={layerPath}
                first={i === 0}
                last={i === group.items.length - 1}
                roles={roles}
                removable={Boolean(item.label?.startsWith(`${customNs}:`))}
                onMove={(delta) => menu.change((d) => moveMenuEntry(d, g, i, delta))}
                onHidden={(choice) => menu.change((d) => applyHidden(d.groups[g].items[i], choice, roles))}
                onRemove={() => menu.change((d) => removeMenuEntry(d, g, i))}
              />
            ))}
          </ul>
        </section>
      ))}
      <NewEntry
        groups={(menu.edited.groups ?? []).map((g: any) => ({ id: g.id, label: textOf(g.label ?? menuGroupKey(g.id)) }))}
        routes={routes.map((r) => ({ path: r.path, label: r.title ? `${t(r.title)} (${r.path})` : r.path }))}
        icons={screen.menuIcons ?? []}
        taken={menuIds(menu.edited)}
        onAdd={(entry) => {
          const key = `${customNs}:menu.${entry.id}`;
          custom.setEdited((c: any) => {
            const next = copyOf(c ?? {});
            setText(next, key, entry.text);
            return next;
          });
          menu.change((d) => addMenuEntry(d, { groupId: entry.groupId, id: entry.id, route: entry.route, icon: entry.icon || undefined, label: key }));
        }}
      />
      <SaveBar dirty={menu.dirty || custom.dirty} busy={busy} onSave={() => void save()} onReset={reset} inDraft={inDraft(layerPath)} onForget={() => void forget()} changed={menuDoc.doc.changed} onFiles={() => menu.setEdited(copyOf(menuDoc.doc!.files))} />
    </div>
  );
}

function MenuItemRow({ item, label, ptr, layerPath, first, last, roles, removable, onMove, onHidden, onRemove }: {
  item: any;
  label: string;
  ptr: string;
  layerPath: string;
  first: boolean;
  last: boolean;
  roles: readonly string[];
  removable: boolean;
  onMove(delta: number): void;
  onHidden(choice: ReturnType<typeof readHidden>): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const problems = useFieldProblems(layerPath, ptr, true);
  const hasVisible = item.visibleWhen !== undefined;
  return (
    <li className={`studio-menu-item${problems.invalid ? ' studio-invalid' : ''}`} data-item={item.id}>
      <div className="studio-menu-item-head">
        {item.icon && <i className={`bi bi-${item.icon}`} aria-hidden="true" />}
        <span className="fw-semibold">{label}</span>
        <code>{item.route}</code>
        <span className="studio-menu-item-tools">
          <Button variant="outline-secondary" size="sm" disabled={first} onClick={() => onMove(-1)} aria-label={t('config-studio:moveUp', { name: label })}>
            <i className="bi bi-arrow-up" aria-hidden="true" />
          </Button>
          <Button variant="outline-secondary" size="sm" disabled={last} onClick={() => onMove(1)} aria-label={t('config-studio:moveDown', { name: label })}>
            <i className="bi bi-arrow-down" aria-hidden="true" />
          </Button>
          {removable && (
            <Button variant="outline-danger" size="sm" onClick={onRemove} aria-label={t('config-studio:menu.remove', { name: label })}>
              <i className="bi bi-trash" aria-hidden="true" />
            </Button>
          )}
        </span>
      </div>
      <HiddenChooser legend={t('config-studio:menu.hideFor', { name: label })} idPrefix={`studio-menu-${item.id}`} choice={readHidden(item.hiddenWhen)} roles={roles} onChange={onHidden} />
      {hasVisible && <p className="studio-note mb-0">{t('config-studio:menu.visibleWhen')}</p>}
      <FieldProblems problems={problems.list} id={problems.id} />
    </li>
  );
}

interface Entry {
  groupId: string;
  id: string;
  text: string;
  route: string;
  icon: string;
}

function NewEntry({ groups, routes, icons, taken, onAdd }: {
  groups: { id: string; label: string }[];
  routes: { path: string; label: string }[];
  icons: string[];
  taken: Set<string>;
  onAdd(entry: Entry): void;
}) {
  const { t } = useTranslation();
  const [entry, setEntry] = useState<Entry>({ groupId: groups[0]?.id ?? '', id: '', text: '', route: '', icon: icons[0] ?? '' });
  const [tried, setTried] = useState(false);
  const idError = !ID_PATTERN.test(entry.id) ? t('config-studio:menu.idRule') : taken.has(entry.id) ? t('config-studio:menu.idTaken') : null;
  const textError = entry.text.trim() === '' ? t('config-studio:menu.textRequired') : null;
  const routeError = entry.route === '' ? t('config-studio:menu.routeRequired') : null;
  const set = (patch: Partial<Entry>) => setEntry((e) => ({ ...e, ...patch }));
  const shown = (error: string | null) => (tried ? error : null);
  const input = (id: string, error: string | null) => ({
    id,
    className: `form-control${shown(error) ? ' is-invalid' : ''}`,
    'aria-invalid': shown(error) ? true : undefined,
    'aria-describedby': shown(error) ? `${id}-error` : undefined,
  });
  const errorOf = (id: string, error: string | null) => shown(error) && <div id={`${id}-error`} className="invalid-feedback d-block">{error}</div>;
  return (
    <form
      className="studio-new-entry"
      aria-labelledby="studio-new-entry-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (idError || textError || routeError) return;
        onAdd({ ...entry, text: entry.text.trim() });
        setEntry({ ...entry, id: '', text: '', route: '' });
        setTried(false);
      }}
    >
      <h3 id="studio-new-entry-title" className="h6">
        {t('config-studio:menu.add')}
      </h3>
      <div className="studio-new-entry-fields">
        <div>
          <label htmlFor="studio-new-group" className="form-label">{t('config-studio:menu.group')}</label>
          <select id="studio-new-group" className="form-select" value={entry.groupId} onChange={(e) => set({ groupId: e.target.value })}>
            {groups.map((g) => (
              <option key={g.id} value={g.id}>{g.label}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="studio-new-id" className="form-label">{t('config-studio:menu.id')}</label>
          <input {...input('studio-new-id', idError)} value={entry.id} onChange={(e) => set({ id: e.target.value })} autoComplete="off" />
          {errorOf('studio-new-id', idError)}
        </div>
        <div>
          <label htmlFor="studio-new-text" className="form-label">{t('config-studio:menu.label')}</label>
          <input {...input('studio-new-text', textError)} value={entry.text} onChange={(e) => set({ text: e.target.value })} autoComplete="off" />
          {errorOf('studio-new-text', textError)}
        </div>
        <div>
          <label htmlFor="studio-new-route" className="form-label">{t('config-studio:menu.route')}</label>
          <select {...input('studio-new-route', routeError)} className={`form-select${shown(routeError) ? ' is-invalid' : ''}`} value={entry.route} onChange={(e) => set({ route: e.target.value })}>
            <option value="">{t('config-studio:choose')}</option>
            {routes.map((r) => (
              <option key={r.path} value={r.path}>{r.label}</option>
            ))}
          </select>
          {errorOf('studio-new-route', routeError)}
        </div>
        <div>
          <label htmlFor="studio-new-icon" className="form-label">{t('config-studio:menu.icon')}</label>
          <div className="studio-icon-choice">
            <select id="studio-new-icon" className="form-select" value={entry.icon} onChange={(e) => set({ icon: e.target.value })}>
              <option value="">{t('config-studio:menu.noIcon')}</option>
              {icons.map((icon) => (
                <option key={icon} value={icon}>{icon}</option>
              ))}
            </select>
            {entry.icon && <i className={`bi bi-${entry.icon}`} aria-hidden="true" />}
          </div>
        </div>
      </div>
      <Button type="submit" variant="outline-primary">
        <i className="bi bi-plus-lg me-1" aria-hidden="true" />
        {t('config-studio:menu.addButton')}
      </Button>
    </form>
  );
}
