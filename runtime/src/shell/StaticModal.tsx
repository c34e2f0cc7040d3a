import type { ReactNode } from 'react';

/**
 * A modal nobody can close or act in (the loading modal, a blocking error): Bootstrap's modal
 * markup, drawn without react-bootstrap's Modal (its focus handling, transitions and ~5 KB), so
 * that the first page a visitor opens carries none of it (issue 33). Closable modals are
 * react-bootstrap's, loaded when one opens.
 */
export function StaticModal({ label, labelledBy, size, testId, children }: { label?: string; labelledBy?: string; size?: 'sm'; testId?: string; children: ReactNode }) {
  // the backdrop before the dialog, as react-bootstrap draws them: a backdrop after a dialog is a
  // stacked dialog's (styles.css), lifted above the one before it, which this one would then be
  return (
    <>
      <div className="modal-backdrop show" />
      <div className="modal d-block" role="dialog" aria-modal="true" aria-label={label} aria-labelledby={labelledBy} data-testid={testId}>
        <div className={`modal-dialog modal-dialog-centered${size ? ` modal-${size}` : ''}`}>
          <div className="modal-content">{children}</div>
        </div>
      </div>
    </>
  );
}
