/**
 * The fixed texts of the `security` screen type (issue 36): keys inside the namespace the screen
 * file names (`texts`, locales/pl/security.json). The component (runtime/src/screens/security/)
 * reads them; the cross-check (screen-checks/security.ts) requires each one. Core code: the
 * server's cross-check imports it.
 */
export const TEXT_KEYS = [
  'totp.title', 'totp.on', 'totp.off', 'totp.enable', 'totp.scan', 'totp.secretLabel', 'totp.qrAlt', 'totp.confirmCode', 'totp.confirm',
  'totp.cancel', 'totp.disable', 'totp.disableTitle', 'totp.disableIntro', 'totp.password', 'totp.enabled', 'totp.disabled',
  'totp.recoveryLeft', 'totp.regenerate', 'totp.regenerateTitle', 'totp.regenerateIntro', 'totp.openApp', 'totp.openAppHelp',
  'recovery.title', 'recovery.intro',
  'passkeys.title', 'passkeys.intro', 'passkeys.none', 'passkeys.add', 'passkeys.name', 'passkeys.defaultName', 'passkeys.save',
  'passkeys.rename', 'passkeys.remove', 'passkeys.removeConfirm', 'passkeys.added', 'passkeys.removed', 'passkeys.createdAt',
  'passkeys.lastUsedAt', 'passkeys.never', 'passkeys.unsupported', 'passkeys.cancelled', 'passkeys.browserStopped', 'passkeys.alreadyAdded', 'passkeys.notSupported',
  'sessions.title', 'sessions.device', 'sessions.browser', 'sessions.address', 'sessions.createdAt', 'sessions.lastSeenAt',
  'sessions.current', 'sessions.signOut', 'sessions.signOutEverywhereElse', 'sessions.ended', 'sessions.endedOthers',
  'enrolment.signOut',
  'admin.sessions', 'admin.none', 'admin.reset', 'admin.resetConfirm', 'admin.resetDone',
  'admin.lockouts', 'admin.lockoutsNone', 'admin.lockoutsIntro', 'admin.lockoutAddress', 'admin.lockoutUntil', 'admin.unlock', 'admin.unlockDone',
] as const;

export type TextKey = (typeof TEXT_KEYS)[number];

export const textKey = (namespace: string, key: TextKey) => `${namespace}:${key}`;
