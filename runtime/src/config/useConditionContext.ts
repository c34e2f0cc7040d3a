import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import type { ConditionContext } from '../../core/conditions';
import { sessionAtom } from '../state/session';
import { useConfig } from './ConfigContext';
import { conditionContext } from './context';

/** The condition context of the signed-in user (as the role a studio preview shows), optionally about one record. */
export function useConditionContext(record: Record<string, unknown> | null = null): ConditionContext {
  const { bundle, preview } = useConfig();
  const session = useAtomValue(sessionAtom);
  const asRole = preview?.role;
  return useMemo(() => conditionContext(bundle, session, record, asRole), [bundle, session, record, asRole]);
}
