/**
 * The JSON layouts of Spotify's export files, written row by row. Each file type has its own
 * whitespace, as Spotify's serializers print them:
 *
 * - `jacksonRoot`: extended streaming history (`Streaming_History_*.json`): `[ {` … `}, {` … `} ]`,
 *   `"key" : value`, fields indented by two spaces, objects not indented.
 * - `jacksonIndented`: account data streaming history (`StreamingHistory*.json`): `[`, each object
 *   indented by two spaces and its fields by four, `"key" : value`.
 * - `compact`: the legacy `endsong_<N>.json`: one line, no blanks.
 *
 * The small account files (`Userdata.json`, `YourLibrary.json`, …) use `"key": value` with two
 * spaces per level: see `prettyJson`.
 */

export interface ArrayLayout {
  /** Written before the first row. */
  readonly open: string;
  /** Written between rows. */
  readonly separator: string;
  /** Written after the last row. */
  readonly close: string;
  /** A file without rows. */
  readonly empty: string;
  /** The text of one object, from its keys (in order) and the JSON of its values. */
  record(keys: readonly string[]): RecordLayout;
}

/** Prints objects with a fixed key order: `prefixes[i]` goes before the i-th value. */
export interface RecordLayout {
  readonly prefixes: readonly string[];
  readonly suffix: string;
}

function layout(
  frame: Omit<ArrayLayout, 'record'>,
  fieldPrefix: (key: string, first: boolean) => string,
  suffix: string,
): ArrayLayout {
  return {
    ...frame,
    record: (keys) => ({
      prefixes: keys.map((key, index) => fieldPrefix(JSON.stringify(key), index === 0)),
      suffix,
    }),
  };
}

export const JACKSON_ROOT: ArrayLayout = layout(
  { open: '[ ', separator: ', ', close: ' ]', empty: '[ ]' },
  (key, first) => `${first ? '{' : ','}\n  ${key} : `,
  '\n}',
);

export const JACKSON_INDENTED: ArrayLayout = layout(
  { open: '[\n', separator: ',\n', close: '\n]', empty: '[ ]' },
  (key, first) => `${first ? '  {' : ','}\n    ${key} : `,
  '\n  }',
);

export const COMPACT: ArrayLayout = layout(
  { open: '[', separator: ',', close: ']', empty: '[]' },
  (key, first) => `${first ? '{' : ','}${key}:`,
  '}',
);

/** One object: the values are JSON already (see `jsonValue`), in the record's key order. */
export function printRecord(record: RecordLayout, values: readonly string[]): string {
  let text = '';
  for (let index = 0; index < values.length; index++) {
    text += (record.prefixes[index] ?? '') + values[index];
  }
  return text + record.suffix;
}

export type JsonScalar = string | number | boolean | null;

export function jsonValue(value: JsonScalar): string {
  return value === null
    ? 'null'
    : typeof value === 'string'
      ? JSON.stringify(value)
      : String(value);
}

export type PrettyValue =
  JsonScalar | readonly PrettyValue[] | { readonly [key: string]: PrettyValue };

/**
 * The small account-data files: two spaces per level, `"key": value`, and an empty list printed
 * as `[` and `]` on two lines (as in `YourLibrary.json`'s `"bannedTracks": [\n  ]`).
 */
export function prettyJson(value: PrettyValue, indent = ''): string {
  if (value === null || typeof value !== 'object') return jsonValue(value);
  const inner = `${indent}  `;
  if (isList(value)) {
    if (value.length === 0) return `[\n${indent}]`;
    return `[\n${value.map((item) => inner + prettyJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  const fields = Object.entries(value).map(
    ([key, item]) => `${inner}${JSON.stringify(key)}: ${prettyJson(item, inner)}`,
  );
  return fields.length === 0 ? '{ }' : `{\n${fields.join(',\n')}\n${indent}}`;
}

function isList(value: PrettyValue): value is readonly PrettyValue[] {
  return Array.isArray(value);
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, value) => String(value).padStart(2, '0'));
/** The date part of the last `isoSecond`: rows come in time order, most share their day. */
let lastDay = Number.NaN;
let lastDayPrefix = '';

/** `ts` of the extended history: UTC to the second, e.g. "2023-09-25T12:26:38Z". */
export function isoSecond(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDay = day;
    lastDayPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  const seconds = Math.floor((ms - day * DAY_MS) / 1000);
  const hours = TWO_DIGITS[Math.floor(seconds / 3600)] ?? '';
  const minutes = TWO_DIGITS[Math.floor(seconds / 60) % 60] ?? '';
  return `${lastDayPrefix}${hours}:${minutes}:${TWO_DIGITS[seconds % 60] ?? ''}Z`;
}

const MEMO_LIMIT = 4096;
const memo = new Map<string, string>();

/**
 * The JSON of a string that recurs across rows (platforms, reasons, countries, addresses): kept
 * in a small cache, emptied when it fills.
 */
export function jsonRecurring(text: string): string {
  let json = memo.get(text);
  if (json === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    json = JSON.stringify(text);
    memo.set(text, json);
  }
  return json;
}

/** `endTime` of the account data: UTC to the minute, e.g. "2024-05-30 07:48". */
export function minuteTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** A calendar date, e.g. "2024-06-28". */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
