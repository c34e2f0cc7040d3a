/**
 * Pieces the studio's tabs share: the messages of the checks beside a field, a document chooser,
 * the save bar of an edited document, the role and flag check boxes of a hiddenWhen, loading and
 * failure states. The markup of the runtime's Loading and EmptyState is repeated here rather than
 * imported, so that the studio's chunk does not pull them out of the table's (tools/size-budget.ts).
 */
import { useId, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../config/texts';
import { errorText } from '../../api/client';
import { messageId, problemsAt, reasonOf } from './pointers';
import type { DocumentInfo, Problem } from './studio-api';
import { useStudio } from './StudioContext';
import { toggled, type HiddenChoice } from './hidden-when';

export function Spinner({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <div className="d-flex align-items-center gap-2 p-3 loading-text" role="status">
      <span className="spinner-border spinner-border-sm" aria-hidden="true" />
      <span>{text ?? t('app:loading')}</span>
    </div>
  );
}

export function Empty({ text }: { text: string }) {
  return (
    <div className="empty-state py-3" data-testid="empty-state">
      <i className="bi bi-inbox" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}

export function LoadFailure({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert-warning" role="alert">
      {errorText(error, t('config-studio:failed'))}
    </div>
  );
}

/** The problems of the last refused write at one place of a document (aria-describedby of its input). */
export function useFieldProblems(layerPath: string | undefined, ptr: string, deep = false) {
  const { problems } = useStudio();
  const list = layerPath ? problemsAt(problems, layerPath, ptr, deep) : [];
  const id = layerPath ? messageId('studio-problem', layerPath, ptr) : undefined;
  return { list, id: list.length ? id : undefined, invalid: list.length > 0 };
}

export function FieldProblems({ problems, id }: { problems: Problem[]; id?: string }) {
  if (!problems.length) return null;
  return (
    <div id={id} className="studio-field-problem" data-testid="field-problem">
      {problems.map((p, i) => (
        <div key={i}>
          <i className="bi bi-exclamation-circle me-1" aria-hidden="true" />
          {reasonOf(p)}
        </div>
      ))}
    </div>
  );
}

/** A select of documents, grouped by kind when they are of several kinds. */
export function DocumentSelect({ label, documents, value, onChange, describe, id }: {
  label: string;
  documents: DocumentInfo[];
  value: string;
  onChange(path: string): void;
  describe?(doc: DocumentInfo): string;
  id?: string;
}) {
  const { t } = useTranslation();
  const ownId = useId();
  const selectId = id ?? ownId;
  const name = describe ?? ((d: DocumentInfo) => (d.title ? `${t(d.title)} (${d.id})` : d.path));
  const kinds = [...new Set(documents.map((d) => d.kind))];
  const option = (d: DocumentInfo) => (
    <option key={d.path} value={d.path}>
      {name(d)}
    </option>
  );
  return (
    <div className="studio-chooser">
      <label htmlFor={selectId} className="form-label">
        {label}
      </label>
      <select id={selectId} className="form-select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('config-studio:choose')}</option>
        {kinds.length > 1
          ? kinds.map((kind) => (
              <optgroup key={kind} label={t(`config-studio:kinds.${kind}`)}>
                {documents.filter((d) => d.kind === kind).map(option)}
              </optgroup>
            ))
          : documents.map(option)}
      </select>
    </div>
  );
}

/**
 * Save and give up of an edited document. "Odrzuć zmianę w wersji roboczej" takes the draft's
 * change of the document out (back to the published version); "Wstaw wersję z plików" puts the
 * files' document into the editor (saved like any edit), undoing what the published layer changed.
 */
export function SaveBar({ dirty, busy, onSave, onReset, inDraft, onForget, changed, onFiles, saveLabel }: {
  dirty: boolean;
  busy: boolean;
  onSave(): void;
  onReset(): void;
  /** The draft changes this document. */
  inDraft?: boolean;
  onForget?(): void;
  /** The layer (draft or published) changes this document. */
  changed?: boolean;
  onFiles?(): void;
  saveLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="studio-savebar">
      <Button variant="primary" disabled={!dirty || busy} onClick={onSave}>
        <i className="bi bi-save me-1" aria-hidden="true" />
        {saveLabel ?? t('config-studio:save')}
      </Button>
      <Button variant="outline-secondary" disabled={!dirty || busy} onClick={onReset}>
        {t('config-studio:reset')}
      </Button>
      {onFiles && (
        <Button variant="outline-secondary" disabled={!changed || busy} onClick={onFiles}>
          {t('config-studio:fromFiles')}
        </Button>
      )}
      {onForget && (
        <Button variant="outline-danger" disabled={!inDraft || busy} onClick={onForget}>
          {t('config-studio:forget')}
        </Button>
      )}
      {dirty && <span className="studio-unsaved">{t('config-studio:unsaved')}</span>}
    </div>
  );
}

/** An inline check box with its label (Bootstrap's markup). */
export function Check({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange(on: boolean): void }) {
  return (
    <div className="form-check form-check-inline">
      <input id={id} className="form-check-input" type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id} className="form-check-label">
        {label}
      </label>
    </div>
  );
}

/** Check boxes choosing the roles (and flags) an item is hidden for. */
export function HiddenChooser({ choice, onChange, roles, flags, legend, idPrefix }: {
  choice: HiddenChoice;
  onChange(next: HiddenChoice): void;
  roles: readonly string[];
  flags?: readonly string[];
  legend: string;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const { screen } = useStudio();
  const roleLabel = (role: string) => t(`${screen.roleLabels}.${role}`);
  return (
    <fieldset className="studio-hidden-chooser">
      <legend className="studio-legend">{legend}</legend>
      <div className="studio-checks">
        {roles.map((role) => (
          <Check
            key={role}
            id={`${idPrefix}-role-${role}`}
            label={roleLabel(role)}
            checked={choice.roles.includes(role)}
            onChange={(on) => onChange({ ...choice, roles: toggled(choice.roles, role, on) })}
          />
        ))}
      </div>
      {flags && flags.length > 0 && (
        <details className="studio-flags" open={choice.flags.length > 0}>
          <summary className="studio-flags-label">{t('config-studio:hidden.flags', { count: choice.flags.length })}</summary>
          <div className="studio-checks">
          {flags.map((flag) => (
            <Check
              key={flag}
              id={`${idPrefix}-flag-${flag}`}
              label={flag}
              checked={choice.flags.includes(flag)}
              onChange={(on) => onChange({ ...choice, flags: toggled(choice.flags, flag, on) })}
            />
          ))}
          </div>
        </details>
      )}
      {choice.other.length > 0 && <p className="studio-note mb-0">{t('config-studio:hidden.other')}</p>}
    </fieldset>
  );
}

/** A heading with the tools beside it. */
export function TabHeading({ children, tools }: { children: ReactNode; tools?: ReactNode }) {
  return (
    <div className="studio-tab-head">
      <h2 className="h5 mb-0">{children}</h2>
      {tools}
    </div>
  );
}
