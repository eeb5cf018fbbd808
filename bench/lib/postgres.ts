import pg from 'pg';

/** Anything that runs a query: a pool, a client, or the embedded database's pool. */
export interface Queryable {
  query<R extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
}

/** `url` with its database name replaced. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function withAdmin<T>(serverUrl: string, action: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

/** Drops (if present) and creates `name` on the server of `serverUrl`; returns its URL. */
export async function recreateDatabase(serverUrl: string, name: string): Promise<string> {
  await withAdmin(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
  });
  return databaseUrl(serverUrl, name);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withAdmin(serverUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  );
}

export async function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  return withAdmin(serverUrl, async (client) => {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return result.rowCount === 1;
  });
}

/**
 * Inserts rows given column by column (`columns` maps a column to its SQL type), in batches
 * of `batch` rows, as `INSERT … SELECT … FROM unnest(…)`: one round trip per batch. Values of
 * array columns (type `…[]`) are given as array literals (`{a,b}`), since ragged arrays cannot
 * be bound as one multi-dimensional array.
 */
export async function insertColumns(
  db: Queryable,
  table: string,
  columns: Record<string, string>,
  values: Record<string, unknown[]>,
  batch = 20_000,
): Promise<void> {
  const names = Object.keys(columns);
  const rows = values[names[0]!]?.length ?? 0;
  const isArray = (name: string) => columns[name]!.endsWith('[]');
  const params = names
    .map((name, i) => `$${i + 1}::${isArray(name) ? 'text' : columns[name]}[]`)
    .join(', ');
  const aliases = names.map((_, i) => `c${i}`);
  const select = names
    .map((name, i) => (isArray(name) ? `${aliases[i]}::${columns[name]}` : aliases[i]))
    .join(', ');
  const text =
    `INSERT INTO ${table} (${names.map(quoteIdent).join(', ')}) ` +
    `SELECT ${select} FROM unnest(${params}) AS r(${aliases.join(', ')})`;
  for (let start = 0; start < rows; start += batch) {
    await db.query(
      text,
      names.map((name) => values[name]!.slice(start, start + batch)),
    );
  }
}

export interface IndexDefinition {
  table: string;
  name: string;
  /** A primary key or unique constraint (others may reference it), not only an index. */
  constraint: boolean;
  /** `ALTER TABLE … ADD CONSTRAINT` for primary keys and unique constraints, else `CREATE INDEX`. */
  create: string;
  /** What a migration set on the index's columns beyond its definition (statistics targets). */
  settings: string[];
  drop: string;
}

/**
 * The primary keys, unique constraints and indexes of `tables`, with the statements that drop
 * and recreate each exactly as the migrations made them. Bulk loads drop them first and build
 * them once at the end, which is several times faster than maintaining them row by row.
 */
export async function indexDefinitions(
  db: Queryable,
  tables: readonly string[],
): Promise<IndexDefinition[]> {
  const result = await db.query<{
    table: string;
    name: string;
    constraint_def: string | null;
    index_def: string;
    statistics: { column: number; target: number }[];
  }>(
    `SELECT t.relname AS table, i.relname AS name, pg_get_indexdef(i.oid) AS index_def,
            pg_get_constraintdef(c.oid) AS constraint_def,
            coalesce((SELECT json_agg(json_build_object('column', a.attnum, 'target', a.attstattarget))
                      FROM pg_attribute a WHERE a.attrelid = i.oid AND a.attstattarget >= 0),
                     '[]') AS statistics
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     LEFT JOIN pg_constraint c ON c.conindid = i.oid AND c.contype IN ('p', 'u')
     WHERE n.nspname = current_schema() AND t.relname = ANY($1::text[])
     ORDER BY t.relname, i.relname`,
    [tables],
  );
  return result.rows.map((row) => {
    const settings = row.statistics.map(
      ({ column, target }) =>
        `ALTER INDEX ${quoteIdent(row.name)} ALTER COLUMN ${column} SET STATISTICS ${target}`,
    );
    return row.constraint_def
      ? {
          table: row.table,
          name: row.name,
          constraint: true,
          create: `ALTER TABLE ${quoteIdent(row.table)} ADD CONSTRAINT ${quoteIdent(row.name)} ${row.constraint_def}`,
          settings,
          drop: `ALTER TABLE ${quoteIdent(row.table)} DROP CONSTRAINT ${quoteIdent(row.name)}`,
        }
      : {
          table: row.table,
          name: row.name,
          constraint: false,
          create: row.index_def,
          settings,
          drop: `DROP INDEX ${quoteIdent(row.name)}`,
        };
  });
}

/**
 * This machine's PostgreSQL runs with autovacuum off, so tables that grow during a run are never
 * analysed and the planner keeps guessing their sizes; production runs autovacuum. Where it is
 * off, this runs `ANALYZE` on the database every `intervalMs`, as autovacuum's analyze would.
 * Resolves to whether it stands in, and a function that stops it.
 */
export async function standInForAutovacuum(
  url: string,
  intervalMs = 15_000,
): Promise<{ standingIn: boolean; stop(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const setting = await client.query<{ autovacuum: string }>('SHOW autovacuum');
  if (setting.rows[0]?.autovacuum === 'on') {
    await client.end();
    return { standingIn: false, stop: async () => {} };
  }
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => client.query('ANALYZE').catch(() => {}));
  }, intervalMs);
  return {
    standingIn: true,
    async stop() {
      clearInterval(timer);
      await running;
      await client.end();
    },
  };
}
