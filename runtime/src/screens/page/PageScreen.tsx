import { useTranslation } from '../../config/texts';
import type { PageDecl } from '../../config/bundle';
import type { ScreenProps } from '../types';

/** The `page` screen type: a title and paragraphs (inside a modal route the route shows the title). */
export default function PageScreen({ screen, screenId, presentation }: ScreenProps<PageDecl>) {
  const { t } = useTranslation();
  return (
    <section className="page-screen" data-screen={screenId}>
      {presentation !== 'modal' && <h1 className="page-title">{t(screen.title)}</h1>}
      {(screen.paragraphs ?? []).map((key) => (
        <p key={key}>{t(key)}</p>
      ))}
    </section>
  );
}
