// Runs the mutation tests of the server's core modules (npm run test:mutation), one module after
// the other, in incremental mode: the committed results in mutation/results/ let a run re-test
// only the mutants whose code or tests changed. Fails when a module scores below the threshold.
//
//   node mutation/run.mjs                 every module
//   node mutation/run.mjs social activity the modules named
//   node mutation/run.mjs --force social  re-test every mutant (rewrites the results)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mutationModules } from './modules.mjs';

const args = process.argv.slice(2);
const force = args.includes('--force');
const names = args.filter((arg) => !arg.startsWith('--'));
const unknown = names.filter((name) => !(name in mutationModules));
if (unknown.length > 0) {
  console.error(
    `Unknown module(s): ${unknown.join(', ')}. Known: ${Object.keys(mutationModules).join(', ')}`,
  );
  process.exit(2);
}

/** killed / (killed + survived + no coverage), timeouts counting as killed; static mutants left out. */
function score(name) {
  const report = JSON.parse(readFileSync(`reports/mutation/${name}.json`, 'utf8'));
  const counts = {};
  for (const file of Object.values(report.files)) {
    for (const mutant of file.mutants) counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
  }
  const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const undetected = (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  return { percent: (100 * detected) / (detected + undetected), counts };
}

const results = [];
let failed = false;
for (const name of names.length > 0 ? names : Object.keys(mutationModules)) {
  const module = mutationModules[name];
  if (module.postgres && !process.env.TEST_DATABASE_URL) {
    console.warn(
      `${name}: its races only show on PostgreSQL; set TEST_DATABASE_URL to run its tests there.`,
    );
  }
  const started = Date.now();
  const run = spawnSync(
    'npx',
    ['stryker', 'run', 'stryker.config.mjs', ...(force ? ['--force'] : [])],
    {
      stdio: 'inherit',
      env: { ...process.env, MUTATION_MODULE: name },
    },
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  if (run.status !== 0) failed = true;
  const measured = existsSync(`reports/mutation/${name}.json`) ? score(name) : null;
  results.push({ name, seconds, status: run.status, measured });
}

console.log('\nMutation scores (threshold 90 %):');
for (const { name, seconds, status, measured } of results) {
  const figure = measured
    ? `${measured.percent.toFixed(2)} % ${JSON.stringify(measured.counts)}`
    : 'no report';
  console.log(`  ${name.padEnd(12)} ${figure} in ${seconds} s${status === 0 ? '' : ' FAILED'}`);
}
process.exit(failed ? 1 : 0);
