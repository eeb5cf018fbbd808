import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { AuthorizationStore } from '../accounts/store';
import type { ClientRegistry } from '../clients';
import type { Clock } from '../clock';
import type { AccountDirectory } from '../world/account';
import type { World } from '../world/model';
import { checkBearer } from './auth';
import type { CallerDeps } from './caller';
import { registerCatalogueRoutes } from './catalogue';
import { sendApiError } from './errors';
import { registerLibraryRoutes } from './library';
import type { ImageSource } from './objects';
import { registerPersonalRoutes } from './personal';
import { registerPlaylistRoutes } from './playlists';
import { registerSearchRoutes } from './search';
import { privateUserObject } from './users';

export interface WebApiDeps {
  clients: ClientRegistry;
  accounts: AccountDirectory;
  store: AuthorizationStore;
  publicUrl: string;
  world: World;
  clock: Clock;
  images: ImageSource;
}

/** The Web API (`api.spotify.com/v1`) the sandbox serves, player endpoints aside. */
export function webApiService(deps: WebApiDeps): FastifyPluginAsync {
  const { clients, accounts, store, publicUrl } = deps;
  const callerDeps: CallerDeps = deps;
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
      if (token.accountId === null) return sendApiError(reply, 403, 'Insufficient client scope');
      const account = accounts.get(token.accountId);
      const client = clients.get(token.clientId);
      // Tokens outlive restarts; the account or app they were issued for may not.
      if (!account || !client) return sendApiError(reply, 401, 'Invalid access token');
      return privateUserObject(account, { mode: client.mode, scopes: token.scopes, publicUrl });
    });

    registerCatalogueRoutes(app, callerDeps);
    registerLibraryRoutes(app, callerDeps);
    registerPlaylistRoutes(app, callerDeps);
    registerPersonalRoutes(app, callerDeps);
    registerSearchRoutes(app, callerDeps);
  };
}
