/** A Spotify user of the sandbox world: the facts the Web API derives its user objects from. */
export interface SandboxAccount {
  /** The Spotify user id (username for older accounts, a random 28-character id for newer ones). */
  id: string;
  /** The immutable, pseudonymous `account_id` Spotify added to the user object. */
  accountId: string;
  displayName: string;
  email: string;
  product: 'premium' | 'free';
  /** ISO 3166-1 alpha-2 code. */
  country: string;
  followers: number;
  explicitContent: { filterEnabled: boolean; filterLocked: boolean };
}

/** Looks accounts up by id: the world's accounts (see `World.accounts`). */
export class AccountDirectory {
  private readonly byId: ReadonlyMap<string, SandboxAccount>;

  constructor(private readonly accounts: readonly SandboxAccount[]) {
    this.byId = new Map(accounts.map((account) => [account.id, account]));
    if (this.byId.size !== accounts.length) {
      throw new Error('spotify-sandbox: two accounts share an id');
    }
  }

  list(): readonly SandboxAccount[] {
    return this.accounts;
  }

  get(id: string): SandboxAccount | undefined {
    return this.byId.get(id);
  }
}
