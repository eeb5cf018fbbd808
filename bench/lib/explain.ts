import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from '../../apps/server/src/db/client';

export interface QueryPlan {
  sql: string;
  params: unknown[];
  /** `SET` statements in effect (the product's `SET LOCAL` in its transaction). */
  settings: string[];
  execution_ms: number;
  planning_ms: number;
  plan: string;
}

/**
 * Runs `call` (a product service, given a database handle) while recording every SQL statement
 * it sends, then runs `EXPLAIN (ANALYZE, BUFFERS)` on each with the same parameters: the plans
 * of exactly what the product asks, not of a copy of its SQL. Transaction control is not
 * explained; each statement is explained in a transaction of its own (rolled back) with the
 * `SET`s the product had made in its transaction. In the order they ran.
 */
export async function explainCalls(
  pool: pg.Pool,
  call: (db: Db) => Promise<unknown>,
): Promise<QueryPlan[]> {
  const recorded: { sql: string; params: unknown[]; settings: string[] }[] = [];
  let settings: string[] = [];
  const db = drizzle(pool, {
    logger: {
      logQuery(sql, params) {
        const command = sql.trim().split(/\s+/)[0]!.toLowerCase();
        if (['begin', 'commit', 'rollback', 'start'].includes(command)) settings = [];
        else if (command === 'set') settings.push(sql);
        else recorded.push({ sql, params, settings: [...settings] });
      },
    },
  });
  await call(db);
  const plans: QueryPlan[] = [];
  for (const { sql, params, settings: set } of recorded) {
    const client = await pool.connect();
    let plan: string;
    try {
      await client.query('BEGIN');
      for (const setting of set) await client.query(setting);
      const result = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
        params,
      );
      plan = result.rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    const time = (label: string) =>
      Number(new RegExp(`${label}: ([0-9.]+) ms`).exec(plan)?.[1] ?? Number.NaN);
    plans.push({
      sql,
      params,
      settings: set,
      execution_ms: time('Execution Time'),
      planning_ms: time('Planning Time'),
      plan,
    });
  }
  return plans;
}

/** The statement that took longest: what a request's latency mostly is. */
export function slowest(plans: readonly QueryPlan[]): QueryPlan | undefined {
  return [...plans].sort((a, b) => b.execution_ms - a.execution_ms)[0];
}

/**
 * A request's statements as the report gives them: how many, the slowest one's execution time,
 * and the database time of them all (execution + planning).
 */
export function planFigures(plans: readonly QueryPlan[]) {
  const databaseMs = plans.reduce((sum, p) => sum + p.execution_ms + p.planning_ms, 0);
  return {
    statements: plans.length,
    main_query_ms: slowest(plans)!.execution_ms,
    db_ms_per_request: Math.round(databaseMs * 100) / 100,
  };
}

/** Plans as a text document: each statement, its parameters (shortened) and its plan. */
export function formatPlans(sections: { title: string; plans: readonly QueryPlan[] }[]): string {
  const short = (value: unknown) => {
    const text = JSON.stringify(value) ?? 'undefined';
    return text.length > 160 ? `${text.slice(0, 160)}… (${text.length} chars)` : text;
  };
  return sections
    .map(({ title, plans }) => {
      const main = slowest(plans);
      const body = plans.map((plan, index) =>
        [
          `-- [${index + 1}/${plans.length}]${plan === main ? ' MAIN (slowest)' : ''}` +
            ` execution ${plan.execution_ms} ms, planning ${plan.planning_ms} ms`,
          plan.sql.trim(),
          `-- params: ${plan.params.map(short).join(', ')}`,
          ...(plan.settings.length > 0
            ? [`-- in a transaction after: ${plan.settings.join('; ')}`]
            : []),
          plan.plan,
        ].join('\n'),
      );
      return [`==== ${title} ====`, ...body].join('\n\n');
    })
    .join('\n\n\n');
}

/** One request to explain: what the console calls it, its title in the plans file, the call. */
export interface ExplainedRequest {
  name: string;
  title: string;
  call: (db: Db) => Promise<unknown>;
}

/**
 * `explainCalls` for one request per variant, printing how many statements each ran and the
 * slowest one's time (`withTotal`: and all of them together); in the variants' order, as
 * `formatPlans` and the report's figures take them.
 */
export async function explainRequests(
  pool: pg.Pool,
  requests: readonly ExplainedRequest[],
  { nameWidth, withTotal = false }: { nameWidth: number; withTotal?: boolean },
): Promise<{ title: string; plans: QueryPlan[] }[]> {
  const explained: { title: string; plans: QueryPlan[] }[] = [];
  for (const { name, title, call } of requests) {
    const plans = await explainCalls(pool, call);
    const total = Math.round(plans.reduce((sum, p) => sum + p.execution_ms, 0) * 100) / 100;
    console.log(
      `  ${name.padEnd(nameWidth)} ${plans.length} statements, slowest ${slowest(plans)!.execution_ms} ms` +
        (withTotal ? ` (total ${total} ms)` : ''),
    );
    explained.push({ title, plans });
  }
  return explained;
}
