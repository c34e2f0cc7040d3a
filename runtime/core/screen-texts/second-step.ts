/** The fixed texts of the sign-in's second step (issue 36): `<texts>.<key>` (texts: security:secondStep). Read by runtime/src/screens/login/SecondStep.tsx and required by screen-checks/login.ts. */
export const SECOND_STEP_KEYS = [
  'totpIntro', 'code', 'recoveryIntro', 'recoveryCode', 'passkeyIntro', 'submit', 'useRecoveryCode', 'useTotp', 'usePasskey', 'passkeyButton', 'back',
] as const;
export type SecondStepKey = (typeof SECOND_STEP_KEYS)[number];
