import { useTranslation } from 'react-i18next';
import type { Session } from '../config/bundle';

/** The display name is last name then first name (spec §3); the login when neither is known. */
export function displayName(user: Session['user']): string {
  const name = [user.lastName, user.firstName].filter(Boolean).join(' ');
  return name || user.login;
}

/** Display name, username (login) and role label, with the role's icon letter (spec §2 "role badge"). */
export function RoleBadge({ user }: { user: Session['user'] }) {
  const { t } = useTranslation();
  const role = user.rola;
  return (
    <div className="role-badge" data-testid="role-badge" data-role={role}>
      <span className={`role-icon role-icon--${role.toLowerCase()}`} aria-hidden="true">
        {t(`app:roleIcons.${role}`)}
      </span>
      <span className="role-text">
        <span className="role-name">{displayName(user)}</span>
        <span className="role-label">
          <span className="role-login">{user.login}</span> · {t(`app:roles.${role}`)}
        </span>
      </span>
    </div>
  );
}
