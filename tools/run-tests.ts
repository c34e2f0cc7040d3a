/**
 * `npm test`: every test of the project, in the order that fails fastest (checks, unit and API
 * tests, the build and its size budget, then the browser journeys), each part timed, with the
 * times printed at the end — so CI's log says which part grew before CI nears its time limit.
 * Stops at the first part that fails, as `a && b && c` did.
 */
import { spawnSync } from 'node:child_process';

const parts: Array<[name: string, command: string]> = [
  ['check', 'npm run check'],
  [`vitest (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, 'vitest run'],
  ['build', 'npm run build'],
  ['size', 'tsx tools/size-budget.ts'],
  ['playwright', 'playwright test'],
];

const times: string[] = [];
const started = Date.now();
// the Node every part runs on (the project's own `node` dependency, first on npm scripts' PATH)
console.log(`npm test on Node ${process.version}`);
let failed: string | undefined;
for (const [name, command] of parts) {
  const t0 = Date.now();
  console.log(`\n=== ${name}: ${command} ===`);
  const result = spawnSync(command, { stdio: 'inherit', shell: true });
  times.push(`${name.padEnd(24)} ${((Date.now() - t0) / 1000).toFixed(0).padStart(5)} s`);
  if (result.status !== 0) {
    failed = name;
    break;
  }
}
console.log(`\n=== npm test: times (Node ${process.version}) ===\n${times.join('\n')}\n${'total'.padEnd(24)} ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s`);
if (failed) {
  console.error(`npm test: "${failed}" failed`);
  process.exit(1);
}
