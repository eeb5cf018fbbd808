import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { ClientRegistry } from '../clients';
import type { AccountDirectory } from '../world/account';
import { authorizeRoutes } from './authorize';
import type { AuthorizationStore } from './store';
import { tokenRoutes } from './token';

export interface AccountsServiceDeps {
  clients: ClientRegistry;
  accounts: AccountDirectory;
  store: AuthorizationStore;
}

/** Spotify's accounts service (`accounts.spotify.com`): authorize pages and the token endpoint. */
export function accountsService(deps: AccountsServiceDeps): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler<FastifyError>((error, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'spotify-sandbox: accounts service failed');
        return reply.code(500).send({ error: 'server_error', error_description: 'Server error' });
      }
      return reply
        .code(status)
        .send({ error: 'invalid_request', error_description: error.message });
    });
    await app.register(authorizeRoutes(deps));
    await app.register(tokenRoutes(deps));
  };
}
