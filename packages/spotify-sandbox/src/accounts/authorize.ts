import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { isRegisteredRedirectUri, type ClientRegistry } from '../clients';
import { formParams, queryParams, repeatedParam } from '../http/form';
import { sendPage } from '../http/sandbox-page';
import type { SandboxClient } from '../plugin';
import type { AccountDirectory } from '../world/account';
import { accountPickerPage, consentPage, errorPage } from './pages';
import { parseScopes } from './scopes';
import type { AuthorizationStore } from './store';

/** The parameters of Spotify's `/authorize`; the pages carry exactly these through their forms. */
const AUTHORIZE_PARAMS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge_method',
  'code_challenge',
  'show_dialog',
] as const;

/** RFC 7636: 43 to 128 unreserved characters (an S256 challenge is 43). */
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

export interface AuthorizeRequest {
  client: SandboxClient;
  redirectUri: string;
  state: string | undefined;
  scopes: string[];
  codeChallenge: string | null;
  showDialog: boolean;
  /** The request's own parameters, to carry through the picker and consent forms. */
  params: URLSearchParams;
}

type Validation =
  | { outcome: 'valid'; request: AuthorizeRequest }
  /** Spotify shows these on its own page: it never redirects to an unverified URI. */
  | { outcome: 'page'; message: string }
  | { outcome: 'redirect'; location: string };

/** Checks the parameters of an authorize request as Spotify does, before any page is shown. */
export function validateAuthorizeRequest(
  params: URLSearchParams,
  clients: ClientRegistry,
): Validation {
  const single = (name: string) => (params.getAll(name).length === 1 ? params.get(name) : null);
  const clientId = single('client_id');
  const client = clientId === null ? undefined : clients.get(clientId);
  if (!client) return { outcome: 'page', message: 'INVALID_CLIENT: Invalid client' };
  const redirectUri = single('redirect_uri');
  if (redirectUri === null || !isRegisteredRedirectUri(client, redirectUri)) {
    return { outcome: 'page', message: 'INVALID_CLIENT: Invalid redirect URI' };
  }

  const state = params.get('state') ?? undefined;
  const refuse = (error: string): Validation => ({
    outcome: 'redirect',
    location: redirectLocation(redirectUri, { error, state }),
  });
  if (repeatedParam(params, AUTHORIZE_PARAMS)) return refuse('invalid_request');
  const responseType = params.get('response_type');
  if (responseType === null) return refuse('invalid_request');
  if (responseType !== 'code') return refuse('unsupported_response_type');
  const scopes = parseScopes(params.get('scope') ?? undefined);
  if (!scopes) return { outcome: 'page', message: 'INVALID_SCOPE: Illegal scope' };

  const method = params.get('code_challenge_method');
  const challenge = params.get('code_challenge');
  if (method === null && challenge === null) {
    // Without a secret there is nothing but PKCE to prove who redeems the code.
    if (client.secret === undefined) return refuse('invalid_request');
  } else if (method !== 'S256' || challenge === null || !CODE_CHALLENGE.test(challenge)) {
    return refuse('invalid_request');
  }

  const carried = new URLSearchParams();
  for (const name of AUTHORIZE_PARAMS) {
    const value = params.get(name);
    if (value !== null) carried.set(name, value);
  }
  return {
    outcome: 'valid',
    request: {
      client,
      redirectUri,
      state,
      scopes,
      codeChallenge: challenge,
      showDialog: params.get('show_dialog') === 'true',
      params: carried,
    },
  };
}

function redirectLocation(redirectUri: string, add: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(add)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
}

/**
 * The consent step's "allow": issues a code for the account and returns where to send the browser
 * (the app's redirect URI with `code` and `state`). Also used by the sandbox's headless consent.
 */
export async function allowAuthorization(
  store: AuthorizationStore,
  authorization: AuthorizeRequest,
  accountId: string,
): Promise<string> {
  const code = store.issueCode({
    clientId: authorization.client.id,
    accountId,
    redirectUri: authorization.redirectUri,
    scopes: authorization.scopes,
    codeChallenge: authorization.codeChallenge,
  });
  await store.save();
  return redirectLocation(authorization.redirectUri, { code, state: authorization.state });
}

function redirect(reply: FastifyReply, location: string, status: 302 | 303): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(location, status);
}

export interface AuthorizeDeps {
  clients: ClientRegistry;
  accounts: AccountDirectory;
  store: AuthorizationStore;
}

/**
 * `GET /authorize` shows the account picker; its forms, and headless callers, `POST` back to the
 * same path with the original parameters plus `account` and then `consent=allow|deny`.
 */
export function authorizeRoutes({ clients, accounts, store }: AuthorizeDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/authorize', async (request, reply) => {
      const validation = validateAuthorizeRequest(queryParams(request.url), clients);
      if (validation.outcome === 'page') return sendPage(reply, 400, errorPage(validation.message));
      if (validation.outcome === 'redirect') return redirect(reply, validation.location, 302);
      const { client, params } = validation.request;
      return sendPage(
        reply,
        200,
        accountPickerPage({ clientId: client.id, params, accounts: accounts.list() }),
      );
    });

    app.post('/authorize', async (request, reply) => {
      const form = formParams(request.body);
      const validation = validateAuthorizeRequest(form, clients);
      if (validation.outcome === 'page') return sendPage(reply, 400, errorPage(validation.message));
      if (validation.outcome === 'redirect') return redirect(reply, validation.location, 303);
      const authorization = validation.request;
      const { client, params } = authorization;
      if (repeatedParam(form, ['account', 'consent'])) {
        return sendPage(reply, 400, errorPage('INVALID_REQUEST: Repeated parameter'));
      }

      const accountId = form.get('account');
      if (accountId === null) {
        return sendPage(
          reply,
          200,
          accountPickerPage({ clientId: client.id, params, accounts: accounts.list() }),
        );
      }
      const account = accounts.get(accountId);
      if (!account) {
        return sendPage(
          reply,
          400,
          accountPickerPage({
            clientId: client.id,
            params,
            accounts: accounts.list(),
            notice: 'That account does not exist. Choose one of these.',
          }),
        );
      }

      const consent = form.get('consent');
      const alreadyGranted =
        !authorization.showDialog &&
        store.hasGrantCovering(client.id, account.id, authorization.scopes);
      if (consent === 'deny') {
        const location = redirectLocation(authorization.redirectUri, {
          error: 'access_denied',
          state: authorization.state,
        });
        return redirect(reply, location, 303);
      }
      if (consent === null && !alreadyGranted) {
        return sendPage(
          reply,
          200,
          consentPage({ clientId: client.id, params, account, scopes: authorization.scopes }),
        );
      }
      if (consent !== null && consent !== 'allow') {
        return sendPage(reply, 400, errorPage('INVALID_REQUEST: consent must be allow or deny'));
      }

      const location = await allowAuthorization(store, authorization, account.id);
      return redirect(reply, location, 303);
    });
  };
}
