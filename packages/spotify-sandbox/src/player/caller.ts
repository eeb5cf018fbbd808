import type { FastifyInstance } from 'fastify';
import type { AuthorizationStore } from '../accounts/store';
import { checkBearer } from '../web-api/auth';
import type { CallerDeps } from '../web-api/caller';
import type { PlayerHub } from './player';

/** What the player's and the SDK stand-in's routes need: the Web API's callers, and the players. */
export interface PlayerServiceDeps extends CallerDeps {
  hub: PlayerHub;
}

/**
 * Settles the real player of the account behind every Web API request before it is answered, so
 * plays that ended since the player was last asked are in the history that `recently-played` and
 * the other endpoints read. Call on the sandbox's root, like the fault hook.
 */
export function settlePlayersOnRequest(
  app: FastifyInstance,
  deps: { hub: PlayerHub; store: AuthorizationStore },
): void {
  const v1 = `${app.prefix}/v1/`;
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith(v1)) return;
    const bearer = checkBearer(request.headers.authorization, deps.store);
    if (bearer.ok && bearer.token.accountId !== null) deps.hub.settle(bearer.token.accountId);
  });
}
