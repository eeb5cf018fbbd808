import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { allowAuthorization, validateAuthorizeRequest } from '../accounts/authorize';
import type { AuthorizationStore } from '../accounts/store';
import type { ClientRegistry } from '../clients';
import type { SandboxClock } from '../clock';
import { faultConfigSchema, isoInstant } from '../faults/config';
import type { FaultInjector } from '../faults/injector';
import type { AccountDirectory } from '../world/account';

export interface ControlApiDeps {
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token: string | undefined;
  clock: SandboxClock;
  faults: FaultInjector;
  store: AuthorizationStore;
  clients: ClientRegistry;
  accounts: AccountDirectory;
}

const clockAction = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('freeze'), at: isoInstant.optional() }),
  z.strictObject({ action: z.literal('unfreeze') }),
  z.strictObject({ action: z.literal('advance'), ms: z.number().int().min(0) }),
  z.strictObject({ action: z.literal('set'), at: isoInstant }),
]);

const tokenSettings = z.strictObject({
  accessTokenTtlSec: z
    .number()
    .int()
    .min(1)
    .max(365 * 24 * 3600),
});

const revocation = z.strictObject({ client_id: z.string().min(1).optional() });

const modeChange = z.strictObject({ mode: z.enum(['extended', 'development']) });

const headlessConsent = z.strictObject({
  client_id: z.string(),
  redirect_uri: z.string(),
  account: z.string(),
  scope: z.string().optional(),
  state: z.string().optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.string().optional(),
});

class ControlError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw new ControlError(400, z.prettifyError(result.error));
  return result.data;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The sandbox's control API (not part of Spotify's surface), JSON in and out, errors
 * `{"detail": "..."}`:
 *
 * - `GET state` → `{clock: {now, frozen}, faults, tokens: {accessTokenTtlSec},
 *   clients: [{id, mode}]}`
 * - `PUT faults` (the whole configuration, see `faults/config.ts`) → it, normalized;
 *   `DELETE faults` → 204
 * - `POST clock` `{action: "freeze", at?} | {action: "unfreeze"} | {action: "advance", ms}
 *   | {action: "set", at}` (ISO instants) → `{now, frozen}`
 * - `PUT tokens` `{accessTokenTtlSec}` (for tokens issued afterwards);
 *   `POST tokens/expire` → `{expired}` (every access token expires now)
 * - `POST accounts/{id}/revoke` `{client_id?}` → `{revoked}` (grants)
 * - `PUT clients/{id}/mode` `{mode: "extended" | "development"}` → `{id, mode}`
 * - `POST authorize` `{client_id, redirect_uri, account, scope?, state?, code_challenge?,
 *   code_challenge_method?}` → `{redirect_to}`: the consent page's "allow", without a browser
 */
export function controlApi(deps: ControlApiDeps): FastifyPluginAsync {
  const { clock, faults, store, clients, accounts } = deps;
  const expected = deps.token === undefined ? undefined : digest(deps.token);

  const clockState = () => {
    const { now, frozen } = clock.state();
    return { now: new Date(now).toISOString(), frozen };
  };

  return async (app) => {
    app.setErrorHandler<FastifyError>((error, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'spotify-sandbox: control request failed');
        return reply.code(500).send({ detail: 'Control request failed' });
      }
      return reply.code(status).send({ detail: error.message });
    });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found' }));

    app.addHook('onRequest', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (expected === undefined) return undefined;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      if (match?.[1] && timingSafeEqual(digest(match[1]), expected)) return undefined;
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="spotify-sandbox-control"')
        .send({ detail: 'This control API needs its token: Authorization: Bearer <token>' });
    });

    app.get('/state', async () => ({
      clock: clockState(),
      faults: faults.describe(),
      tokens: { accessTokenTtlSec: store.accessTokenTtlSec },
      clients: clients.list().map(({ id, mode }) => ({ id, mode })),
    }));

    app.put('/faults', async (request) => {
      faults.configure(parse(faultConfigSchema, request.body));
      return faults.describe();
    });

    app.delete('/faults', async (_request, reply) => {
      faults.clear();
      return reply.code(204).send();
    });

    app.post('/clock', async (request) => {
      const body = parse(clockAction, request.body);
      switch (body.action) {
        case 'freeze':
          clock.freeze(body.at === undefined ? undefined : new Date(body.at));
          break;
        case 'unfreeze':
          clock.unfreeze();
          break;
        case 'advance':
          clock.advance(body.ms);
          break;
        case 'set':
          clock.set(new Date(body.at));
          break;
      }
      return clockState();
    });

    app.put('/tokens', async (request) => {
      store.setAccessTokenTtl(parse(tokenSettings, request.body).accessTokenTtlSec);
      return { accessTokenTtlSec: store.accessTokenTtlSec };
    });

    app.post('/tokens/expire', async () => {
      const expired = store.expireAccessTokens();
      await store.save();
      return { expired };
    });

    app.post<{ Params: { id: string } }>('/accounts/:id/revoke', async (request) => {
      const { client_id: clientId } = parse(revocation, request.body);
      if (!accounts.get(request.params.id)) {
        throw new ControlError(404, `No account "${request.params.id}"`);
      }
      if (clientId !== undefined && !clients.get(clientId)) {
        throw new ControlError(404, `No client "${clientId}"`);
      }
      const revoked = store.revokeGrants(request.params.id, clientId);
      await store.save();
      return { revoked };
    });

    app.put<{ Params: { id: string } }>('/clients/:id/mode', async (request) => {
      const { mode } = parse(modeChange, request.body);
      const client = clients.setMode(request.params.id, mode);
      if (!client) throw new ControlError(404, `No client "${request.params.id}"`);
      return { id: client.id, mode: client.mode };
    });

    app.post('/authorize', async (request, reply) => {
      const { account, ...fields } = parse(headlessConsent, request.body);
      const params = new URLSearchParams({ response_type: 'code' });
      for (const [name, value] of Object.entries(fields)) {
        if (value !== undefined) params.set(name, value);
      }
      const validation = validateAuthorizeRequest(params, clients);
      if (validation.outcome === 'page') throw new ControlError(400, validation.message);
      if (validation.outcome === 'redirect') {
        const error = new URL(validation.location).searchParams.get('error');
        return reply.code(400).send({
          detail: `The authorize request was refused: ${error}`,
          redirect_to: validation.location,
        });
      }
      if (!accounts.get(account)) throw new ControlError(400, `No account "${account}"`);
      return { redirect_to: await allowAuthorization(store, validation.request, account) };
    });
  };
}
