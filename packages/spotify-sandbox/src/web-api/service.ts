import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { AuthorizationStore } from '../accounts/store';
import type { ClientRegistry } from '../clients';
import type { AccountDirectory } from '../world/account';
import { checkBearer } from './auth';
import { sendApiError } from './errors';
import { privateUserObject } from './users';

export interface WebApiDeps {
  clients: ClientRegistry;
  accounts: AccountDirectory;
  store: AuthorizationStore;
  publicUrl: string;
}

/** The Web API (`api.spotify.com/v1`) subset the sandbox serves. */
export function webApiService({
  clients,
  accounts,
  store,
  publicUrl,
}: WebApiDeps): FastifyPluginAsync {
  return async (app) => {
    app.setNotFoundHandler((_request, reply) => sendApiError(reply, 404, 'Service not found'));
    app.setErrorHandler<FastifyError>((error, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'spotify-sandbox: Web API request failed');
        return sendApiError(reply, 500, 'Server error');
      }
      return sendApiError(reply, status, error.message);
    });

    app.get('/me', async (request, reply) => {
      const bearer = checkBearer(request.headers.authorization, store);
      if (!bearer.ok) return sendApiError(reply, bearer.status, bearer.message);
      const { token } = bearer;
      const account = accounts.get(token.accountId);
      const client = clients.get(token.clientId);
      // Tokens outlive restarts; the account or app they were issued for may not.
      if (!account || !client) return sendApiError(reply, 401, 'Invalid access token');
      return privateUserObject(account, { mode: client.mode, scopes: token.scopes, publicUrl });
    });
  };
}
