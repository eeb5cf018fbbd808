import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters that carry a secret: OAuth codes and state, PKCE verifiers, tokens. */
const SECRET_PARAMETERS = new Set([
  'code',
  'state',
  'code_verifier',
  'access_token',
  'refresh_token',
  'token',
  'client_secret',
]);

const REDACTED = '[redacted]';

/** A request's address as logged: secret query values replaced, the rest kept for debugging. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      return SECRET_PARAMETERS.has(name) && pair.includes('=') ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/**
 * Drizzle's failed-query errors list the query's parameters (tokens, verifiers, whatever the user
 * sent): the query stays in the log, its values do not.
 */
function redactText(text: string | undefined): string {
  return (text ?? '').replace(/\nparams: [^\n]*/g, `\nparams: ${REDACTED}`);
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: unknown;
  statusCode?: unknown;
  cause?: LoggedError;
}

function serializeError(error: unknown, depth: number): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return {
    type: error.constructor.name,
    message: redactText(error.message),
    stack: redactText(error.stack),
    ...(code !== undefined && { code }),
    ...(statusCode !== undefined && { statusCode }),
    ...(error.cause !== undefined &&
      depth < 5 && { cause: serializeError(error.cause, depth + 1) }),
  };
}

/**
 * The options of every process's logger: what is logged of requests and errors never holds a
 * login's secrets or a query's parameters.
 */
export function redactingLoggerOptions(level: string) {
  return {
    level,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
      err: (error: Error) => serializeError(error, 0),
    },
  } satisfies FastifyServerOptions['logger'];
}
