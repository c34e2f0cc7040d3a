/**
 * The one error type routes throw. `detail` is what the runtime shows (Polish, or one of the
 * spec's machine details such as 'User credentials have expired'); `errors` name fields.
 */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly detail: string,
    /** Spread into the answer's body: its code, the fields' messages, and what a route's error schema adds (a stale draft's newer version). */
    public readonly extra: { code?: string; errors?: { field: string; message: string }[]; [more: string]: unknown } = {},
  ) {
    super(detail);
  }
}
