/**
 * Cell renderer `files` (spec §2 "Invoices"): the column's value is how many files the row has.
 * One file: a button that opens it ('Pobierz'); several: a button that opens a dialog to choose
 * one ('Pokaż listę'); none: a disabled button ('Brak'). A file opens in a new window through a
 * one-time download token (files.ts). Every text comes from the column's declaration.
 */
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../../config/texts';
import { api, apiUrl, errorText } from '../../../api/client';
import { useConfig } from '../../../config/ConfigContext';
import { useConditionContext } from '../../../config/useConditionContext';
import type { FilesButtonDecl, FilesCellDecl } from '../../../config/bundle';
import { showToast } from '../../../state/ui';
import { downloadWithToken, filesOf, openWithToken, rowVars, WindowBlockedError, type FileDecl } from './files';

export default function FilesCell(props: CustomCellRendererProps & { files: FilesCellDecl }) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  const ctx = useConditionContext();
  const [choosing, setChoosing] = useState(false);
  const decl = props.files;
  const row = props.data as Record<string, unknown> | undefined;
  // a row of the infinite model that is still loading has no data yet
  if (!row) return null;
  const vars = rowVars(row);
  const files = filesOf(decl, props.value);
  const id = row[decl.link.idField];

  const open = (file: FileDecl) => {
    const token = async () => {
      const body = { [decl.link.bodyField ?? decl.link.idField]: id };
      // quiet: the error is shown below, once, after the empty window is closed
      const answer = await api.post<{ token: string }>(decl.link.endpoint, body, { quiet: true });
      return answer.token;
    };
    const failed = (error: unknown) => showToast('error', error instanceof WindowBlockedError ? t('table:windowBlocked') : errorText(error));
    // a file that is not previewed (a Word document) is saved here under its name, without a window
    if (file.preview && !conditions.matches(file.preview.when, { ...ctx, record: row })) {
      return downloadWithToken(token, (tok) => apiUrl(file.path, { id: String(id), token: tok }), failed);
    }
    return openWithToken(token, (tok) => apiUrl(file.path, { ...file.preview?.query, id: String(id), token: tok }), failed);
  };

  const button = (b: FilesButtonDecl, onClick: (() => void) | undefined) => {
    const label = t(b.label ?? b.text, vars);
    const control = (
      <Button
        size="sm"
        variant={onClick ? `outline-${b.tone ?? 'primary'}` : 'outline-secondary'}
        className="cell-files-button"
        disabled={!onClick}
        onClick={onClick}
        title={label}
        aria-label={label}
        // the table leaves clicks and Enter on it to the button (interactive.ts)
        data-cell-control=""
      >
        {b.icon && <i className={`bi bi-${b.icon} me-1`} aria-hidden="true" />}
        {t(b.text, vars)}
      </Button>
    );
    // a disabled button gets no pointer events, so its hover text sits on a wrapper
    return onClick ? control : (
      <span className="cell-files-disabled" title={label}>
        {control}
      </span>
    );
  };

  if (files.length === 0) return button(decl.none, undefined);
  if (files.length === 1) return button(decl.one, () => void open(files[0]));
  return (
    <>
      {button(decl.many, () => setChoosing(true))}
      <Modal show={choosing} onHide={() => setChoosing(false)} centered aria-labelledby={`files-title-${String(id)}`}>
        <Modal.Header closeButton closeLabel={t('app:close')}>
          <Modal.Title id={`files-title-${String(id)}`} as="h2" className="h5">
            {t(decl.dialog.title, vars)}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {decl.dialog.intro && <p className="text-secondary">{t(decl.dialog.intro, vars)}</p>}
          <div className="d-grid gap-2">
            {files.map((file) => (
              <Button
                key={file.id}
                variant="outline-primary"
                className="text-start"
                onClick={() => {
                  setChoosing(false);
                  void open(file);
                }}
              >
                {file.icon && <i className={`bi bi-${file.icon} me-2`} aria-hidden="true" />}
                {t(file.label, vars)}
              </Button>
            ))}
          </div>
        </Modal.Body>
      </Modal>
    </>
  );
}
