import { useMemo } from 'react';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { useTranslation } from '../config/texts';
import { NavLink } from 'react-router';
import { useConfig } from '../config/ConfigContext';
import type { MenuDecl } from '../config/bundle';
import { useConditionContext } from '../config/useConditionContext';
import { useLinkState } from '../routing/useNavigateTo';
import { visibleMenu, type VisibleMenuGroup } from './menu';

function MenuGroups({ groups, onNavigate }: { groups: VisibleMenuGroup[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const linkState = useLinkState();
  return (
    <>
      {groups.map((group) => (
        <div className="menu-group" key={group.id} data-group={group.id}>
          <h2 className="menu-group-label" id={`menu-group-${group.id}`}>
            {t(group.labelKey)}
          </h2>
          <ul className="nav flex-column" aria-labelledby={`menu-group-${group.id}`}>
            {group.items.map((item) => (
              <li className="nav-item" key={item.id}>
                <NavLink
                  to={item.route}
                  state={linkState(item.route)}
                  className={({ isActive }) => `nav-link menu-link${isActive ? ' active' : ''}`}
                  onClick={onNavigate}
                  data-item={item.id}
                >
                  {item.icon && <i className={`bi bi-${item.icon}`} aria-hidden="true" />}
                  <span>{t(item.labelKey)}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

interface SideMenuProps {
  wide: boolean;
  open: boolean;
  onClose: () => void;
}

/**
 * The side menu of screens/menu.json: a fixed column on wide windows, an offcanvas below the
 * breakpoint. Entries the context does not allow are not rendered (the server still enforces access).
 */
export function SideMenu({ wide, open, onClose }: SideMenuProps) {
  const { t } = useTranslation();
  const { bundle, conditions } = useConfig();
  const ctx = useConditionContext();
  const menu = bundle.screens.menu as MenuDecl;
  const groups = useMemo(() => visibleMenu(menu, conditions, ctx), [menu, conditions, ctx]);

  if (wide) {
    if (!open) return null;
    return (
      <nav id="side-menu" className="side-menu" aria-label={t('app:menu.navigation')}>
        <MenuGroups groups={groups} />
      </nav>
    );
  }
  return (
    <Offcanvas id="side-menu" show={open} onHide={onClose} placement="start" aria-labelledby="side-menu-title" className="side-menu-offcanvas">
      <Offcanvas.Header closeButton closeLabel={t('app:close')}>
        <Offcanvas.Title id="side-menu-title" as="h2" className="h6 mb-0">
          {t('app:menu.navigation')}
        </Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body className="p-0">
        <nav className="side-menu side-menu--offcanvas" aria-label={t('app:menu.navigation')}>
          <MenuGroups groups={groups} onNavigate={onClose} />
        </nav>
      </Offcanvas.Body>
    </Offcanvas>
  );
}
