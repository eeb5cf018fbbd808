import { z } from 'zod';

/*
 * The fault configuration: a seed and a list of rules, each applying to the Web API (`/v1/…`) and
 * the token endpoint (`/accounts/api/token`), optionally narrowed to a path prefix and a client.
 *
 * When a rule fires is deterministic: `every: N` fires on the Nth, 2Nth, … request the rule
 * matches; `rate: p` fires with probability p, drawn from a PRNG seeded by `seed` and the rule's
 * position, restarted whenever the configuration is replaced. Each rule draws on its own stream
 * for every request it matches, so adding or removing one rule never changes when another fires.
 */

/** An ISO 8601 instant with a zone, e.g. "2026-03-01T12:00:00Z". */
export const isoInstant = z.iso.datetime({ offset: true });

const scope = {
  /** Only requests under this path, relative to the sandbox root, e.g. "/v1/me/player". */
  path: z
    .string()
    .regex(/^\/[^?#]*$/, 'must start with "/" and have no query')
    .optional(),
  /** Only requests of this app: its access token (Web API) or its client id (token endpoint). */
  clientId: z.string().min(1).optional(),
};

const trigger = {
  /** Probability in [0, 1] that a matching request is hit. */
  rate: z.number().min(0).max(1).optional(),
  /** Hit every Nth matching request. */
  every: z.number().int().min(1).optional(),
};

function exactlyOne(keys: readonly string[]) {
  return (rule: Record<string, unknown>) =>
    keys.filter((key) => rule[key] !== undefined).length === 1;
}

const latencyRule = z.strictObject({
  type: z.literal('latency'),
  /** Added to every matching request. */
  ms: z.number().int().min(0).max(120_000),
  /** Plus a uniformly drawn 0…jitterMs. */
  jitterMs: z.number().int().min(0).max(120_000).default(0),
  ...scope,
});

const rateLimitRule = z
  .strictObject({
    type: z.literal('rate-limit'),
    ...trigger,
    /** Every matching request until this instant (sandbox clock) is refused. */
    until: isoInstant.optional(),
    /** Same, for this many seconds from when the configuration is applied. */
    forSec: z.number().int().min(1).optional(),
    /** `Retry-After` of `rate`/`every` hits; a window answers the seconds it has left. */
    retryAfterSec: z.number().int().min(0).default(1),
    ...scope,
  })
  .refine(exactlyOne(['rate', 'every', 'until', 'forSec']), {
    message: 'a rate-limit rule needs exactly one of rate, every, until, forSec',
  });

const serverErrorRule = z
  .strictObject({
    type: z.literal('server-error'),
    ...trigger,
    /** Statuses answered in turn by successive hits. */
    statuses: z
      .array(z.union([z.literal(500), z.literal(502), z.literal(503)]))
      .min(1)
      .default([500, 502, 503]),
    ...scope,
  })
  .refine(exactlyOne(['rate', 'every']), {
    message: 'a server-error rule needs exactly one of rate, every',
  });

const dropRule = z
  .strictObject({
    type: z.literal('drop'),
    ...trigger,
    ...scope,
  })
  .refine(exactlyOne(['rate', 'every']), {
    message: 'a drop rule needs exactly one of rate, every',
  });

export const faultRuleSchema = z.discriminatedUnion('type', [
  latencyRule,
  rateLimitRule,
  serverErrorRule,
  dropRule,
]);

export const faultConfigSchema = z.strictObject({
  seed: z.number().int().default(1),
  rules: z.array(faultRuleSchema).max(100).default([]),
});

/** What callers write (defaults optional). */
export type FaultConfigInput = z.input<typeof faultConfigSchema>;
/** What the sandbox reports: defaults filled in, `forSec` turned into `until`. */
export type FaultConfig = z.output<typeof faultConfigSchema>;
export type FaultRule = z.output<typeof faultRuleSchema>;

export const NO_FAULTS: FaultConfig = { seed: 1, rules: [] };

/** Validates a configuration given in code; throws a readable error. */
export function parseFaultConfig(input: FaultConfigInput): FaultConfig {
  const parsed = faultConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new Error(`spotify-sandbox: invalid faults:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}
