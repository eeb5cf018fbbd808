// Applies each static mutant of a Stryker JSON report by hand and runs the given tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
const [report, ...tests] = process.argv.slice(2);
const r = JSON.parse(readFileSync(report, 'utf8'));
for (const [file, f] of Object.entries(r.files)) {
  const original = readFileSync(file, 'utf8');
  const lines = original.split('\n');
  const offset = (loc) =>
    lines.slice(0, loc.line - 1).reduce((n, l) => n + l.length + 1, 0) + loc.column - 1;
  try {
    for (const m of f.mutants.filter((m) => m.static)) {
      const mutated =
        original.slice(0, offset(m.location.start)) +
        m.replacement +
        original.slice(offset(m.location.end));
      writeFileSync(file, mutated);
      const run = spawnSync('npx', ['vitest', 'run', ...tests, '--bail=1'], { encoding: 'utf8' });
      console.log(
        `${m.id} ${m.mutatorName} L${m.location.start.line} ${JSON.stringify(m.replacement).slice(0, 50)} -> ${run.status === 0 ? 'SURVIVED' : 'killed'}`,
      );
    }
  } finally {
    writeFileSync(file, original);
  }
}
