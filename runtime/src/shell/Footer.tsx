import { useTranslation } from '../config/texts';
import { useConfig } from '../config/ConfigContext';
import { FooterLine } from './PublicFrame';

/** Version and copyright line (spec §1). */
export function Footer() {
  const { t } = useTranslation();
  const { bundle } = useConfig();
  const copyright = bundle.app.footer?.copyright;
  return <FooterLine version={t('app:footer.version', { version: bundle.version })} copyright={copyright ? t(copyright) : undefined} />;
}
