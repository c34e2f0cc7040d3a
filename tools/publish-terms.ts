/**
 * npm run terms -- --group REGULAMIN --name "Regulamin Portalu Klienta" --file regulamin-2027.pdf
 * npm run terms -- --list
 * npm run terms -- --withdraw --group NAZWA_GRUPY
 *
 * Publishes a PDF as the new current version of a terms document group in the database of
 * DATABASE_URL (optional DATABASE_SCHEMA) or the PGlite folder DATA_DIR (default ./data), the same
 * database `npm start` uses. Users and managers accept it at their next call.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openDatabase } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { publishTermsVersion, withdrawTermsGroup } from '../server/terms/publish.ts';

async function main() {
  const { values } = parseArgs({
    options: {
      group: { type: 'string' }, name: { type: 'string' }, file: { type: 'string' },
      list: { type: 'boolean' }, withdraw: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || (!values.list && !values.group)) {
    console.log('Usage: npm run terms -- --group GROUP --name "Name" --file document.pdf | --list | --withdraw --group GROUP');
    return;
  }
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const handle = await openDatabase({
    databaseUrl,
    dataDir: databaseUrl ? undefined : process.env.DATA_DIR || './data',
    schema: databaseUrl ? process.env.DATABASE_SCHEMA || undefined : undefined,
  });
  try {
    await migrateToLatest(handle.db);
    if (values.list) {
      const rows = await handle.db.selectFrom('terms_template').select(['id', 'grupa', 'name', 'version', 'current', 'createdAt'])
        .orderBy('grupa').orderBy('version').execute();
      for (const r of rows) console.log(`${r.current ? '*' : ' '} #${r.id} ${r.grupa} v${r.version} "${r.name}" (${new Date(r.createdAt).toISOString().slice(0, 10)})`);
    } else if (values.withdraw) {
      console.log(`withdrawn: ${await withdrawTermsGroup(handle.db, values.group!)} document(s) of ${values.group}`);
    } else {
      if (!values.name || !values.file) throw new Error('--name and --file are required');
      const published = await publishTermsVersion(handle.db, { group: values.group!, name: values.name, pdf: readFileSync(values.file) });
      console.log(`published ${values.group} version ${published.version} (#${published.id}); it is now the current document`);
    }
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  console.error(`terms: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
