import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import type { ConditionContext } from '../../core/conditions';
import { sessionAtom } from '../state/session';
import { useConfig } from './ConfigContext';
import { conditionContext } from './context';

/** The condition context of the signed-in user, optionally about one record. */
export function useConditionContext(record: Record<string, unknown> | null = null): ConditionContext {
  const { bundle } = useConfig();
  const session = useAtomValue(sessionAtom);
  return useMemo(() => conditionContext(bundle, session, record), [bundle, session, record]);
}
