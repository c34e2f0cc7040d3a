/**
 * The `data-import` screen type (schemas/meta/data-import.schema.json; Administracja → Import
 * danych): five steps — what to import (the server's declarations, named as the menu names the
 * data), the file (dropped or chosen), its columns mapped to the portal's fields (the remembered
 * mapping, else the server's suggestion by header and aliases), a dry run (counts, rows in error,
 * the choices of the import) and the import with its progress — and the history of runs below.
 * The texts are the screen file's keys and its namespace's; the server decides everything else.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from '../../config/texts';
import type { DataImportFile } from '../../../core/generated/meta';
import { errorText } from '../../api/client';
import { dataChanged } from '../../state/data';
import { Loading } from '../Loading';
import type { ScreenProps } from '../types';
import { FileDrop } from './FileDrop';
import { importApi, type FilePreview, type ImportDeclaration, type ImportRun } from './import-api';
import { duplicateFields, initialMapping, unmappedRequired, type Mapping } from './mapping';
import { MappingTable } from './MappingTable';
import { RunCounts, RunErrors, type CountDecl } from './RunResult';
import { RunHistory } from './RunHistory';
import { ImportConfirm } from './ImportConfirm';
import { textKey, type TextKey } from '../../../core/screen-texts/data-import';
import { usePolledRun } from './usePolledRun';
import './data-import.css';

/** The API's value of "one row in error stops the whole import" (the contract's onError). */
const ALL_OR_NOTHING = 'allOrNothing';

type StepKind = DataImportFile['steps'][number]['kind'];

export default function DataImport({ screen, screenId, presentation }: ScreenProps<any>) {
  const decl = screen as DataImportFile;
  const { t } = useTranslation();
  const ns = decl.texts;
  const tx = (key: TextKey, vars?: Record<string, unknown>) => t(textKey(ns, key), vars);
  const client = useMemo(() => importApi(decl.endpoints), [decl.endpoints]);
  const pollMs = decl.pollMs ?? 1000;

  const [declarations, setDeclarations] = useState<ImportDeclaration[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [step, setStep] = useState(0);
  const [name, setName] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<FilePreview | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  /** Mappings remembered during this visit (the declarations list keeps what it was read with). */
  const [remembered, setRemembered] = useState<Record<string, Mapping>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dryRunId, setDryRunId] = useState<number | null>(null);
  const [importId, setImportId] = useState<number | null>(null);
  const [onError, setOnError] = useState(decl.choices.onError[0].value);
  const [missing, setMissing] = useState<string | null>(null);
  const [historyVersion, setHistoryVersion] = useState(0);
  /** The options the shown dry run was run with: another choice makes its numbers no promise (issue 49). */
  const [checkedWith, setCheckedWith] = useState<{ onError: string; missing: string } | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    client
      .declarations(controller.signal)
      .then((list) => {
        setDeclarations(list);
        if (list.length === 1) setName(list[0].name);
      })
      .catch((e) => !controller.signal.aborted && setLoadError(e));
    return () => controller.abort();
  }, [client]);

  const declaration = declarations?.find((d) => d.name === name) ?? null;
  const fields = declaration?.fields ?? [];
  const missingChoices = decl.choices.missing.filter((c) => (declaration?.missing as string[] | undefined)?.includes(c.value));
  const missingValue = missing && missingChoices.some((c) => c.value === missing) ? missing : missingChoices[0]?.value ?? 'keep';
  const dryRun = usePolledRun(client, dryRunId, pollMs);
  const imported = usePolledRun(client, importId, pollMs);

  // a finished run joins the history; a finished import changed the data other screens show
  useEffect(() => {
    if (dryRun.finished) setHistoryVersion((v) => v + 1);
  }, [dryRun.finished]);
  useEffect(() => {
    if (!imported.finished) return;
    setHistoryVersion((v) => v + 1);
    dataChanged();
  }, [imported.finished]);

  // a new step is announced by moving to its heading (not on the first render)
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) firstRender.current = false;
    else headingRef.current?.focus();
  }, [step]);

  const steps = decl.steps;
  const kind: StepKind = steps[step].kind;
  const go = (to: StepKind) => {
    setProblem(null);
    setStep(steps.findIndex((s) => s.kind === to));
  };

  const chooseDeclaration = (value: string) => {
    setName(value);
    setFile(null);
    setPreview(null);
    setMapping({});
    setDryRunId(null);
  };

  const readFile = async (chosen: File) => {
    if (!declaration) return;
    setProblem(null);
    setFile(chosen);
    setPreview(null);
    setDryRunId(null);
    setBusy(true);
    try {
      const p = await client.preview(declaration.name, chosen);
      setPreview(p);
      // columns already mapped in this visit keep their choice (a corrected file of the same layout)
      const known = { ...(declaration.mapping ?? {}), ...(remembered[declaration.name] ?? {}), ...mapping };
      setMapping(initialMapping(p, known, declaration.fields));
    } catch (e) {
      setProblem(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const startRun = async (mode: 'dryRun' | 'import', confirmDeactivated?: string) => {
    if (!declaration || !file) return;
    setProblem(null);
    setBusy(true);
    try {
      if (mode === 'dryRun') {
        await client.rememberMapping(declaration.name, mapping);
        setRemembered((r) => ({ ...r, [declaration.name]: mapping }));
      }
      // an import carries out the dry run shown: the server refuses it with another file or other options
      const approval = mode === 'import' && dryRunId !== null ? { dryRun: dryRunId, confirmDeactivated } : {};
      const started = await client.start(file, { declaration: declaration.name, mode, onError, missing: missingValue, mapping, ...approval });
      if (mode === 'dryRun') {
        setCheckedWith({ onError, missing: missingValue });
        setDryRunId(started.id);
        go('dryRun');
      } else {
        setImportId(started.id);
        go('import');
      }
    } catch (e) {
      setProblem(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const restart = () => {
    setFile(null);
    setPreview(null);
    setDryRunId(null);
    setImportId(null);
    setMapping({});
    go('declaration');
  };

  const page = presentation === 'page' || presentation === 'modal';
  const TitleTag = page ? 'h1' : 'h2';
  const current = steps[step];
  const declarationLabels = new Map((declarations ?? []).map((d) => [d.name, d.label]));

  const requiredMissing = preview ? unmappedRequired(mapping, fields) : [];
  const duplicates = preview ? duplicateFields(mapping) : [];
  const fieldLabel = (f: string) => fields.find((x) => x.name === f)?.label ?? f;

  const renderStep = () => {
    switch (kind) {
      case 'declaration':
        if (!declarations) return loadError ? <Alert variant="danger">{errorText(loadError)}</Alert> : <Loading />;
        if (declarations.length === 0) return <p>{tx('declaration.none')}</p>;
        return (
          <>
            <fieldset>
              <legend className="h6">{tx('declaration.legend')}</legend>
              {declarations.map((d) => (
                <Form.Check key={d.name} type="radio" id={`import-declaration-${d.name}`} name="import-declaration" label={d.label} checked={name === d.name} onChange={() => chooseDeclaration(d.name)} />
              ))}
            </fieldset>
            {declaration && <p className="small text-secondary mt-2">{tx('declaration.key', { fields: declaration.key.map(fieldLabel).join(', ') })}</p>}
            <StepButtons>
              <Button disabled={!declaration} onClick={() => go('file')}>{tx('next')}</Button>
            </StepButtons>
          </>
        );
      case 'file':
        return (
          <>
            <FileDrop namespace={ns} accept={declaration?.accept ?? decl.accept ?? ['.csv', '.txt']} fileName={file?.name ?? null} onFile={(f) => void readFile(f)} onProblem={setProblem} />
            {busy && <Loading text={tx('file.reading')} />}
            {preview && (
              <p className="mt-2 small" data-testid="import-detected">
                {preview.encoding && preview.delimiter
                  ? tx('file.detected', { encoding: preview.encoding, delimiter: preview.delimiter, count: preview.columns.length })
                  : tx('file.columns', { count: preview.columns.length })}
              </p>
            )}
            <StepButtons>
              <Button variant="outline-secondary" onClick={() => go('declaration')}>{tx('back')}</Button>
              <Button disabled={!preview || busy} onClick={() => go('mapping')}>{tx('next')}</Button>
            </StepButtons>
          </>
        );
      case 'mapping': {
        if (!preview) return null;
        const blocked = requiredMissing.length > 0 || duplicates.length > 0;
        return (
          <>
            <div className="import-mapping-wrap">
              <MappingTable namespace={ns} preview={preview} fields={fields} mapping={mapping} onChange={setMapping} />
            </div>
            <div aria-live="polite">
              {requiredMissing.length > 0 && (
                <Alert variant="danger" className="py-2" data-testid="import-required-missing">
                  {tx('mapping.requiredMissing', { fields: requiredMissing.map((f) => f.label).join(', ') })}
                </Alert>
              )}
              {duplicates.map((d) => (
                <Alert key={d.field} variant="danger" className="py-2">
                  {tx('mapping.duplicate', { field: fieldLabel(d.field), columns: d.columns.join(', ') })}
                </Alert>
              ))}
            </div>
            <StepButtons>
              <Button variant="outline-secondary" onClick={() => go('file')}>{tx('back')}</Button>
              <Button disabled={blocked || busy} onClick={() => void startRun('dryRun')}>{tx('mapping.check')}</Button>
            </StepButtons>
          </>
        );
      }
      case 'dryRun':
        return renderDryRun();
      case 'import':
        return renderImport();
      default:
        return null;
    }
  };

  function renderDryRun() {
    const run = dryRun.run;
    if (dryRun.error) return <Alert variant="danger">{errorText(dryRun.error)}</Alert>;
    if (!run || !dryRun.finished) return <Loading text={tx('dryRun.running')} />;
    if (run.state !== 'succeeded') {
      return (
        <>
          <Alert variant="danger">{tx('dryRun.failed', { message: run.message ?? '' })}</Alert>
          <StepButtons>
            <Button variant="outline-secondary" onClick={() => go('mapping')}>{tx('back')}</Button>
            <Button variant="outline-primary" onClick={() => go('file')}>{tx('dryRun.chooseFixed')}</Button>
          </StepButtons>
        </>
      );
    }
    const blocked = run.counts.errors > 0 && onError === ALL_OR_NOTHING;
    // the numbers above were counted with other choices: they promise nothing until checked again
    const stale = checkedWith !== null && (checkedWith.onError !== onError || checkedWith.missing !== missingValue);
    return (
      <>
        <div className={stale ? 'import-stale' : undefined}>
          <RunCounts namespace={ns} counts={decl.counts as CountDecl[]} run={run} />
        </div>
        <RunErrors namespace={ns} run={run} headingId="import-errors-title" />
        {run.counts.errors > 0 && (
          <div className="import-download">
            <Button variant="outline-secondary" size="sm" onClick={() => void client.downloadErrors(run.id).catch((e) => setProblem(errorText(e)))}>
              <i className="bi bi-file-earmark-excel me-1" aria-hidden="true" />
              {tx('dryRun.download')}
            </Button>
          </div>
        )}
        <div className="import-choices">
          <Choices legend={tx('dryRun.onErrorLegend')} name="import-on-error" choices={decl.choices.onError} value={onError} onChange={setOnError} />
          {missingChoices.length > 1 && <Choices legend={tx('dryRun.missingLegend')} name="import-missing" choices={missingChoices} value={missingValue} onChange={setMissing} />}
        </div>
        <div aria-live="polite">
          {stale && (
            <Alert variant="warning" className="py-2 d-flex flex-wrap align-items-center gap-2" data-testid="import-stale">
              <span className="me-auto">{tx('dryRun.stale')}</span>
              <Button size="sm" variant="primary" disabled={busy} onClick={() => void startRun('dryRun')}>{tx('dryRun.checkAgain')}</Button>
            </Alert>
          )}
          {!stale && blocked && <Alert variant="warning" className="py-2" data-testid="import-blocked">{tx('dryRun.blocked')}</Alert>}
        </div>
        <StepButtons>
          <Button variant="outline-secondary" onClick={() => go('mapping')}>{tx('back')}</Button>
          <Button variant="outline-primary" onClick={() => go('file')}>{tx('dryRun.chooseFixed')}</Button>
          <Button disabled={blocked || stale || busy} onClick={() => setConfirming(true)}>{tx('dryRun.start')}</Button>
        </StepButtons>
        {confirming && (
          <ImportConfirm
            namespace={ns}
            run={run}
            what={declaration?.label ?? ''}
            skipped={onError === ALL_OR_NOTHING ? 0 : run.counts.errors}
            onAnswer={(typed) => {
              setConfirming(false);
              if (typed !== null) void startRun('import', typed || undefined);
            }}
          />
        )}
      </>
    );
  }

  function renderImport() {
    const run = imported.run;
    if (imported.error) return <Alert variant="danger">{errorText(imported.error)}</Alert>;
    return (
      <>
        {run && renderProgress(run)}
        {!run && <Loading text={tx('import.running')} />}
        <div aria-live="polite">
          {run?.state === 'succeeded' && <Alert variant="success" className="py-2" data-testid="import-succeeded">{tx('import.succeeded')}</Alert>}
          {run?.state === 'failed' && <Alert variant="danger" className="py-2">{tx('import.failed', { message: run.message ?? '' })}</Alert>}
          {run?.state === 'cancelled' && <Alert variant="warning" className="py-2">{tx('import.cancelled')}</Alert>}
        </div>
        {run && imported.finished && (
          <>
            <RunCounts namespace={ns} counts={decl.counts as CountDecl[]} run={run} />
            {run.errors.length > 0 && <RunErrors namespace={ns} run={run} headingId="import-result-errors-title" />}
            <StepButtons>
              <Button onClick={restart}>{tx('import.again')}</Button>
            </StepButtons>
          </>
        )}
      </>
    );
  }

  function renderProgress(run: ImportRun) {
    const { rows, total } = run.progress;
    const done = imported.finished;
    const percent = done ? 100 : total ? Math.min(100, Math.round((rows / total) * 100)) : null;
    const text = total !== null ? tx('import.progress', { rows, total }) : tx('import.progressUnknown', { rows });
    return (
      <div className="mb-3">
        <div
          className="progress"
          role="progressbar"
          aria-label={tx('import.progressLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          aria-valuetext={text}
          data-testid="import-progress"
        >
          <div className={`progress-bar${done ? '' : ' progress-bar-striped progress-bar-animated'}`} style={{ width: `${percent ?? 100}%` }} />
        </div>
        <p className="small mt-1 mb-0">{text}</p>
      </div>
    );
  }

  return (
    <div className="data-import" data-screen={screenId} data-step={current.id}>
      <TitleTag className="page-title">{t(decl.title)}</TitleTag>
      {decl.intro && <p className="text-secondary">{t(decl.intro)}</p>}
      <ol className="import-steps list-unstyled d-flex flex-wrap gap-2 small mb-3" aria-label={tx('steps')}>
        {steps.map((s, i) => (
          <li key={s.id} aria-current={i === step ? 'step' : undefined} className={`badge rounded-pill ${i === step ? 'text-bg-primary' : i < step ? 'text-bg-secondary' : 'text-bg-light border'}`}>
            {i + 1}. {t(s.label)}
          </li>
        ))}
      </ol>
      <section className="import-step card card-body" aria-labelledby="import-step-title" data-testid="import-step">
        <h2 className="h5" id="import-step-title" ref={headingRef} tabIndex={-1}>
          {step + 1}. {t(current.label)}
          {declaration && kind !== 'declaration' && <span className="text-secondary fw-normal"> — {declaration.label}</span>}
        </h2>
        {current.intro && <p className="text-secondary small">{t(current.intro)}</p>}
        {problem && (
          <Alert variant="danger" className="py-2" role="alert">
            {problem}
          </Alert>
        )}
        {renderStep()}
      </section>
      {decl.history && <RunHistory namespace={ns} history={decl.history} client={client} version={historyVersion} declarationLabels={declarationLabels} counts={decl.counts as CountDecl[]} />}
    </div>
  );
}

function StepButtons({ children }: { children: ReactNode }) {
  return <div className="import-step-buttons d-flex flex-wrap gap-2 mt-3">{children}</div>;
}

function Choices({ legend, name, choices, value, onChange }: {
  legend: string;
  name: string;
  choices: { value: string; label: string; hint?: string }[];
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="mb-3">
      <legend className="h6">{legend}</legend>
      {choices.map((c) => (
        <Form.Check key={c.value} type="radio" id={`${name}-${c.value}`} name={name}>
          <Form.Check.Input type="radio" checked={value === c.value} onChange={() => onChange(c.value)} aria-describedby={c.hint ? `${name}-${c.value}-hint` : undefined} />
          <Form.Check.Label>{t(c.label)}</Form.Check.Label>
          {c.hint && <div id={`${name}-${c.value}-hint`} className="form-text mt-0">{t(c.hint)}</div>}
        </Form.Check>
      ))}
    </fieldset>
  );
}
