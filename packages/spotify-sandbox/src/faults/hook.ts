import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AuthorizationStore } from '../accounts/store';
import { parseBasic } from '../accounts/token';
import { formParams } from '../http/form';
import { checkBearer } from '../web-api/auth';
import { sendApiError } from '../web-api/errors';
import type { FaultInjector, FaultOutcome, FaultTarget } from './injector';

const TOKEN_PATH = '/accounts/api/token';

const WEB_API_MESSAGES = {
  500: 'Server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
} as const;

/*
 * The accounts service answers in its own shape; with no captured sample of its 429 or 5xx
 * bodies, the error codes are RFC 6749's.
 */
const ACCOUNTS_ERRORS = {
  429: { error: 'temporarily_unavailable', error_description: 'Too many requests' },
  500: { error: 'server_error', error_description: 'Server error' },
  502: { error: 'server_error', error_description: 'Bad gateway' },
  503: { error: 'temporarily_unavailable', error_description: 'Service unavailable' },
} as const;

type Service = 'web-api' | 'accounts';

/**
 * Applies the injector's faults to the Web API and the token endpoint of the sandbox registered
 * on `app` (call before its services are registered). Web API requests are judged in `onRequest`,
 * before anything else runs; token requests in `preValidation`, once the form is parsed (a
 * public client names itself there) but still before any authentication.
 */
export function injectFaults(
  app: FastifyInstance,
  deps: { faults: FaultInjector; store: AuthorizationStore },
): void {
  const root = app.prefix;

  app.addHook('onRequest', async (request, reply) => {
    const path = sandboxPath(request.url, root);
    if (path !== '/v1' && !path.startsWith('/v1/')) return;
    const bearer = checkBearer(request.headers.authorization, deps.store);
    const clientId = bearer.ok ? bearer.token.clientId : undefined;
    return apply(reply, 'web-api', { path, clientId });
  });

  app.addHook('preValidation', async (request, reply) => {
    const path = sandboxPath(request.url, root);
    if (path !== TOKEN_PATH) return;
    const authorization = request.headers.authorization;
    const clientId =
      (authorization === undefined ? undefined : parseBasic(authorization)?.id) ??
      formParams(request.body).get('client_id') ??
      undefined;
    return apply(reply, 'accounts', { path, clientId });
  });

  async function apply(
    reply: FastifyReply,
    service: Service,
    target: FaultTarget,
  ): Promise<FastifyReply | undefined> {
    const { delayMs, outcome } = deps.faults.decide(target);
    if (delayMs > 0) await sleep(delayMs);
    if (outcome.kind === 'none') return undefined;
    return answer(reply, service, outcome);
  }
}

function answer(
  reply: FastifyReply,
  service: Service,
  outcome: Exclude<FaultOutcome, { kind: 'none' }>,
): FastifyReply {
  if (outcome.kind === 'drop') {
    // Destroying the response closes the connection without an answer.
    reply.hijack();
    reply.raw.destroy();
    return reply;
  }
  if (outcome.kind === 'rate-limit') {
    reply.header('retry-after', String(outcome.retryAfterSec));
    if (service === 'web-api') return sendApiError(reply, 429, 'API rate limit exceeded');
    return reply.code(429).header('cache-control', 'no-store').send(ACCOUNTS_ERRORS[429]);
  }
  const { status } = outcome;
  if (service === 'web-api') return sendApiError(reply, status, WEB_API_MESSAGES[status]);
  return reply.code(status).header('cache-control', 'no-store').send(ACCOUNTS_ERRORS[status]);
}

/** The request's path below the sandbox root, without the query. */
function sandboxPath(url: string, root: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.startsWith(root) ? path.slice(root.length) : path;
}
