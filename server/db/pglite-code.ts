/**
 * pglite.wasm compiled once in the process, and its file bundle read once, for every PGlite
 * instance the process opens: the portal's own database, a backup's restore, every test database.
 * A test worker creates and closes hundreds of PGlite instances; with each instance's code compiled
 * and freed again, V8 aborted a worker on CI ("Check failed: jit_page_->allocations_.erase(addr) ==
 * 1", the JIT page registry's churn under PGlite, nodejs/node#64500). One module held for the
 * process keeps its code, so instances only instantiate it.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PGliteCode {
  pgliteWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

let shared: Promise<PGliteCode> | undefined;

/** The options every `PGlite.create` of this process spreads in: `PGlite.create({ ...(await pgliteCode()), … })`. */
export function pgliteCode(): Promise<PGliteCode> {
  shared ??= (async () => {
    const dist = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    const [wasm, bundle] = await Promise.all([readFile(join(dist, 'pglite.wasm')), readFile(join(dist, 'pglite.data'))]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([bundle]) };
  })();
  return shared;
}
