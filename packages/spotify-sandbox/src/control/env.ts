import { z } from 'zod';
import { SandboxClock } from '../clock';
import { isoInstant, type FaultConfigInput, type FaultRule } from '../faults/config';
import type { SandboxOptions } from '../plugin';

/** Numbers as environment variables spell them: no blanks, no "0x", no "Infinity". */
function numeric(schema: z.ZodNumber) {
  return z
    .string()
    .trim()
    .regex(/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/, 'must be a number')
    .transform(Number)
    .pipe(schema);
}

/** An empty variable counts as unset, like a shell's `VAR= command`. */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
}

const rate = optional(numeric(z.number().min(0).max(1)));

const knobs = z.object({
  /** Added to every Web API and token request, in ms. */
  SANDBOX_LATENCY_MS: optional(numeric(z.number().int().min(0).max(120_000))),
  /** Plus up to this many ms, drawn per request. */
  SANDBOX_LATENCY_JITTER_MS: optional(numeric(z.number().int().min(0).max(120_000))),
  /** Probability of a 429. */
  SANDBOX_RATE_429: rate,
  /** Its Retry-After, in seconds (default 1). */
  SANDBOX_RETRY_AFTER_SEC: optional(numeric(z.number().int().min(0))),
  /** Probability of a 500, 502 or 503 (in turn). */
  SANDBOX_RATE_5XX: rate,
  /** Probability of a dropped connection. */
  SANDBOX_RATE_DROP: rate,
  /** Seed of the rates' random streams (default 1). */
  SANDBOX_FAULT_SEED: optional(numeric(z.number().int())),
  /** Lifetime of access tokens, in seconds. */
  SANDBOX_TOKEN_TTL_SEC: optional(numeric(z.number().int().min(1))),
  /** Start with the clock frozen at this ISO instant. */
  SANDBOX_FREEZE_AT: optional(isoInstant),
  /** "off" removes the control API (it then answers 404). */
  SANDBOX_CONTROL: optional(z.enum(['on', 'off'])),
  /** Require `Authorization: Bearer <token>` on the control API. */
  SANDBOX_CONTROL_TOKEN: optional(z.string().min(16, 'must be at least 16 characters')),
});

export type SandboxEnvOptions = Pick<
  SandboxOptions,
  'faults' | 'accessTokenTtlSec' | 'clock' | 'control'
>;

/**
 * Turns the sandbox's environment knobs into plugin options (only those the environment sets),
 * for the standalone server and for hosts that mount the sandbox. Throws naming the variable when
 * one is malformed.
 */
export function sandboxOptionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): SandboxEnvOptions {
  const parsed = knobs.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${JSON.stringify(env[name])}: ${issue.message}`;
    });
    throw new Error(`spotify-sandbox: invalid environment: ${problems.join('; ')}`);
  }
  const knob = parsed.data;
  if (knob.SANDBOX_CONTROL === 'off' && knob.SANDBOX_CONTROL_TOKEN !== undefined) {
    throw new Error(
      'spotify-sandbox: invalid environment: SANDBOX_CONTROL_TOKEN is set but SANDBOX_CONTROL=off',
    );
  }

  const rules: FaultRule[] = [];
  if (knob.SANDBOX_LATENCY_MS !== undefined || knob.SANDBOX_LATENCY_JITTER_MS !== undefined) {
    rules.push({
      type: 'latency',
      ms: knob.SANDBOX_LATENCY_MS ?? 0,
      jitterMs: knob.SANDBOX_LATENCY_JITTER_MS ?? 0,
    });
  }
  if (knob.SANDBOX_RATE_429 !== undefined) {
    rules.push({
      type: 'rate-limit',
      rate: knob.SANDBOX_RATE_429,
      retryAfterSec: knob.SANDBOX_RETRY_AFTER_SEC ?? 1,
    });
  }
  if (knob.SANDBOX_RATE_5XX !== undefined) {
    rules.push({ type: 'server-error', rate: knob.SANDBOX_RATE_5XX, statuses: [500, 502, 503] });
  }
  if (knob.SANDBOX_RATE_DROP !== undefined) {
    rules.push({ type: 'drop', rate: knob.SANDBOX_RATE_DROP });
  }
  const faults: FaultConfigInput | undefined =
    rules.length > 0 ? { seed: knob.SANDBOX_FAULT_SEED ?? 1, rules } : undefined;

  const control =
    knob.SANDBOX_CONTROL === 'off'
      ? { enabled: false }
      : knob.SANDBOX_CONTROL_TOKEN !== undefined
        ? { enabled: true, token: knob.SANDBOX_CONTROL_TOKEN }
        : knob.SANDBOX_CONTROL === 'on'
          ? { enabled: true }
          : undefined;

  return {
    ...(faults && { faults }),
    ...(knob.SANDBOX_TOKEN_TTL_SEC !== undefined && {
      accessTokenTtlSec: knob.SANDBOX_TOKEN_TTL_SEC,
    }),
    ...(knob.SANDBOX_FREEZE_AT !== undefined && {
      clock: new SandboxClock({ at: new Date(knob.SANDBOX_FREEZE_AT), frozen: true }),
    }),
    ...(control && { control }),
  };
}
