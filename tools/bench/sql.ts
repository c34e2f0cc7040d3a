/**
 * "The same SQL run directly": the server's kysely instance logs every query it runs; while one
 * API call is being recorded, the bench keeps the table queries it ran (those reading a `v_…`
 * view, and their EXPLAIN), exactly as compiled, with their parameters. The bench then replays
 * them on a plain pg connection with the server's session settings, so API and database are
 * timed on identical SQL.
 */
import type { LogEvent } from 'kysely';
import pg from 'pg';

export interface CapturedQuery {
  sql: string;
  parameters: readonly unknown[];
}

const TABLE_QUERY = /\bfrom "v_[a-z_]+"|^explain /;

export class SqlRecorder {
  private recording: CapturedQuery[] | null = null;
  private pattern = TABLE_QUERY;

  /** Pass as `log` to openDatabase. */
  readonly log = (event: LogEvent) => {
    if (this.recording && event.level === 'query' && this.pattern.test(event.query.sql)) {
      this.recording.push({ sql: event.query.sql, parameters: event.query.parameters });
    }
  };

  /** Records the statements `fn` makes the server run: the table reads, or those `pattern` names. */
  async record(fn: () => Promise<unknown>, pattern: RegExp = TABLE_QUERY): Promise<CapturedQuery[]> {
    this.recording = [];
    this.pattern = pattern;
    try {
      await fn();
      return this.recording;
    } finally {
      this.recording = null;
      this.pattern = TABLE_QUERY;
    }
  }
}

/** One connection with the server's session settings (connect.ts): schema, time zone, no JIT. */
export async function directConnection(databaseUrl: string, schema: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c TimeZone=Europe/Warsaw -c jit=off -c search_path=${schema}` });
  await client.connect();
  return client;
}

export async function replay(client: pg.Client, queries: readonly CapturedQuery[], transactional = false): Promise<void> {
  if (transactional) await client.query('begin');
  for (const q of queries) await client.query(q.sql, [...q.parameters]);
  if (transactional) await client.query('commit');
}

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; 'Parent Relationship'?: string; Plans?: PlanNode[] };

/**
 * How each query reaches its rows: the scans of its plan, e.g. "Index Only Scan
 * service_order_klientSymbol_rejestr_autId_idx". Sub-plans (the per-row lookups of a view's
 * joined columns) are left out.
 */
export async function accessPaths(client: pg.Client, queries: readonly CapturedQuery[]): Promise<string[]> {
  const paths: string[] = [];
  const walk = (n: PlanNode) => {
    if (n['Parent Relationship'] === 'SubPlan') return;
    if (/Scan/.test(n['Node Type']) && n['Relation Name']) paths.push(`${n['Node Type']} ${n['Index Name'] ?? n['Relation Name']}`);
    for (const child of n.Plans ?? []) walk(child);
  };
  for (const q of queries) {
    if (q.sql.startsWith('explain')) continue;
    const { rows } = await client.query(`explain (format json) ${q.sql}`, [...q.parameters]);
    const cell = Object.values(rows[0])[0];
    walk(((typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[])[0].Plan);
  }
  return [...new Set(paths)];
}
