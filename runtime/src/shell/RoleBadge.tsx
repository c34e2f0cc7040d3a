import { useTranslation } from '../config/texts';
import type { Session } from '../config/bundle';
import { formatSettings } from '../format-settings';

/** The display name is last name then first name (spec §3); the login when neither is known. */
export function displayName(user: Session['user']): string {
  const name = [user.lastName, user.firstName].filter(Boolean).join(' ');
  return name || user.login;
}

/**
 * The person's initials (first name, then last name: "PZ" for Piotr Zieliński), else the first
 * letter of the login: on a phone the circle is all the header shows of who is signed in
 * (issue 49), so it names the person, not the role.
 */
export function initials(user: Pick<Session['user'], 'firstName' | 'lastName' | 'login'>): string {
  const first = (word: unknown) => (typeof word === 'string' ? word.trim().charAt(0) : '');
  const letters = `${first(user.firstName)}${first(user.lastName)}`;
  return (letters || first(user.login)).toLocaleUpperCase(formatSettings().locale);
}

/** Display name, username (login) and role label, with the person's initials in the role's colour (spec §2 "role badge"). */
export function RoleBadge({ user, role }: { user: Session['user']; role: string }) {
  const { t } = useTranslation();
  return (
    <div className="role-badge" data-testid="role-badge" data-role={role} title={`${displayName(user)} · ${t(`app:roles.${role}`)}`}>
      <span className={`role-icon role-icon--${role.toLowerCase()}`} aria-hidden="true" data-testid="role-initials">
        {initials(user)}
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
