/**
 * Step 3: each column as the file names it, a few of its values, and the portal's field it fills
 * (labelled as the forms label them, required ones marked); a column the portal does not know is
 * said in words beside it.
 */
import Form from 'react-bootstrap/Form';
import { useTranslation } from '../../config/texts';
import type { FilePreview, ImportField } from './import-api';
import { sampleOf, type Mapping } from './mapping';
import { textKey } from '../../../core/screen-texts/data-import';

export function MappingTable({ namespace, preview, fields, mapping, onChange }: {
  namespace: string;
  preview: FilePreview;
  fields: ImportField[];
  mapping: Mapping;
  onChange: (mapping: Mapping) => void;
}) {
  const { t } = useTranslation();
  const tx = (key: Parameters<typeof textKey>[1], vars?: Record<string, unknown>) => t(textKey(namespace, key), vars);
  const unknown = new Set(preview.unknownColumns);
  return (
    <table className="table table-sm align-middle import-mapping">
      <caption className="visually-hidden">{tx('mapping.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{tx('mapping.column')}</th>
          <th scope="col">{tx('mapping.sample')}</th>
          <th scope="col">{tx('mapping.field')}</th>
        </tr>
      </thead>
      <tbody>
        {preview.columns.map((column) => {
          const field = mapping[column] ?? '';
          const isUnknown = !field && unknown.has(column);
          return (
            <tr key={column} data-column={column} className={isUnknown ? 'import-mapping-unknown' : undefined}>
              <th scope="row" className="import-mapping-column">
                {column}
                {isUnknown && <span className="badge text-bg-warning ms-2 import-unknown-badge">{tx('mapping.unknown')}</span>}
              </th>
              <td className="import-mapping-sample" data-label={tx('mapping.sample')}>{sampleOf(preview, column).join(', ')}</td>
              <td data-label={tx('mapping.field')}>
                <Form.Select
                  size="sm"
                  value={field}
                  aria-label={tx('mapping.fieldFor', { column })}
                  onChange={(e) => onChange({ ...mapping, [column]: e.target.value || null })}
                >
                  <option value="">{tx('mapping.skip')}</option>
                  {fields.map((f) => (
                    <option key={f.name} value={f.name}>
                      {f.required ? `${f.label} (${tx('mapping.required')})` : f.label}
                    </option>
                  ))}
                </Form.Select>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
