/**
 * `npm run check`: every static check of the project, in two lanes at once. The type check (tsc,
 * ~70 s on CI's machine) takes one core for its whole run and the other checks (~85 s together,
 * each a process of its own) the other core, one after another: the wall time is the longer lane,
 * not the sum (measured on this 2-core machine, 4 December 2026: 156 s one after another).
 * Each check's output is printed whole when it ends, under its name and time, so two lanes never
 * interleave their lines; the command fails when any check fails, naming it.
 */
import { spawn } from 'node:child_process';

const lanes: string[][] = [
  ['tsc --noEmit -p tsconfig.json'],
  [
    'tsx tools/check-config.ts',
    'tsx tools/gen-types.ts --check',
    'tsx tools/gen-db-types.ts --check',
    'tsx tools/check-cycles.ts',
    'tsx tools/check-layers.ts',
    'tsx tools/check-no-any.ts',
    'tsx tools/check-db-typing.ts',
    'tsx tools/check-route-writes.ts',
    'tsx tools/check-openapi.ts',
    'tsx tools/check-alert-rules.ts',
  ],
];

/** Runs one check with its output kept, and prints it whole when the check ends. */
function run(command: string): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n--- ${command} (${seconds} s${code === 0 ? '' : `, failed with ${code}`}) ---\n${Buffer.concat(output).toString()}`);
      resolve(code === 0);
    });
  });
}

/** A lane's checks one after another; it stops at its first failure, as `a && b` did. */
async function runLane(commands: string[]): Promise<string | undefined> {
  for (const command of commands) if (!(await run(command))) return command;
  return undefined;
}

const failed = (await Promise.all(lanes.map(runLane))).filter((command): command is string => command !== undefined);
if (failed.length > 0) {
  console.error(`\nnpm run check failed: ${failed.join('; ')}`);
  process.exit(1);
}
