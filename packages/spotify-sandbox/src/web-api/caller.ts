import type { FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { AuthorizationStore } from '../accounts/store';
import type { ClientRegistry } from '../clients';
import type { Clock } from '../clock';
import type { SandboxClient } from '../plugin';
import type { Account, World } from '../world/model';
import { checkBearer } from './auth';
import { closedInDevelopmentMode, insufficientScope, sendApiError } from './errors';
import type { ImageSource, ObjectContext } from './objects';

/** Who is asking: the account and app behind the access token, at the sandbox clock's time. */
export class Caller {
  readonly objects: ObjectContext;

  constructor(
    /** Null for an app's own token (client_credentials). */
    private readonly owner: Account | null,
    readonly client: SandboxClient,
    private readonly scopes: ReadonlySet<string>,
    readonly now: number,
    world: World,
    publicUrl: string,
    images: ImageSource,
  ) {
    this.objects = { world, publicUrl, images, extended: this.extended, atMs: now };
  }

  /** The user behind the token; an app's own token has none, so user endpoints refuse it. */
  get account(): Account {
    if (!this.owner) throw insufficientScope();
    return this.owner;
  }

  /** False for an app's own token (client_credentials). */
  get hasUser(): boolean {
    return this.owner !== null;
  }

  get extended(): boolean {
    return this.client.mode === 'extended';
  }

  hasScope(scope: string): boolean {
    return this.scopes.has(scope);
  }

  /** Spotify's 403 "Insufficient client scope" unless the token carries the scope. */
  requireScope(scope: string): void {
    if (!this.hasScope(scope)) throw insufficientScope();
  }

  /** The endpoints the February 2026 change closed to Development Mode apps. */
  requireExtendedMode(): void {
    if (!this.extended) throw closedInDevelopmentMode();
  }
}

export interface CallerDeps {
  clients: ClientRegistry;
  store: AuthorizationStore;
  world: World;
  clock: Clock;
  publicUrl: string;
  images: ImageSource;
}

type CallerCheck = { ok: true; caller: Caller } | { ok: false; status: 400 | 401; message: string };

/** Finds who is behind a Web API request's access token, worded as Spotify words failures. */
export function identifyCaller(deps: CallerDeps, request: FastifyRequest): CallerCheck {
  const bearer = checkBearer(request.headers.authorization, deps.store);
  if (!bearer.ok) return bearer;
  const { token } = bearer;
  const account = token.accountId === null ? null : deps.world.account(token.accountId);
  const client = deps.clients.get(token.clientId);
  // Tokens outlive restarts; the account or app they were issued for may not.
  if (account === undefined || !client) {
    return { ok: false, status: 401, message: 'Invalid access token' };
  }
  const caller = new Caller(
    account,
    client,
    new Set(token.scopes),
    deps.clock.now(),
    deps.world,
    deps.publicUrl,
    deps.images,
  );
  return { ok: true, caller };
}

/**
 * A route handler for an authenticated Web API endpoint: answers 400/401 for a bad token, else
 * runs `handle` and sends what it returns as JSON (or the reply it sent itself).
 */
export function withCaller<Route extends RouteGenericInterface = RouteGenericInterface>(
  deps: CallerDeps,
  handle: (caller: Caller, request: FastifyRequest<Route>, reply: FastifyReply) => unknown,
) {
  return async (request: FastifyRequest<Route>, reply: FastifyReply) => {
    const found = identifyCaller(deps, request);
    if (!found.ok) return sendApiError(reply, found.status, found.message);
    return handle(found.caller, request, reply);
  };
}
