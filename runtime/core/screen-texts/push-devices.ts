/**
 * The fixed texts of the `push-devices` screen type (issue 47): keys inside the namespace the
 * screen file names (`texts`, locales/pl/push.json). The cross-check (check.ts) requires each one.
 * No React here: the server's cross-check imports it.
 */
export const TEXT_KEYS = [
  'devices.enable', 'devices.enabling', 'devices.listTitle', 'devices.empty', 'devices.thisDevice', 'devices.unknownDevice',
  'devices.added', 'devices.lastSuccess', 'devices.lastFailure', 'devices.test', 'devices.remove', 'devices.confirmRemove', 'devices.loadFailed',
  'devices.states.unsupported', 'devices.states.denied', 'devices.states.noWorker', 'devices.states.enabled', 'devices.states.dismissed', 'devices.states.failed',
] as const;

export type TextKey = (typeof TEXT_KEYS)[number];

export const textKey = (namespace: string, key: TextKey) => `${namespace}:${key}`;
