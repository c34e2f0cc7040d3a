/**
 * `npm run new-variant -- <folder> "<Name>"`: starts a client variant with the folders that
 * mirror the base configuration and a variant.json to fill in (see docs/configuration.md).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [folder, name] = process.argv.slice(2);
if (!folder || !/^[a-z][a-z0-9-]*$/.test(folder)) {
  console.error('Usage: npm run new-variant -- <folder: lower-case letters, digits, hyphens> "<Name>"');
  process.exit(2);
}
const dir = join(resolve(import.meta.dirname, '..'), 'client-variants', folder);
if (existsSync(dir)) {
  console.error(`client-variants/${folder} already exists`);
  process.exit(2);
}
for (const sub of ['screens', 'schemas/entities', 'schemas/resources', 'locales/pl', 'assets']) mkdirSync(join(dir, sub), { recursive: true });
writeFileSync(
  join(dir, 'variant.json'),
  JSON.stringify({ $schema: '../../schemas/meta/variant.schema.json', schemaVersion: 1, name: name ?? folder, hosts: [`${folder}.localhost`], app: { config: {} } }, null, 2) + '\n',
);
console.log(`Created client-variants/${folder}, served at http://${folder}.localhost:3000 (its "hosts" in variant.json; docs/variants.md).`);
console.log('Add overlay files with the same names as in screens/, schemas/ and locales/pl/, check them with `npm run check`, and let the administrator\'s refresh (/app/refresh) pick the variant up, or restart the server.');
console.log('To see it working with a client of its own, add a demo.json (schemas/meta/variant-demo.schema.json; client-variants/p/demo.json is a short one), claim its client in variant.json "clients", and seed a fresh database (docs/variants.md).');
