/**
 * `npm run check`: the OpenAPI document, built as the portal publishes it (tools/openapi-document.ts,
 * no server started), linted by Redocly CLI with its `recommended` rules (redocly.yaml; the few
 * answered exceptions in .redocly.lint-ignore.yaml, each with its reason): any error or warning
 * fails. Also fails when the integration example's generated client types, or the webhook event
 * catalogue of docs/integration.md, are stale (`npm run gen` writes them).
 *
 *   tsx tools/check-openapi.ts           lint and check
 *   tsx tools/check-openapi.ts --write   also write the client types (npm run gen)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildOpenapiDocument, CLIENT_TYPES, clientTypes, ROOT } from './openapi-document.ts';
import { CATALOGUE_FILE, catalogue, withCatalogue } from './webhook-catalogue.ts';

/** Where the document is written for the linter; .redocly.lint-ignore.yaml names it. */
const DOCUMENT = '.tmp/openapi/openapi.json';

const started = Date.now();
const write = process.argv.includes('--write');
const document = await buildOpenapiDocument();
const built = Date.now();

mkdirSync(dirname(join(ROOT, DOCUMENT)), { recursive: true });
const temp = join(ROOT, `${DOCUMENT}.${process.pid}`);
writeFileSync(temp, JSON.stringify(document, null, 1));
renameSync(temp, join(ROOT, DOCUMENT));

let failed = false;
const types = await clientTypes(document);
const typesFile = join(ROOT, CLIENT_TYPES);
if (write) {
  writeFileSync(typesFile, types);
  console.log(`✓ wrote ${CLIENT_TYPES}`);
} else if (!existsSync(typesFile) || readFileSync(typesFile, 'utf8') !== types) {
  failed = true;
  console.error(`✗ ${CLIENT_TYPES} is stale: run npm run gen`);
}

// the event catalogue of docs/integration.md, from the document's webhooks section (issue 35)
const catalogueFile = join(ROOT, CATALOGUE_FILE);
const current = readFileSync(catalogueFile, 'utf8');
const updated = withCatalogue(current, catalogue(document));
if (updated === undefined) {
  failed = true;
  console.error(`✗ ${CATALOGUE_FILE} has no webhook-events markers for the event catalogue`);
} else if (write) {
  writeFileSync(catalogueFile, updated);
  console.log(`✓ wrote the event catalogue of ${CATALOGUE_FILE}`);
} else if (updated !== current) {
  failed = true;
  console.error(`✗ the event catalogue of ${CATALOGUE_FILE} is stale: run npm run gen`);
}

if (!write) {
  const lint = spawnSync(join(ROOT, 'node_modules/.bin/redocly'), ['lint', DOCUMENT, '--config', 'redocly.yaml', '--format', 'stylish', '--max-problems', '1000'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
  });
  // the CLI's framed notice that Node 20 support ends some day is not about our document
  const output = `${lint.stdout}${lint.stderr}`.split('\n').filter((line) => !/[╔║╚]/.test(line)).join('\n').trim();
  const warnings = /(\d+) warnings?/.exec(output)?.[1];
  if (lint.status !== 0 || (warnings && Number(warnings) > 0)) {
    failed = true;
    console.error(output);
    console.error('✗ OpenAPI document: Redocly recommended rules (redocly.yaml) report the problems above');
  } else {
    const paths = Object.values<Record<string, unknown>>(document.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    console.log(`✓ OpenAPI document: ${paths} operations, Redocly recommended: 0 errors, 0 warnings (built ${built - started} ms, linted ${Date.now() - built} ms)`);
  }
}
process.exit(failed ? 1 : 0);
