/**
 * A library the portal needs only for some requests (spreadsheets, PDFs, passkeys), loaded on its
 * first use instead of at start-up. Loading exceljs, xlsx, pdf-lib with fontkit and
 * @simplewebauthn/server took ~1.5 s of a process's ~9 s start (a CPU profile of
 * dist-server/main.js, 4 December 2026): every worker of WORKERS=N, every restart and every test
 * that starts the portal as a process paid it, though most processes never write a spreadsheet.
 * The first caller waits for the import once; later ones get the loaded module at once.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined; // a failed load (a missing package) is tried again by the next caller
      throw error;
    });
    return loading;
  };
}
