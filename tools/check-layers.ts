/**
 * `npm run check` (issue 45, "rooms that show it"): the server imports nothing from the browser's
 * runtime. What both sides run — conditions, merge, signing, messages, the screen types' checks —
 * lives in runtime/core (no React, no DOM, no Node-only APIs); runtime/src is React and is the
 * browser's alone. An import of runtime/src from server/ (a test's included: it would hold the
 * server to a module the browser may change at will) fails the check, naming file and line.
 * Every form of import counts: `import`, `import type`, `export … from`, `import()` and a type's
 * `import('…').Name`.
 *
 * And no import runs back up the server's layers (issue 45): the ground rooms — `lazy-module.ts`, `http-error.ts`,
 * `crypto/`, `migrations/`, `db/`, `jobs/`, `auth/`, `config/`, `access/`, `audit/`, in this order —
 * import from server/ only themselves and the rooms before them, and only `server/app.ts` imports
 * `server/routes/`. What a lower room and a higher one both need moves down (a check of a
 * configuration file into config/, a scope into access/), never the import up. Tests stand above
 * every layer and are not held to it.
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

/** The server's ground rooms, lowest first: each imports from server/ only itself and the rooms before it. */
export const GROUND_ROOMS: readonly string[] = [
  'server/lazy-module.ts', 'server/http-error.ts', 'server/crypto', 'server/migrations', 'server/db', 'server/jobs',
  'server/auth', 'server/config', 'server/access', 'server/audit',
];

/** The room of a path under server/: a ground room, `server/routes`, or another folder or file (null outside server/). */
function roomOf(rel: string): string | null {
  if (!rel.startsWith('server/')) return null;
  const parts = rel.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : rel;
}

/**
 * `file:line: module` of every import that runs back up the server's layers: a ground room's
 * import of a server/ room that is not itself nor before it in `ground`, and an import of
 * server/routes/ from anywhere but server/app.ts. Tests are not held to it.
 */
export function importsUpTheLayers(baseDir = root, ground: readonly string[] = GROUND_ROOMS): string[] {
  const found: string[] = [];
  const serverDir = join(baseDir, 'server');
  for (const path of sourceFiles(serverDir)) {
    const rel = relative(baseDir, path).split('\\').join('/');
    if (/\.test\.(ts|tsx|mts)$/.test(rel)) continue;
    const from = roomOf(rel)!;
    const level = ground.indexOf(from);
    for (const { spec, line } of importsOf(path, readFileSync(path, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(baseDir, resolve(dirname(path), spec)).split('\\').join('/');
      const to = roomOf(target);
      if (to === null || to === from) continue;
      const routes = to === 'server/routes' && rel !== 'server/app.ts';
      const up = level >= 0 && !ground.slice(0, level).includes(to);
      if (routes || up) found.push(`${rel}:${line}: ${spec}`);
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
  const up = importsUpTheLayers();
  if (up.length) {
    console.error(`Imports run back up the server's layers (${GROUND_ROOMS.join(' < ')} import only what stands before them; only server/app.ts imports server/routes/): move what both sides need into the lower room:\n${up.map((f) => `  ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`No import runs back up the server's layers (${GROUND_ROOMS.join(' < ')}; server/routes/ imported by server/app.ts alone).`);
}
