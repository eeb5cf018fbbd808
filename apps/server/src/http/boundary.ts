import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
  onRequestHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
} from 'fastify';
import type { Auth } from './auth';
import { HttpError } from '../errors';

/**
 * Longest path parameter the router accepts. Fastify's default (100) answers longer ones before
 * any route runs; past it, each route's own contract (usually 64 characters) says what is wrong,
 * after authentication.
 */
const MAX_PARAM_LENGTH = 2048;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Half of a surrogate pair without its other half: JSON can carry it, UTF-8 cannot. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Answers Fastify gives before a route is known, in the API's `{"detail": string}` shape. */
function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const detail =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A part of the address is too long.'
      : 'The address is not valid: it must be UTF-8 text.';
  return reply.code(error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400).send({ detail });
}

/** Errors Node answers before Fastify sees a request (header or URL too long, bad framing). */
function clientError(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const [status, reason, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers or address are too long.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive.']
        : [400, 'Bad Request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Fastify options that keep its own answers in the API's error shape. */
export const boundaryServerOptions = {
  frameworkErrors: frameworkError,
  clientErrorHandler: clientError,
  routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
} satisfies FastifyServerOptions;

/** Why a text is refused, or undefined when it may reach the services and the database. */
function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(value)) return 'is not valid Unicode text';
  return undefined;
}

/** The first string in a parsed value (keys included) that must not go further, with its path. */
function findInvalidText(value: unknown): { path: string; problem: string } | undefined {
  // Iterative: a body of deeply nested arrays must not exhaust the stack.
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return { path, problem };
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push([item, `${path}[${index}]`]));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const keyProblem = textProblem(key);
        if (keyProblem) return { path: path || 'a name', problem: keyProblem };
        pending.push([item, path ? `${path}.${key}` : key]);
      }
    }
  }
  return undefined;
}

/** Percent-encoded bytes of the raw query that are not UTF-8: the parser would pass them on. */
function rawQueryIsUtf8(url: string): boolean {
  const start = url.indexOf('?');
  if (start === -1) return true;
  for (const piece of url.slice(start + 1).split(/[&=]/)) {
    try {
      decodeURIComponent(piece.replaceAll('+', ' '));
    } catch {
      return false;
    }
  }
  return true;
}

function refuseInvalidText(request: FastifyRequest) {
  if (!rawQueryIsUtf8(request.url)) {
    throw new HttpError(400, 'Invalid querystring: it must be UTF-8 text.');
  }
  const parts = [
    ['path', request.params],
    ['querystring', request.query],
    ['body', request.body],
  ] as const;
  for (const [where, value] of parts) {
    const found = findInvalidText(value);
    if (found) {
      const field = found.path ? `${found.path} ` : '';
      throw new HttpError(400, `Invalid ${where}: ${field}${found.problem}.`);
    }
  }
}

/**
 * The API's edge, for every route, including those added later:
 * - authentication first: `auth.requireUser`/`identifyUser` given as a route's `preHandler` are
 *   moved to its `onRequest`, before the body is read and the input validated, so an anonymous
 *   call answers 401 whatever it sends (not 400, 413 or 415);
 * - text that PostgreSQL cannot store or compare (NUL, invalid UTF-8, lone surrogates) is refused
 *   in path, query and body with a 400, before the route's contract and long before SQL;
 * - personal answers are never kept by browsers or proxies: every `/api/` answer without its own
 *   caching header says `no-store`.
 * Call before the routes are registered.
 */
export function guardTheBoundary(app: FastifyInstance, auth: Auth): void {
  const authentication = new Set<unknown>([auth.requireUser, auth.requireAdmin, auth.identifyUser]);
  app.addHook('onRoute', (route) => {
    // Given as a preHandler or a preValidation hook, an authentication check runs first anyway.
    const preHandlers = [route.preHandler ?? []].flat();
    const preValidations = [route.preValidation ?? []].flat();
    const lifted = [...preHandlers, ...preValidations].filter((hook) => authentication.has(hook));
    if (lifted.length === 0) return;
    route.preHandler = preHandlers.filter(
      (hook) => !authentication.has(hook),
    ) as preHandlerHookHandler[];
    route.preValidation = preValidations.filter(
      (hook) => !authentication.has(hook),
    ) as preValidationHookHandler[];
    route.onRequest = [
      ...[route.onRequest ?? []].flat(),
      ...(lifted as unknown as onRequestHookHandler[]),
    ];
  });

  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      done(new HttpError(400, 'Invalid body: it must be UTF-8 text.'), undefined);
      return;
    }
    parseJson(request, text, done);
  });

  app.addHook('preValidation', async (request) => {
    if (request.url.startsWith('/api/')) refuseInvalidText(request);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
