import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('needs nothing: embedded database and the mounted sandbox', () => {
    const config = loadConfig({ INIT_CWD: '/srv/earshot' });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('http://127.0.0.1:8080');
    expect(config.dataDir).toBe('/srv/earshot/data');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.spotify).toMatchObject({
      sandboxMounted: true,
      accountsUrl: 'http://127.0.0.1:8080/sandbox/accounts',
      apiUrl: 'http://127.0.0.1:8080/sandbox/v1',
      sdkUrl: 'http://127.0.0.1:8080/sandbox/sdk/spotify-player.js',
      redirectUri: 'http://127.0.0.1:8080/api/spotify/callback',
    });
    expect(config.secureCookies).toBe(false);
  });

  it('uses the real Spotify once a client id is configured', () => {
    const config = loadConfig({
      SPOTIFY_CLIENT_ID: 'abc',
      PUBLIC_URL: 'https://earshot.example/',
      ADMIN_EMAILS: ' Ada@Example.com, ,bob@example.com',
    });
    expect(config.spotify).toMatchObject({
      sandboxMounted: false,
      clientId: 'abc',
      accountsUrl: 'https://accounts.spotify.com',
      apiUrl: 'https://api.spotify.com/v1',
      sdkUrl: 'https://sdk.scdn.co/spotify-player.js',
      redirectUri: 'https://earshot.example/api/spotify/callback',
    });
    const standalone = loadConfig({
      SPOTIFY_CLIENT_ID: 'abc',
      SPOTIFY_SDK_URL: 'http://127.0.0.1:8090/sandbox/sdk/spotify-player.js',
    });
    expect(standalone.spotify.sdkUrl).toBe('http://127.0.0.1:8090/sandbox/sdk/spotify-player.js');
    expect(config.secureCookies).toBe(true);
    expect([...config.adminEmails]).toEqual(['ada@example.com', 'bob@example.com']);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short' })).toThrow(/ENCRYPTION_KEY/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/earshot' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/earshot' })).toThrow(/ENCRYPTION_KEY/);
  });

  it('refuses to serve the demo sandbox beyond this machine unless DEMO_MODE is set', () => {
    for (const env of [
      { PUBLIC_URL: 'https://earshot.example' },
      { PUBLIC_URL: 'http://192.168.1.20:8080' },
      { HOST: '0.0.0.0' },
      { HOST: '::', PUBLIC_URL: 'http://localhost:8080' },
    ]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/DEMO_MODE=true/);
      expect(loadConfig({ ...env, DEMO_MODE: 'true' }).spotify.sandboxMounted).toBe(true);
      expect(loadConfig({ ...env, SPOTIFY_CLIENT_ID: 'abc' }).spotify.sandboxMounted).toBe(false);
    }
    for (const env of [
      { PUBLIC_URL: 'http://localhost:8080' },
      { PUBLIC_URL: 'http://[::1]:8080', HOST: '::1' },
      { HOST: '127.0.0.2' },
    ]) {
      expect(loadConfig(env).spotify.sandboxMounted).toBe(true);
    }
  });

  it('accepts a 32-byte key as hex or base64', () => {
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ ENCRYPTION_KEY: hex }).encryptionKey?.length).toBe(32);
    const base64 = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ ENCRYPTION_KEY: base64 }).encryptionKey?.length).toBe(32);
  });
});
