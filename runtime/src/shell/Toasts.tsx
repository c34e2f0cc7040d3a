import { useAtomValue } from 'jotai';
import checkCircleFill from 'bootstrap-icons/icons/check-circle-fill.svg?raw';
import exclamationTriangleFill from 'bootstrap-icons/icons/exclamation-triangle-fill.svg?raw';
import xOctagonFill from 'bootstrap-icons/icons/x-octagon-fill.svg?raw';
import CloseButton from 'react-bootstrap/CloseButton';
import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';
import { useTranslation } from '../config/texts';
import { dismissToast, toastsAtom, type ToastKind } from '../state/ui';
import { ShellIcon } from './ShellIcon';
import { useIsWide } from './useMediaQuery';

const BACKGROUND: Record<ToastKind, string> = { success: 'success', error: 'danger', warning: 'warning' };
const ICON: Record<ToastKind, string> = { success: checkCircleFill, error: xOctagonFill, warning: exclamationTriangleFill };
const AUTOHIDE_MS = 6000;

/**
 * Success, error and warning toasts: top-right on wide windows, bottom-centre below the breakpoint
 * (spec §2). A chunk of its own, loaded with the first toast (shell/Overlays.tsx).
 */
export function Toasts({ breakpoint }: { breakpoint: number }) {
  const { t } = useTranslation();
  const toasts = useAtomValue(toastsAtom);
  const wide = useIsWide(breakpoint);
  return (
    <ToastContainer position={wide ? 'top-end' : 'bottom-center'} containerPosition="fixed" className="p-3 app-toasts">
      {toasts.map((toast) => (
        <Toast
          key={toast.id}
          bg={BACKGROUND[toast.kind]}
          autohide={toast.kind !== 'error'}
          delay={AUTOHIDE_MS}
          onClose={() => dismissToast(toast.id)}
          // errors interrupt a screen reader; success and warning wait their turn
          role={toast.kind === 'error' ? 'alert' : 'status'}
          aria-live={toast.kind === 'error' ? 'assertive' : 'polite'}
          data-kind={toast.kind}
        >
          <div className={`d-flex align-items-start gap-2 p-3 ${toast.kind === 'warning' ? 'text-dark' : 'text-white'}`}>
            <ShellIcon svg={ICON[toast.kind]} />
            <div className="flex-grow-1 toast-text">
              {toast.text}
              {toast.reference && <div className="small mt-1 toast-reference">{t('app:requestId', { id: toast.reference })}</div>}
            </div>
            <CloseButton variant={toast.kind === 'warning' ? undefined : 'white'} aria-label={t('app:close')} onClick={() => dismissToast(toast.id)} />
          </div>
        </Toast>
      ))}
    </ToastContainer>
  );
}
