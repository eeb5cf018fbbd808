import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ClientRegistry } from '../clients';
import { formParams, repeatedParam } from '../http/form';
import type { SandboxClient } from '../plugin';
import type { AuthorizationStore, IssuedTokens } from './store';

const TOKEN_PARAMS = [
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'refresh_token',
  'client_id',
  'client_secret',
] as const;

/** RFC 7636: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

interface TokenError {
  status: 400 | 401;
  error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';
  description: string;
}

function badRequest(error: TokenError['error'], description: string): TokenError {
  return { status: 400, error, description };
}

function invalidClient(description: string): TokenError {
  return { status: 401, error: 'invalid_client', description };
}

/** Who is calling: `authenticated` when the client proved its secret (Basic or form fields). */
interface Caller {
  client: SandboxClient;
  authenticated: boolean;
}

function identifyCaller(
  authorization: string | undefined,
  params: URLSearchParams,
  clients: ClientRegistry,
): Caller | TokenError {
  const bodyClientId = params.get('client_id');
  let clientId = bodyClientId;
  let secret = params.get('client_secret');
  if (authorization !== undefined) {
    const basic = parseBasic(authorization);
    if (!basic) return invalidClient('Invalid client');
    if (bodyClientId !== null && bodyClientId !== basic.id) return invalidClient('Invalid client');
    clientId = basic.id;
    secret = basic.secret;
  }
  const client = clientId === null ? undefined : clients.get(clientId);
  if (!client) return invalidClient('Invalid client');
  if (secret === null) return { client, authenticated: false };
  if (client.secret === undefined || !sameSecret(secret, client.secret)) {
    return invalidClient('Invalid client secret');
  }
  return { client, authenticated: true };
}

/** RFC 6749 §2.3.1: id and secret are form-encoded before they are joined and base64-encoded. */
export function parseBasic(header: string): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  const formDecode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

function sameSecret(given: string, expected: string): boolean {
  const hash = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(hash(given), hash(expected));
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function isError(value: object): value is TokenError {
  return 'error' in value;
}

function sendTokenError(reply: FastifyReply, failure: TokenError, usedBasic: boolean) {
  if (failure.status === 401 && usedBasic) {
    reply.header('www-authenticate', 'Basic realm="spotify"');
  }
  return reply
    .code(failure.status)
    .header('cache-control', 'no-store')
    .send({ error: failure.error, error_description: failure.description });
}

function sendTokens(reply: FastifyReply, tokens: IssuedTokens) {
  return reply
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({
      access_token: tokens.accessToken,
      token_type: 'Bearer',
      scope: tokens.scopes.join(' '),
      expires_in: tokens.expiresInSec,
      refresh_token: tokens.refreshToken,
    });
}

export interface TokenDeps {
  clients: ClientRegistry;
  store: AuthorizationStore;
}

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token', 'client_credentials']);

/**
 * `POST /api/token`: the authorization_code (with PKCE or a secret), refresh_token and
 * client_credentials grants.
 */
export function tokenRoutes({ clients, store }: TokenDeps): FastifyPluginAsync {
  function exchangeCode(params: URLSearchParams, caller: Caller): IssuedTokens | TokenError {
    const value = params.get('code');
    if (value === null) return badRequest('invalid_request', 'code must be supplied');
    const redeemed = store.redeemCode(value);
    if (!redeemed.ok) {
      return redeemed.reason === 'expired'
        ? badRequest('invalid_grant', 'Authorization code expired')
        : badRequest('invalid_grant', 'Invalid authorization code');
    }
    const code = redeemed.value;
    if (code.clientId !== caller.client.id) {
      return badRequest('invalid_grant', 'Invalid authorization code');
    }
    if (params.get('redirect_uri') !== code.redirectUri) {
      return badRequest('invalid_grant', 'Invalid redirect URI');
    }
    if (code.codeChallenge !== null) {
      const verifier = params.get('code_verifier');
      if (verifier === null) return badRequest('invalid_request', 'code_verifier required');
      if (!CODE_VERIFIER.test(verifier) || s256(verifier) !== code.codeChallenge) {
        return badRequest('invalid_grant', 'code_verifier was incorrect');
      }
    } else if (!caller.authenticated) {
      return invalidClient('Invalid client secret');
    }
    return store.authorize({
      clientId: code.clientId,
      accountId: code.accountId,
      scopes: code.scopes,
      pkce: code.codeChallenge !== null,
    });
  }

  function refresh(params: URLSearchParams, caller: Caller): IssuedTokens | TokenError {
    const presented = params.get('refresh_token');
    if (presented === null) return badRequest('invalid_request', 'refresh_token must be supplied');
    const found = store.findGrantByRefreshToken(presented);
    if (!found.ok) {
      const description = {
        expired: 'Refresh token expired',
        revoked: 'Refresh token revoked',
        invalid: 'Invalid refresh token',
      }[found.reason];
      return badRequest('invalid_grant', description);
    }
    const grant = found.value;
    if (grant.clientId !== caller.client.id) {
      return badRequest('invalid_grant', 'Invalid refresh token');
    }
    // Only grants obtained with PKCE may be refreshed by a caller that cannot prove a secret.
    if (!grant.pkce && !caller.authenticated) return invalidClient('Invalid client secret');
    return store.rotateRefreshToken(presented, grant);
  }

  return async (app) => {
    app.post('/api/token', async (request, reply) => {
      const params = formParams(request.body);
      const usedBasic = request.headers.authorization !== undefined;
      const repeated = repeatedParam(params, TOKEN_PARAMS);
      if (repeated) {
        const failure = badRequest('invalid_request', `${repeated} must be supplied only once`);
        return sendTokenError(reply, failure, usedBasic);
      }
      const grantType = params.get('grant_type');
      if (grantType === null) {
        const failure = badRequest('unsupported_grant_type', 'grant_type parameter is missing');
        return sendTokenError(reply, failure, usedBasic);
      }
      if (!GRANT_TYPES.has(grantType)) {
        const failure = badRequest(
          'unsupported_grant_type',
          'grant_type must be authorization_code, refresh_token or client_credentials',
        );
        return sendTokenError(reply, failure, usedBasic);
      }
      const caller = identifyCaller(request.headers.authorization, params, clients);
      if (isError(caller)) return sendTokenError(reply, caller, usedBasic);
      if (grantType === 'client_credentials') {
        // Only an app that proves its secret gets a token of its own.
        if (!caller.authenticated)
          return sendTokenError(reply, invalidClient('Invalid client'), usedBasic);
        const { accessToken, expiresInSec } = store.issueAppToken(caller.client.id);
        await store.save();
        return reply
          .header('cache-control', 'no-store')
          .header('pragma', 'no-cache')
          .send({ access_token: accessToken, token_type: 'Bearer', expires_in: expiresInSec });
      }

      const outcome =
        grantType === 'authorization_code' ? exchangeCode(params, caller) : refresh(params, caller);
      // A redeemed code or a rotated refresh token changed the store, whatever the outcome.
      await store.save();
      if (isError(outcome)) return sendTokenError(reply, outcome, usedBasic);
      return sendTokens(reply, outcome);
    });
  };
}
