/**
 * Read-only label/value pairs in a responsive grid, shared by dialog sections and panels. Labels
 * default to `<entity>:fields.<id>`; values are formatted by their schema type or the field's
 * `format`; a `colorField` puts that record colour beside the value as an alert marker.
 */
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from '../config/texts';
import type { ConditionContext } from '../../core/conditions';
import { fieldLabelKey } from '../../core/labels';
import { useConfig } from '../config/ConfigContext';
import type { FieldDecl } from '../config/bundle';
import { formatKindFor, formatValue } from '../format';
import { EmptyState } from './EmptyState';
import { PortalLink } from './table/cells/LinkCell';
import { portalPath } from './table/cells/portal-path';

const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

/** True when every field shown has no value: the grid then says so in one sentence instead of a column of dashes. */
export function allFieldsEmpty(fields: FieldDecl[], record: Record<string, unknown>): boolean {
  return fields.every((f) => isBlank(record[f.id]));
}

/** Only a value the browser understands as a colour is used as one. */
function cssColor(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const color = value.trim();
  return typeof CSS !== 'undefined' && CSS.supports('color', color) ? color : undefined;
}

interface FieldGridProps {
  fields: FieldDecl[];
  record: Record<string, unknown>;
  entity: string;
  ctx: ConditionContext;
  /** Columns per row from the small breakpoint up to the large one. */
  columns?: { sm?: number; lg?: number; xl?: number };
}

export function FieldGrid({ fields, record, entity, ctx, columns = { sm: 2, lg: 3, xl: 4 } }: FieldGridProps) {
  const { t } = useTranslation();
  const { bundle, conditions } = useConfig();
  const schema = bundle.schemas[entity];
  const visible = fields.filter((f) => conditions.isVisible(f, ctx));
  if (allFieldsEmpty(visible, record)) return <EmptyState text={t('app:emptyFields')} />;
  return (
    <Row as="dl" xs={1} sm={columns.sm} lg={columns.lg} xl={columns.xl} className="field-grid g-3 mb-0">
      {visible.map((field) => {
        const kind = formatKindFor(schema?.properties?.[field.id], field.format);
        const color = field.colorField ? cssColor(record[field.colorField]) : undefined;
        return (
          <Col key={field.id} className="field" data-field={field.id}>
            <dt>{t(field.label ?? fieldLabelKey(entity, field.id))}</dt>
            <dd className="mb-0">
              {color && <span className="alert-marker" style={{ backgroundColor: color }} aria-hidden="true" data-color={color} />}
              {field.linkField && portalPath(record[field.linkField])
                ? <PortalLink to={portalPath(record[field.linkField])!}>{formatValue(record[field.id], kind, t, undefined, field.valueLabels)}</PortalLink>
                : formatValue(record[field.id], kind, t, field.emptyText ? t(field.emptyText) : undefined, field.valueLabels)}
            </dd>
          </Col>
        );
      })}
    </Row>
  );
}
