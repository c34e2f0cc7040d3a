/**
 * The file of an import: a zone a file may be dropped on, and inside it the ordinary file input
 * (keyboard and screen readers use the input; the zone is the mouse's shortcut).
 */
import { useId, useState } from 'react';
import { useTranslation } from '../../config/texts';
import { textKey } from '../../../core/screen-texts/data-import';

export function FileDrop({ namespace, accept, fileName, onFile, onProblem }: {
  namespace: string;
  accept: string[];
  fileName: string | null;
  onFile: (file: File) => void;
  onProblem: (text: string) => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [over, setOver] = useState(false);
  return (
    <div
      className={`import-drop${over ? ' import-drop--over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const files = e.dataTransfer.files;
        if (files.length === 1) onFile(files[0]);
        else onProblem(t(textKey(namespace, 'file.onlyOne')));
      }}
    >
      <i className="bi bi-upload import-drop-icon" aria-hidden="true" />
      <p className="mb-2 fw-semibold">{t(textKey(namespace, 'file.drop'))}</p>
      <label htmlFor={inputId} className="form-label">{t(textKey(namespace, 'file.choose'))}</label>
      <input
        id={inputId}
        type="file"
        className="form-control import-drop-input"
        accept={accept.join(',')}
        onChange={(e) => {
          const file = e.target.files?.[0];
          // emptied, so that choosing the corrected file of the same name is a change again
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
      {fileName && <p className="mt-2 mb-0" data-testid="import-file-name">{t(textKey(namespace, 'file.chosen'), { name: fileName })}</p>}
    </div>
  );
}
