/**
 * A password input with the strength meter of spec §5: 'Za krótkie' below the minimum length,
 * then Słabe / Średnie / Dobre / Silne / Bardzo dobre by the estimator's score; the bar turns
 * green from the accepted score. The policy and score come through the form's context.
 */
import { getTemplate, type WidgetProps } from '@rjsf/utils';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { useTranslation } from '../config/texts';
import { MIN_ACCEPTED_SCORE, strengthLabelKey, type PasswordPolicy } from '../../core/password-rules';
import type { ScoreFn } from './password-checks';

export interface PasswordFormContext {
  policy: PasswordPolicy;
  score: ScoreFn | null;
  userInputs: string[];
}

const VARIANTS = ['danger', 'danger', 'warning', 'success', 'success'];

export function NewPasswordWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  const context = props.registry.formContext as PasswordFormContext | undefined;
  const value = typeof props.value === 'string' ? props.value : '';
  const policy = context?.policy;
  const score = value && policy && context?.score ? context.score(value, context.userInputs) : null;
  const tooShort = policy ? [...value].length < policy.passwordMinLenght : false;
  const meterId = `${props.id}-strength`;
  return (
    <>
      <BaseInputTemplate {...props} type="password" aria-describedby={value ? meterId : undefined} />
      {value && policy && (tooShort || score !== null) && (
        <div className="password-strength mt-2" id={meterId} data-testid="password-strength" aria-live="polite">
          <ProgressBar
            now={tooShort ? 10 : ((score ?? 0) + 1) * 20}
            variant={tooShort ? 'danger' : VARIANTS[score ?? 0]}
            style={{ height: 6 }}
            aria-hidden="true"
          />
          <small className={`d-block mt-1 ${!tooShort && (score ?? 0) >= MIN_ACCEPTED_SCORE ? 'text-success' : 'text-danger'}`}>
            {t('password:strength.label')}: <strong>{t(strengthLabelKey(value, score ?? 0, policy))}</strong>
          </small>
        </div>
      )}
    </>
  );
}
