import { avatarImages } from '../images/avatar';
import type { SandboxClient } from '../plugin';
import type { SandboxAccount } from '../world/account';

export interface UserObjectContext {
  /** The app's mode: Development Mode apps no longer get e-mail, plan, country or followers. */
  mode: SandboxClient['mode'];
  /** Scopes the access token carries. */
  scopes: readonly string[];
  publicUrl: string;
}

/**
 * Spotify's PrivateUserObject (`GET /me`), keys in Spotify's order. As Spotify documents, `email`
 * needs `user-read-email` and `product`, `country` and `explicit_content` need `user-read-private`;
 * without them the fields are simply absent.
 */
export function privateUserObject(account: SandboxAccount, context: UserObjectContext) {
  const extended = context.mode === 'extended';
  const readPrivate = extended && context.scopes.includes('user-read-private');
  const readEmail = extended && context.scopes.includes('user-read-email');
  return {
    account_id: account.accountId,
    ...(readPrivate && { country: account.country }),
    display_name: account.displayName,
    ...(readEmail && { email: account.email }),
    ...(readPrivate && {
      explicit_content: {
        filter_enabled: account.explicitContent.filterEnabled,
        filter_locked: account.explicitContent.filterLocked,
      },
    }),
    external_urls: { spotify: `https://open.spotify.com/user/${encodeURIComponent(account.id)}` },
    ...(extended && { followers: { href: null, total: account.followers } }),
    href: `${context.publicUrl}/v1/users/${encodeURIComponent(account.id)}`,
    id: account.id,
    images: avatarImages(account, context.publicUrl),
    ...(readPrivate && { product: account.product }),
    type: 'user' as const,
    uri: `spotify:user:${account.id}`,
  };
}
