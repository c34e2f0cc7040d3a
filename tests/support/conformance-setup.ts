/**
 * Vitest setup file (vitest.config.ts): every application a test builds with `buildApp` is
 * watched for conformance with its OpenAPI document (tests/support/conformance.ts), and the test
 * file fails in its afterAll when any answer it received did not conform, naming each.
 */
import { afterAll, vi } from 'vitest';
import { conformanceReport } from './conformance.ts';

vi.mock('../../server/app.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../server/app.ts')>();
  const { watchConformance } = await import('./conformance.ts');
  return { ...original, buildApp: async (...args: Parameters<typeof original.buildApp>) => watchConformance(await original.buildApp(...args)) };
});

afterAll(() => {
  const report = conformanceReport();
  if (report) throw new Error(report);
});
