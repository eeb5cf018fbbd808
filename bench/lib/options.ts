import { parseArgs } from 'node:util';

type OptionValue = number | string | boolean;

/**
 * Reads `--kebab-case value` options (and `--flag` for booleans) into a copy of `defaults`, typed
 * like it. Unknown options and malformed numbers stop the run with the list of known options.
 */
export function readOptions<T extends Record<string, OptionValue>>(
  defaults: T,
  argv: string[] = process.argv.slice(2),
): T {
  const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const spec = Object.fromEntries(
    Object.entries(defaults).map(([key, value]) => [
      kebab(key),
      { type: typeof value === 'boolean' ? ('boolean' as const) : ('string' as const) },
    ]),
  );
  const usage = () =>
    Object.entries(defaults)
      .map(([key, value]) => `  --${kebab(key)} (default ${String(value)})`)
      .join('\n');
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: false })
      .values as Record<string, string | boolean | undefined>;
  } catch (error) {
    throw new Error(`${(error as Error).message}\nOptions:\n${usage()}`);
  }
  const result: Record<string, OptionValue> = { ...defaults };
  for (const [key, fallback] of Object.entries(defaults)) {
    const given = values[kebab(key)];
    if (given === undefined) continue;
    if (typeof fallback === 'number') {
      const number = Number(given);
      if (!Number.isFinite(number)) throw new Error(`--${kebab(key)} needs a number`);
      result[key] = number;
    } else {
      result[key] = given;
    }
  }
  return result as T;
}
