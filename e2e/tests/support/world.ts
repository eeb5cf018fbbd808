import { DEMO_PEOPLE } from '@earshot/spotify-sandbox/world/demo-accounts';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import type { Person } from './session';

const MINUTE = 60_000;

/** The demo world as the mounted sandbox simulates it (same seed): who is listening when. */
const world = createWorld();

function accountOf(person: Person) {
  return DEMO_PEOPLE.find((each) => each.account.displayName === person.name)?.account;
}

/** Whether `person` is on `plan` (Spotify's `product`: premium or free). */
export function onPlan(person: Person, plan: 'premium' | 'free'): boolean {
  return accountOf(person)?.product === plan;
}

/**
 * Whether the simulated `person` listens on their own devices (or not) for all of the next
 * `minutes`: a spec that drives their player picks someone who stays as they are meanwhile.
 */
export function listensThroughout(person: Person, listening: boolean, minutes: number): boolean {
  const account = accountOf(person);
  if (!account) return false;
  const now = Date.now();
  for (let at = now; at < now + minutes * MINUTE; at += 15_000) {
    if ((world.nowPlaying(account.id, at) !== null) !== listening) return false;
  }
  return true;
}

/** A release of the demo catalogue with its full track list, for pages a visitor opens. */
export function aRelease(minTracks: number) {
  const album = [...world.albums].reverse().find((each) => each.trackIds.length >= minTracks);
  if (!album) throw new Error(`the demo world has no release of ${minTracks} tracks`);
  return { id: album.id, name: album.name, trackCount: album.trackIds.length };
}
