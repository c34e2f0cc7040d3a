/**
 * `npm run test:changed [-- --base <ref>] [--dry]`: the developer's quick loop, the tests of the files
 * changed since <ref> (default main: its commits since, staged, unstaged and new files):
 * - the unit and API tests Vitest relates to them through their imports (`vitest run --changed`);
 * - when the configuration changed, its own tests (tests/config) and check (tools/check-config.ts);
 * - the browser journeys that open the screens those files are part of (tools/changed-tests.ts).
 * `npm test` stays the whole suite; this only picks. `--dry` prints the choice and runs nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { selectJourneys } from './changed-tests.ts';

const args = process.argv.slice(2);
const option = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const base = option('--base') ?? 'main';
const dry = args.includes('--dry');
const root = process.cwd();

const git = (...a: string[]) => execFileSync('git', a, { encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = [...new Set([
  ...git('diff', '--name-only', `${base}...HEAD`),
  ...git('diff', '--name-only', 'HEAD'),
  ...git('ls-files', '--others', '--exclude-standard'),
])].sort();
if (changed.length === 0) {
  console.log(`test:changed: nothing changed since ${base}`);
  process.exit(0);
}

const specDir = join(root, 'tests', 'browser');
const specs = new Map(readdirSync(specDir).filter((n) => n.endsWith('.spec.ts')).map((n) => [`tests/browser/${n}`, readFileSync(join(specDir, n), 'utf8')]));
const selection = selectJourneys(root, changed, specs);

console.log(`test:changed: ${changed.length} file(s) changed since ${base}`);
console.log(selection.journeys.length ? 'journeys:' : 'journeys: none');
for (const spec of selection.journeys) console.log(`  ${spec} (${selection.reasons.get(spec)})`);
if (dry) process.exit(0);

const run = (command: string, a: string[]) => {
  console.log(`\n=== ${command} ${a.join(' ')} ===`);
  return spawnSync(command, a, { stdio: 'inherit' }).status ?? 1;
};
let status = 0;
if (selection.configChanged) status ||= run('npx', ['tsx', 'tools/check-config.ts']);
status ||= run('npx', ['vitest', 'run', '--changed', base, '--passWithNoTests']);
if (selection.configChanged) status ||= run('npx', ['vitest', 'run', 'tests/config']);
if (selection.journeys.length) {
  // the journeys' server serves the built runtime: build it when its sources changed (cheap when not)
  status ||= run('npx', ['tsx', 'tools/build-if-stale.ts', '--runtime-only']);
  status ||= run('npx', ['playwright', 'test', ...selection.journeys]);
}
process.exit(status);
