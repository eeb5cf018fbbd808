import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

/** Writes `bench/results/<name>` and returns its path. */
export async function writeResult(name: string, content: string): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${name}`;
  await writeFile(file, content.endsWith('\n') ? content : `${content}\n`);
  return file;
}

export const writeJson = (name: string, value: unknown) =>
  writeResult(name, JSON.stringify(value, null, 2));

/** A markdown table; numbers are right-aligned. */
export function markdownTable(header: readonly string[], rows: readonly (string | number)[][]) {
  const align = header.map((_, i) =>
    rows.some((row) => typeof row[i] === 'number') ? '--:' : '---',
  );
  return [header, align, ...rows.map((row) => row.map(String))]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
}

/** What the machine is, for the report: results only compare on the same one. */
export async function machineDescription(): Promise<string> {
  const os = await import('node:os');
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}
