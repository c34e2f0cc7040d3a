/**
 * The toolbar's export button of a table screen that declares `"export"` (xlsx or csv). It exports
 * what the grid shows now (export.ts, loaded with the first export) and shows that it is busy until
 * the file is on its way; a refusal (over the limit, no access) is an error toast with the server's
 * or the limit's message; export.ts that cannot be loaded (the server gone), 'Brak połączenia'.
 */
import type { GridApi } from 'ag-grid-community';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useTranslation } from '../../config/texts';
import { exportLimitOf } from '../../../core/export-limits';
import { ApiError, errorText } from '../../api/client';
import { useConfig } from '../../config/ConfigContext';
import type { TableScreenDecl } from '../../config/bundle';
import { showToast } from '../../state/ui';
import type { TableQuery } from './datasource';

const ICONS = { xlsx: 'bi-file-earmark-excel', csv: 'bi-filetype-csv' } as const;

interface Props {
  kind: 'xlsx' | 'csv';
  screen: TableScreenDecl;
  query: TableQuery;
  gridApi: () => GridApi | null;
}

export function ExportButton({ kind, screen, query, gridApi }: Props) {
  const { t } = useTranslation();
  const { bundle } = useConfig();
  const [busy, setBusy] = useState(false);

  const run = async () => {
    const grid = gridApi();
    if (!grid || busy) return;
    setBusy(true);
    // the export's own code (the Excel call, the CSV writer) comes with the first export (issue 33)
    let exporting: typeof import('./export') | undefined;
    try {
      exporting = await import('./export');
      const { exportCsv, exportExcel, exportRowParams, shownColumns } = exporting;
      // what the grid shows, but for the columns the configuration keeps out of exports
      const shown = shownColumns(grid, screen, bundle.schemas[screen.entity]).filter((s) => s.column.exported !== false);
      const rowParams = exportRowParams(grid, query);
      if (kind === 'xlsx') await exportExcel(screen.resource, shown, rowParams, t);
      else await exportCsv(screen.resource, shown, rowParams, { limit: exportLimitOf(bundle.config), title: t(screen.title ?? `${screen.entity}:title`), t });
    } catch (error) {
      // the API client has shown 5xx and lost connections already, and a 401 signs out
      if (!exporting) showToast('error', errorText(error));
      else if (error instanceof exporting.ExportRefused) showToast('error', error.message);
      else if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) showToast('error', errorText(error));
      else if (!(error instanceof ApiError)) throw error;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant="outline-secondary" size="sm" onClick={run} disabled={busy} aria-busy={busy} data-testid="table-export">
      {busy ? <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" /> : <i className={`bi ${ICONS[kind]} me-1`} aria-hidden="true" />}
      {busy ? t('table:export.preparing') : t(`table:export.${kind}`)}
    </Button>
  );
}
