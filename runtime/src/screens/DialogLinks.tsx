import { useTranslation } from '../config/texts';
import type { DialogLinkDecl } from '../config/bundle';

/** Links under a form that open another dialog screen (forgotten password, password rules); Bootstrap's link-button markup (the login page has them). */
export function DialogLinks({ links, onOpen }: { links?: DialogLinkDecl[]; onOpen: (screen: string) => void }) {
  const { t } = useTranslation();
  return <DialogLinkButtons links={links?.map((link) => ({ ...link, label: t(link.label) }))} onOpen={onOpen} />;
}

/**
 * The links' markup with their texts given (no hook): also what the server draws into the login
 * page's first paint (server/init/first-paint.ts), so the runtime draws the same over it.
 */
export function DialogLinkButtons({ links, onOpen }: { links?: DialogLinkDecl[]; onOpen?: (screen: string) => void }) {
  if (!links?.length) return null;
  return (
    <div className="dialog-links d-flex flex-wrap gap-3 mt-3">
      {links.map((link) => (
        <button key={link.id} type="button" className="btn btn-link p-0" data-link={link.id} onClick={() => onOpen?.(link.dialog)}>
          {link.label}
        </button>
      ))}
    </div>
  );
}
