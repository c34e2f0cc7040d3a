/**
 * The configuration studio's JSON editor ("anything else", issue 26): CodeMirror 6 with JSON,
 * checked while typing against the document's meta-schema (./diagnostics), completion and hover
 * from the same schema (./schema-help), and the server's findings marked where their pointers point.
 * Loaded only lazily (React.lazy in the studio): CodeMirror and its helpers are a chunk of their
 * own (docs/decisions.md, "JSON editor of the configuration studio").
 *
 * `schema`: a self-contained JSON Schema (its references local: `bundleSchema()` of
 * ./bundle-schema makes one of the meta-schemas). `problems`: the server's findings for this
 * document, by JSON pointer. Keyboard: the editor keeps Tab out of the text, so Tab leaves it as
 * it leaves any field; Ctrl+Space completes, F8 goes to the next finding.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { forceLinting, lintGutter, linter, lintKeymap, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, hoverTooltip, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from '../../../config/texts';
import { problemDiagnostics, schemaDiagnostics, schemaValidator, syntaxDiagnostics, type ServerProblem } from './diagnostics';
import { hoverAt, schemaCompletionSource } from './schema-help';

export interface JsonEditorProps {
  value: string;
  onChange(text: string): void;
  schema?: object;
  problems?: ServerProblem[];
  ariaLabel: string;
}

const NS = 'config-preview:editor';
type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** The server's findings, kept in the editor state so that the linter reads them with the text. */
const setProblems = StateEffect.define<readonly ServerProblem[]>();
const problemsField = StateField.define<readonly ServerProblem[]>({
  create: () => [],
  update: (value, tr) => tr.effects.reduce((v, e) => (e.is(setProblems) ? e.value : v), value),
});
/** The schema the editor checks against (the same one completion and hover read). */
const setCheckSchema = StateEffect.define<object | undefined>();
const checkSchemaField = StateField.define<object | undefined>({
  create: () => undefined,
  update: (value, tr) => tr.effects.reduce((v, e) => (e.is(setCheckSchema) ? e.value : v), value),
});

const findings = (t: Translate) => (view: EditorView): Diagnostic[] => {
  const { state } = view;
  const syntax = syntaxDiagnostics(state, t);
  const schema = syntax.length ? [] : schemaDiagnostics(state, schemaValidator(state.field(checkSchemaField)), t);
  return [...syntax, ...schema, ...problemDiagnostics(state, state.field(problemsField), t)];
};

/** The hover over a property or value: its description, type and allowed values, as text (never as HTML). */
const schemaHover = (t: Translate) => hoverTooltip((view, pos) => {
  const found = hoverAt(view.state, pos, view.state.field(checkSchemaField) as Record<string, any> | undefined, t);
  if (!found || (!found.text && !found.details)) return null;
  return {
    pos: found.from,
    end: found.to,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'json-editor-hover';
      for (const [text, className] of [[found.text, 'json-editor-hover-text'], [found.details, 'json-editor-hover-type']]) {
        if (!text) continue;
        const part = document.createElement('div');
        part.className = className;
        part.textContent = text;
        dom.append(part);
      }
      return { dom };
    },
  };
});

const theme = EditorView.theme({
  '&': { fontSize: '0.875rem', border: '1px solid var(--bs-border-color, #dee2e6)', borderRadius: '0.375rem', backgroundColor: '#fff' },
  '&.cm-focused': { outline: '2px solid #0a4fb5', outlineOffset: '1px' },
  // the editor grows with its text and the page scrolls: a scrolling box of its own would be a
  // region the keyboard cannot scroll (CodeMirror's scroller is not focusable), and lines wrap
  '.cm-scroller': { fontFamily: 'var(--bs-font-monospace, monospace)' },
  '.cm-content, .cm-gutter': { minHeight: '16rem' },
  '.cm-gutters': { backgroundColor: '#f8f9fa', color: '#495057', borderRight: '1px solid #dee2e6' },
  '.cm-activeLine': { backgroundColor: '#eef4ff' },
  '.cm-activeLineGutter': { backgroundColor: '#dde8fb', color: '#212529' },
  '.cm-tooltip': { maxWidth: '32rem' },
  '.json-editor-hover': { padding: '0.25rem 0.5rem', fontSize: '0.8125rem', whiteSpace: 'pre-wrap' },
  '.json-editor-hover-type': { fontFamily: 'var(--bs-font-monospace, monospace)', color: '#495057' },
  '.cm-diagnostic-error': { borderLeftColor: '#b02a37' },
  '.cm-diagnosticSource': { color: '#495057', opacity: 1 },
  // the chosen finding of the list (Ctrl+Shift+M) is drawn in the system's highlight colours
  '.cm-panel.cm-panel-lint ul [aria-selected] .cm-diagnosticSource': { color: 'inherit' },
});

export default function JsonEditor({ value, onChange, schema, problems, ariaLabel }: JsonEditorProps) {
  const { t: translate, i18n } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const labelCompartment = useRef(new Compartment());
  const keysId = useId();

  // the editor is made once; later props reach it as transactions below
  useEffect(() => {
    const t: Translate = (key, vars) => String(i18n.t(key, vars as never));
    const phrases = i18n.t(`${NS}.phrases`, { returnObjects: true }) as Record<string, string>;
    const extensions: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      foldGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      closeBrackets(),
      highlightActiveLine(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      json(),
      EditorState.phrases.of(typeof phrases === 'object' ? phrases : {}),
      EditorState.tabSize.of(2),
      EditorView.lineWrapping,
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...foldKeymap, ...completionKeymap, ...lintKeymap]),
      problemsField.init(() => problems ?? []),
      checkSchemaField.init(() => schema),
      linter(findings(t), {
        delay: 300,
        needsRefresh: (update) => update.transactions.some((tr) => tr.effects.some((e) => e.is(setProblems) || e.is(setCheckSchema))),
      }),
      lintGutter(),
      autocompletion({ override: [schemaCompletionSource((state) => state.field(checkSchemaField) as Record<string, any> | undefined, t)] }),
      schemaHover(t),
      labelCompartment.current.of(EditorView.contentAttributes.of({ 'aria-label': ariaLabel, 'aria-describedby': keysId })),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) onChangeRef.current(update.state.doc.toString());
      }),
      theme,
    ];
    const view = new EditorView({ parent: host.current!, state: EditorState.create({ doc: value, extensions }) });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- made once; the effects below follow the props
  }, []);

  // a new value from outside (another document, a reset) replaces the text; the editor's own typing
  // comes back as the same text and changes nothing
  useEffect(() => {
    const view = viewRef.current;
    if (view && view.state.doc.toString() !== value) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const view = viewRef.current;
    if (!view || view.state.field(checkSchemaField) === schema) return;
    view.dispatch({ effects: setCheckSchema.of(schema) });
  }, [schema]);

  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    view.dispatch({ effects: setProblems.of(problems ?? []) });
    forceLinting(view);
  }, [problems]);

  useEffect(() => {
    viewRef.current?.dispatch({
      effects: labelCompartment.current.reconfigure(EditorView.contentAttributes.of({ 'aria-label': ariaLabel, 'aria-describedby': keysId })),
    });
  }, [ariaLabel, keysId]);

  return (
    <div className="json-editor">
      <div ref={host} />
      <p id={keysId} className="form-text small mb-0">
        {translate(`${NS}.keys`)}
      </p>
    </div>
  );
}
