/**
 * Errors every layer may throw. Services raise an HttpError when a request cannot be served as
 * asked; the HTTP layer (http/errors.ts) turns it into `{"detail": message}` with its status.
 */
/** An error whose message is safe to show: answered as `{"detail": message}` with `statusCode`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Headers sent with the answer, e.g. `retry-after`. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}
