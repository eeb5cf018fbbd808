import type { SandboxClient } from './plugin';

/** The apps registered with the sandbox's accounts service, as on Spotify's developer dashboard. */
export class ClientRegistry {
  private readonly byId = new Map<string, SandboxClient>();

  constructor(clients: readonly SandboxClient[]) {
    for (const client of clients) {
      if (!client.id) throw new Error('spotify-sandbox: a client needs a non-empty id');
      if (this.byId.has(client.id)) {
        throw new Error(`spotify-sandbox: client "${client.id}" is registered twice`);
      }
      if (client.mode !== 'extended' && client.mode !== 'development') {
        throw new Error(`spotify-sandbox: client "${client.id}" has an unknown mode`);
      }
      if (client.secret === '') {
        throw new Error(`spotify-sandbox: client "${client.id}" has an empty secret`);
      }
      for (const uri of client.redirectUris) assertRedirectUri(client.id, uri);
      this.byId.set(client.id, { ...client, redirectUris: [...client.redirectUris] });
    }
  }

  get(id: string): SandboxClient | undefined {
    return this.byId.get(id);
  }

  list(): SandboxClient[] {
    return [...this.byId.values()];
  }

  /**
   * Moves an app between Extended Quota Mode and Development Mode, as Spotify did to existing apps
   * in March 2026. Takes effect on the next request; tokens already issued stay valid.
   */
  setMode(id: string, mode: SandboxClient['mode']): SandboxClient | undefined {
    const client = this.byId.get(id);
    if (!client) return undefined;
    const changed = { ...client, mode };
    this.byId.set(id, changed);
    return changed;
  }
}

/** Spotify matches redirect URIs exactly, character for character. */
export function isRegisteredRedirectUri(client: SandboxClient, uri: string): boolean {
  return client.redirectUris.includes(uri);
}

function assertRedirectUri(clientId: string, uri: string): void {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    throw new Error(`spotify-sandbox: client "${clientId}" has an invalid redirect URI "${uri}"`);
  }
  if (parsed.hash) {
    throw new Error(
      `spotify-sandbox: redirect URI "${uri}" of client "${clientId}" has a fragment`,
    );
  }
}
