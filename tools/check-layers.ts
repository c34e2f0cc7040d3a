/**
 * `npm run check` (issue 45, "rooms that show it"): the server imports nothing from the browser's
 * runtime. What both sides run — conditions, merge, signing, messages, the screen types' checks —
 * lives in runtime/core (no React, no DOM, no Node-only APIs); runtime/src is React and is the
 * browser's alone. An import of runtime/src from server/ (a test's included: it would hold the
 * server to a module the browser may change at will) fails the check, naming file and line.
 * Every form of import counts: `import`, `import type`, `export … from`, `import()` and a type's
 * `import('…').Name`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');

/** The module names a file imports, each with its line (1-based). */
export function importsOf(fileName: string, text: string): { spec: string; line: number }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { spec: string; line: number }[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ spec: node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The one declared exception: the login page's first paint (issue 49) is drawn on the server with the
 * runtime's own React views, so the HTML a phone shows before the bundle arrives is the markup the
 * bundle then hydrates — two copies of the login form would drift apart. Only this file, and only
 * these modules (the login view, its form, the public frame and what they read), may cross.
 */
export const SHARED_VIEWS: Record<string, readonly string[]> = {
  'server/init/first-paint.ts': [
    'runtime/src/config/bundle.ts',
    'runtime/src/forms/LightForm.tsx',
    'runtime/src/forms/light-form.ts',
    'runtime/src/forms/field-rules.ts',
    'runtime/src/screens/login/LoginView.tsx',
    'runtime/src/shell/PublicFrame.tsx',
    'runtime/src/shell/ShellIcon.tsx',
  ],
};

/** `file:line: module` of every import under `from` that reaches into `forbidden` (paths from `baseDir`), the declared exceptions aside. */
export function forbiddenImports(baseDir = root, from = 'server', forbidden = 'runtime/src', allowed: Record<string, readonly string[]> = SHARED_VIEWS): string[] {
  const found: string[] = [];
  const fence = resolve(baseDir, forbidden);
  for (const path of sourceFiles(join(baseDir, from))) {
    const rel = relative(baseDir, path).split('\\').join('/');
    for (const { spec, line } of importsOf(path, readFileSync(path, 'utf8'))) {
      if (!spec.startsWith('.')) continue; // a package, or node:
      const target = resolve(dirname(path), spec);
      if (!(target === fence || target.startsWith(fence + '/') || target.startsWith(fence + '\\'))) continue;
      if (allowed[rel]?.includes(relative(baseDir, target).split('\\').join('/'))) continue;
      found.push(`${rel}:${line}: ${spec}`);
    }
  }
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = forbiddenImports();
  if (found.length) {
    console.error(`The server imports the browser's runtime (move what both need into runtime/core, and let the runtime import it from there):\n${found.map((f) => `  ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('server/ imports nothing from runtime/src (the login first paint\'s declared views aside).');
}
