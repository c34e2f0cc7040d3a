import { useTranslation } from '../config/texts';
import { useConfig } from '../config/ConfigContext';

/** Version and copyright line (spec §1). */
export function Footer() {
  const { t } = useTranslation();
  const { bundle } = useConfig();
  const copyright = bundle.app.footer?.copyright;
  return (
    <footer className="app-footer">
      <span data-testid="app-version">{t('app:footer.version', { version: bundle.version })}</span>
      {copyright && <span>{t(copyright)}</span>}
    </footer>
  );
}
