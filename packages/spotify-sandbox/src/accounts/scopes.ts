/** Spotify's authorization scopes, with what the consent page tells the user each one allows. */
export const SCOPES: ReadonlyMap<string, string> = new Map([
  ['user-read-private', 'See your subscription plan and country'],
  ['user-read-email', 'See your email address'],
  ['user-read-recently-played', 'See what you have played recently'],
  ['user-top-read', 'See your top artists and tracks'],
  ['user-read-playback-state', 'See what is playing and on which of your devices'],
  ['user-modify-playback-state', 'Control playback on your devices'],
  ['user-read-currently-playing', 'See what you are playing right now'],
  ['user-read-playback-position', 'See your position in what you are playing'],
  ['streaming', 'Play music in this app'],
  ['app-remote-control', 'Control the Spotify app on your devices'],
  ['user-library-read', 'See your saved tracks, albums and episodes'],
  ['user-library-modify', 'Add to and remove from your saved content'],
  ['user-follow-read', 'See who you follow and who follows you'],
  ['user-follow-modify', 'Follow and unfollow artists and users for you'],
  ['playlist-read-private', 'See your private playlists'],
  ['playlist-read-collaborative', 'See your collaborative playlists'],
  ['playlist-modify-public', 'Create and change your public playlists'],
  ['playlist-modify-private', 'Create and change your private playlists'],
  ['ugc-image-upload', 'Upload images to your profile and playlists'],
]);

/** The requested scopes, deduplicated in request order; `null` when one of them is unknown. */
export function parseScopes(scope: string | undefined): string[] | null {
  const requested = [...new Set((scope ?? '').split(/\s+/).filter(Boolean))];
  return requested.every((name) => SCOPES.has(name)) ? requested : null;
}
