/** The "how" part of docs/benchmarks.md: what makes the figures what they are. */
export const EXPLANATION = `
## How

- **Keyset paging.** Every /table2 answer carries an opaque, signed cursor for its last row (sort
  value and key in the database's own text form, so a timestamp keeps its microseconds). The
  runtime sends it with the request for the next block, and the server reads
  \`WHERE (rejestr, autId) > (…) ORDER BY rejestr, autId LIMIT 30\`: an index range scan that costs
  the same at row 30 and at row 500 000. Orders of one column plus the key use it; other orders
  (several sort columns) fall back to OFFSET. A cursor of another query is ignored, a forged one is
  refused (400).
- **The key follows the sort direction** (\`rejestr desc, autId desc\`), so one (column, key) index
  serves both directions with a backward scan.
- **Jumps.** Into the second half of a list whose count is exact, the block is read from the end
  with a small OFFSET (the last block costs what the first does). Elsewhere a jump reads the block's
  keys first (an index-only scan counts the skipped rows in the index), then the 30 rows by key.
- **Indexes** (migration 005): (column, key) for ADMIN and (klientSymbol, column, key) for a MANAGER,
  for every sortable column of the orders and vehicles lists, the orders' ones with the status as an
  INCLUDE column, so the most used filter is checked inside the index. The views take joined columns
  through scalar subqueries, so a count or a key list never touches the joined tables.
- **Counts** are exact up to the cap (tables.countCap in screens/app.json): at most cap + 1 index
  entries are counted. Beyond the cap the answer is the planner's estimate (EXPLAIN of the same
  scoped, filtered query), shown as "około …"; the grid then grows as the user scrolls.
- **Excel export** reads the exported columns only, in blocks of 1000 chained by keyset cursors,
  straight into a dense sheet (one array per row), which the \`xlsx\` package then writes; the file
  goes into the database with its one-time token and leaves it with the download. Its SQL is the
  count and the 20 blocks; the rest of its time is building and compressing the file. Its memory is
  measured with the server in a process of its own (Linux's resident-size high-water mark, reset
  before the exports), so nothing of the bench is counted.
- **API vs SQL.** Every API call also checks the session (from the process's session cache, no
  round trip, while it is valid: server/auth/session-cache.ts), records the request's nonce (the
  replay protection of signed requests: committed without waiting for fsync; a read-only route
  such as a table block records it beside its query instead of before it; nonces arriving while
  an insert runs go together in the next one, server/auth/nonce-ledger.ts), checks the HMAC
  signature, and sends the rows as JSON over HTTP, serialised through the entity's schema and
  compressed (brotli, as the browser asks). The bench's client (node:http in the bench's process,
  on the same two cores) decompresses and parses each answer. Against SQL that takes a
  millisecond or two, that fixed cost dominates the ratio.
`;

export const RATIO_NOTE =
  'The SQL takes a few milliseconds at most, and every API call adds a fixed cost of about three milliseconds on this machine (the API − SQL column): HTTP both ways, the signature check, the nonce (recorded beside the query), JSON and brotli compression in the server, decompression and parsing in the bench\'s client — all on the same two cores as PostgreSQL. The ratio holds where the SQL itself takes longer; the absolute time stays far under the 30 ms target.';
