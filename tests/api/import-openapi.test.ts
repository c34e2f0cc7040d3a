/**
 * Issue 34: the OpenAPI document names the importable resources and their fields, so an integrator's
 * generated client types the JSON lines of a run (components import-row-<declaration>).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); }, 120_000);
afterAll(async () => { await t?.close(); });

it('publishes a JSON line schema per import declaration, with its fields, types, required ones and file headings', async () => {
  const document = (await t.call('GET', '/api/docs/json')).json();
  const schemas = document.components.schemas;
  const car = schemas['import-row-car'];
  expect(car.required).toEqual(expect.arrayContaining(['nrPodw', 'rejestr']));
  expect(car.properties.nrPodw).toMatchObject({ type: 'string', description: expect.stringContaining('VIN') });
  expect(car.properties.dataRej).toMatchObject({ type: 'string', format: 'date' });
  expect(schemas['import-row-mileage-reading'].properties).toHaveProperty('licznik');
  // every declaration of the configuration that takes rows is there; an import of files is not
  const rows = Object.keys(schemas).filter((name) => name.startsWith('import-row-')).map((name) => name.slice('import-row-'.length));
  expect(rows).toEqual(expect.arrayContaining(['car', 'mileage-reading', 'employee', 'contract', 'fuel-card', 'tire', 'assignment', 'invoice', 'client', 'unit']));
  expect(rows).not.toContain('invoice-file');
  // and the run's JSON lines body refers to them
  const createRun = document.paths['/api/import/runs'].post;
  const ndjson = createRun.requestBody.content['application/x-ndjson'].schema.anyOf.map((s: { $ref: string }) => s.$ref);
  expect(ndjson).toContain('#/components/schemas/import-row-car');
  expect(ndjson).toHaveLength(rows.length);
});
