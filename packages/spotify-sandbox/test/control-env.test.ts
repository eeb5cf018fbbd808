import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../src/clock';
import { sandboxOptionsFromEnv } from '../src/control/env';
import { startSandboxServer } from '../src/main';
import { PUBLIC_CLIENT } from './helpers';

describe('sandboxOptionsFromEnv', () => {
  it('sets nothing when no knob is set (empty counts as unset)', () => {
    expect(sandboxOptionsFromEnv({})).toEqual({});
    expect(sandboxOptionsFromEnv({ SANDBOX_RATE_429: '', PATH: '/usr/bin' })).toEqual({});
  });

  it('turns the knobs into options', () => {
    const options = sandboxOptionsFromEnv({
      SANDBOX_LATENCY_MS: '250',
      SANDBOX_LATENCY_JITTER_MS: '50',
      SANDBOX_RATE_429: '0.1',
      SANDBOX_RETRY_AFTER_SEC: '3',
      SANDBOX_RATE_5XX: '0.05',
      SANDBOX_RATE_DROP: '.01',
      SANDBOX_FAULT_SEED: '7',
      SANDBOX_TOKEN_TTL_SEC: '120',
      SANDBOX_FREEZE_AT: '2026-03-01T12:00:00Z',
      SANDBOX_CONTROL_TOKEN: 'a-long-control-token',
    });

    expect(options).toEqual({
      faults: {
        seed: 7,
        rules: [
          { type: 'latency', ms: 250, jitterMs: 50 },
          { type: 'rate-limit', rate: 0.1, retryAfterSec: 3 },
          { type: 'server-error', rate: 0.05, statuses: [500, 502, 503] },
          { type: 'drop', rate: 0.01 },
        ],
      },
      accessTokenTtlSec: 120,
      clock: expect.any(SandboxClock),
      control: { enabled: true, token: 'a-long-control-token' },
    });
    expect(options.clock?.state()).toEqual({ now: Date.UTC(2026, 2, 1, 12), frozen: true });
  });

  it('switches the control API on or off', () => {
    expect(sandboxOptionsFromEnv({ SANDBOX_CONTROL: 'off' })).toEqual({
      control: { enabled: false },
    });
    expect(sandboxOptionsFromEnv({ SANDBOX_CONTROL: 'on' })).toEqual({
      control: { enabled: true },
    });
  });

  it.each([
    ['SANDBOX_RATE_429', 'often', /SANDBOX_RATE_429="often": must be a number/],
    ['SANDBOX_RATE_5XX', '1.5', /SANDBOX_RATE_5XX="1.5"/],
    ['SANDBOX_RATE_DROP', '-0.1', /SANDBOX_RATE_DROP/],
    ['SANDBOX_LATENCY_MS', '12.5', /SANDBOX_LATENCY_MS/],
    ['SANDBOX_TOKEN_TTL_SEC', '0', /SANDBOX_TOKEN_TTL_SEC/],
    ['SANDBOX_TOKEN_TTL_SEC', '0x10', /SANDBOX_TOKEN_TTL_SEC/],
    ['SANDBOX_FREEZE_AT', 'yesterday', /SANDBOX_FREEZE_AT="yesterday"/],
    ['SANDBOX_CONTROL', 'maybe', /SANDBOX_CONTROL/],
    ['SANDBOX_CONTROL_TOKEN', 'short', /SANDBOX_CONTROL_TOKEN.*16 characters/],
  ])('fails loudly on a malformed %s', (name, value, message) => {
    expect(() => sandboxOptionsFromEnv({ [name]: value })).toThrow(message);
  });

  it('refuses a control token for a control API switched off', () => {
    expect(() =>
      sandboxOptionsFromEnv({
        SANDBOX_CONTROL: 'off',
        SANDBOX_CONTROL_TOKEN: 'a-long-control-token',
      }),
    ).toThrow(/SANDBOX_CONTROL_TOKEN is set but SANDBOX_CONTROL=off/);
  });

  it('configures a working standalone server', async () => {
    const server = await startSandboxServer({
      clients: [PUBLIC_CLIENT],
      ...sandboxOptionsFromEnv({
        SANDBOX_RATE_5XX: '1',
        SANDBOX_FREEZE_AT: '2026-03-01T12:00:00Z',
        SANDBOX_CONTROL_TOKEN: 'a-long-control-token',
      }),
    });
    try {
      const me = await fetch(`${server.url}/v1/me`);
      const unauthorized = await fetch(`${server.url}/control/state`);
      const state = await fetch(`${server.url}/control/state`, {
        headers: { authorization: 'Bearer a-long-control-token' },
      });

      expect(me.status).toBe(500);
      expect(unauthorized.status).toBe(401);
      expect(await state.json()).toMatchObject({
        clock: { now: '2026-03-01T12:00:00.000Z', frozen: true },
      });
    } finally {
      await server.close();
    }
  });
});
