import type { Clock } from '../clock';
import { NO_FAULTS, type FaultConfig, type FaultRule } from './config';
import { Random } from '../world/random';

/** The request a decision is made for. */
export interface FaultTarget {
  /** Path relative to the sandbox root, without the query, e.g. "/v1/me". */
  path: string;
  /** The app behind the request, when it can be told before authentication. */
  clientId: string | undefined;
}

export type FaultOutcome =
  | { kind: 'none' }
  | { kind: 'drop' }
  | { kind: 'rate-limit'; retryAfterSec: number }
  | { kind: 'server-error'; status: 500 | 502 | 503 };

export interface FaultDecision {
  /** Wait this long (wall time) before answering or failing. */
  delayMs: number;
  outcome: FaultOutcome;
}

/** A rule with its running state: its own random stream and counters. */
interface ActiveRule {
  rule: FaultRule;
  random: Random;
  /** Requests the rule matched. */
  matched: number;
  /** Times it fired (server errors cycle through their statuses with it). */
  fired: number;
  /** End of a rate-limit window, in ms since the epoch. */
  untilMs?: number;
}

/** Decides, per request, which of the configured faults hit it. */
export class FaultInjector {
  private config: FaultConfig = NO_FAULTS;
  private active: ActiveRule[] = [];

  constructor(private readonly clock: Clock) {}

  /** Replaces the configuration; counters and random streams start over. */
  configure(config: FaultConfig): void {
    const now = this.clock.now();
    const rules = config.rules.map((rule): FaultRule => {
      if (rule.type !== 'rate-limit' || rule.forSec === undefined) return rule;
      const { forSec, ...rest } = rule;
      return { ...rest, until: new Date(now + forSec * 1000).toISOString() };
    });
    this.config = { seed: config.seed, rules };
    this.active = rules.map((rule, index) => ({
      rule,
      random: Random.derive(config.seed, index),
      matched: 0,
      fired: 0,
      untilMs: rule.type === 'rate-limit' && rule.until ? Date.parse(rule.until) : undefined,
    }));
  }

  clear(): void {
    this.configure(NO_FAULTS);
  }

  /** The configuration in force, defaults filled in and windows as instants. */
  describe(): FaultConfig {
    return this.config;
  }

  /**
   * Every matching rule takes its turn (counts the request, draws its number) before the
   * outcome is chosen: a dropped connection, else a 429, else a 5xx. Latencies add up.
   */
  decide(target: FaultTarget): FaultDecision {
    let delayMs = 0;
    let drop = false;
    let rateLimit: number | undefined;
    let serverError: 500 | 502 | 503 | undefined;
    for (const active of this.active) {
      const { rule } = active;
      if (!matches(rule, target)) continue;
      active.matched += 1;
      if (rule.type === 'latency') {
        delayMs += rule.ms + active.random.int(0, rule.jitterMs);
        continue;
      }
      if (rule.type === 'rate-limit' && active.untilMs !== undefined) {
        const leftMs = active.untilMs - this.clock.now();
        if (leftMs > 0) rateLimit = Math.max(rateLimit ?? 0, Math.ceil(leftMs / 1000));
        continue;
      }
      if (!fires(active, rule)) continue;
      active.fired += 1;
      if (rule.type === 'drop') drop = true;
      else if (rule.type === 'rate-limit') {
        rateLimit = Math.max(rateLimit ?? 0, rule.retryAfterSec);
      } else if (serverError === undefined) {
        serverError = rule.statuses[(active.fired - 1) % rule.statuses.length];
      }
    }
    const outcome: FaultOutcome = drop
      ? { kind: 'drop' }
      : rateLimit !== undefined
        ? { kind: 'rate-limit', retryAfterSec: rateLimit }
        : serverError !== undefined
          ? { kind: 'server-error', status: serverError }
          : { kind: 'none' };
    return { delayMs, outcome };
  }
}

function matches(rule: FaultRule, target: FaultTarget): boolean {
  if (rule.clientId !== undefined && rule.clientId !== target.clientId) return false;
  if (rule.path === undefined) return true;
  const prefix = rule.path.endsWith('/') ? rule.path : `${rule.path}/`;
  return target.path === rule.path || target.path.startsWith(prefix);
}

function fires(active: ActiveRule, rule: { rate?: number; every?: number }): boolean {
  if (rule.every !== undefined) return active.matched % rule.every === 0;
  // Draw even for rates of 0 and 1, so a rule's stream depends only on the requests it matched.
  return active.random.next() < (rule.rate ?? 0);
}
