import { describe, expect, it } from 'vitest';
import { usernameBase } from '../src/services/users';

describe('usernameBase', () => {
  it('makes a URL-safe lower-case handle from the display name', () => {
    expect(usernameBase('Zoë Müller-Łukasz', 'x')).toBe('zoe-muller-lukasz');
    expect(usernameBase('  DJ   Shadow!! ', 'x')).toBe('dj-shadow');
  });

  it('falls back to the Spotify id, then to "listener"', () => {
    expect(usernameBase(null, 'Spotify_User.42')).toBe('spotify-user-42');
    expect(usernameBase('★★★', '日本')).toBe('listener');
  });

  it('stays within 40 characters without a trailing dash', () => {
    const handle = usernameBase(`${'a'.repeat(39)} b`, 'x');
    expect(handle.length).toBeLessThanOrEqual(40);
    expect(handle.endsWith('-')).toBe(false);
  });
});
