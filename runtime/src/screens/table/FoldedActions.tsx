/**
 * A table's toolbar on a phone (issue 49): the first button stays a button, the others fold into
 * one "Działania" menu, so the list starts on the first screen. Loaded lazily by TableActions.
 */
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import { useTranslation } from 'react-i18next';
import type { ToolbarActionDecl } from '../../config/bundle';

export default function FoldedActions({ items, hasScreen, onPress }: {
  items: ToolbarActionDecl[];
  hasScreen: (id: string) => boolean;
  onPress: (item: ToolbarActionDecl) => void;
}) {
  const { t } = useTranslation();
  const [first, ...rest] = items;
  return (
    <div className="table-actions d-flex flex-wrap gap-2" role="toolbar" aria-label={t('table:actions')}>
      <Button size="sm" variant={first.needsRow ? 'outline-secondary' : 'primary'} data-action={first.id} onClick={() => onPress(first)}>
        {first.icon && <i className={`bi bi-${first.icon} me-1`} aria-hidden="true" />}
        {t(first.label)}
      </Button>
      <Dropdown>
        <Dropdown.Toggle size="sm" variant="outline-secondary" data-testid="table-actions-more">
          <i className="bi bi-three-dots me-1" aria-hidden="true" />
          {t('table:moreActions')}
        </Dropdown.Toggle>
        <Dropdown.Menu>
          {rest.map((item) => {
            const unavailable = item.unavailable && item.action.screen && !hasScreen(item.action.screen) ? t(item.unavailable) : undefined;
            return (
              <Dropdown.Item as="button" key={item.id} data-action={unavailable ? undefined : item.id} disabled={!!unavailable} title={unavailable} onClick={() => onPress(item)}>
                {item.icon && <i className={`bi bi-${item.icon} me-2`} aria-hidden="true" />}
                {t(item.label)}
              </Dropdown.Item>
            );
          })}
        </Dropdown.Menu>
      </Dropdown>
    </div>
  );
}
