/**
 * Puts a failing journey's steps into its journey-log.txt (journey-log.ts `withSteps`), so that the
 * log CI prints says what the test did beside what its pages did: "Double click" at 41.20 s, then
 * which answers came and which never did. The steps are known to the reporter only (Playwright's
 * public reporter API); the log is written by the journey's fixture, in the journey's output folder
 * beside its other artifacts, before the journey's end reaches here.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { withSteps } from './journey-log';

export default class JourneyStepsReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === test.expectedStatus) return;
    const folders = new Set(result.attachments.flatMap((attachment) => (attachment.path ? [dirname(attachment.path)] : [])));
    for (const folder of folders) {
      const log = join(folder, 'journey-log.txt');
      if (!existsSync(log)) continue;
      try {
        writeFileSync(log, withSteps(readFileSync(log, 'utf8'), result.steps));
      } catch (error) {
        // the log without its steps is still worth reading
        console.error(`journey-steps-reporter: ${log}: ${error instanceof Error ? error.message : String(error)}`);
      }
      return;
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}
