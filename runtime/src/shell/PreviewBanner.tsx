/**
 * The slim banner over a studio preview (config/preview.tsx): what is previewed, as which role, in
 * which variant, and that the data are the administrator's. Texts: locales/pl/config-preview.json.
 */
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../config/texts';

export interface PreviewBannerProps {
  source: 'draft' | 'published';
  variant: string;
  role: string;
  /** The variant's name from its configuration. */
  variantName?: string;
  /** Why the preview's bundle could not be had (then the portal's own is shown). */
  failed?: string;
  onEnd(): void;
}

export function PreviewBanner({ source, variant, variantName, role, failed, onEnd }: PreviewBannerProps) {
  const { t } = useTranslation();
  const variantText = variant === 'default' ? t('config-preview:banner.variantDefault') : t('config-preview:banner.variantNamed', { variant: variantName ?? variant });
  return (
    <aside className={`preview-banner d-flex align-items-baseline gap-2 px-3 py-1 small border-bottom ${failed ? 'bg-danger-subtle text-danger-emphasis' : 'bg-warning-subtle text-warning-emphasis'}`} aria-label={t('config-preview:banner.label')} data-testid="preview-banner">
      <i className="bi bi-eye" aria-hidden="true" />
      <span className="flex-grow-1">
        {failed
          ? t('config-preview:banner.failed', { detail: failed })
          : <>
              <strong>{t(`config-preview:banner.${source}`, { role: t(`app:roles.${role}`), variant: variantText })}</strong> {t('config-preview:banner.data')}
            </>}
      </span>
      <Button variant="link" size="sm" className="flex-shrink-0 p-0 text-reset" onClick={onEnd}>
        {t('config-preview:banner.exit')}
      </Button>
    </aside>
  );
}
