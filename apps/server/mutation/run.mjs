// Runs the mutation tests of the server's core modules (npm run test:mutation), one module after
// the other, in incremental mode: the committed results in mutation/results/ let a run re-test
// only the mutants whose code or tests changed, and a module whose code and tests are as they
// were measured is not run at all. Fails when a module scores below the threshold.
//
//   node mutation/run.mjs                 every module
//   node mutation/run.mjs social activity the modules named
//   node mutation/run.mjs --force social  re-test every mutant (rewrites the results)
//   node mutation/run.mjs --score-only    score the committed results again (after editing the
//                                         equivalents list), without running Stryker
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { equivalentMutants } from './equivalent-mutants.mjs';
import { mutationModules } from './modules.mjs';

/** stryker.config.mjs's options that decide which mutants there are and how each one ends. */
const OUTCOME_OPTIONS = [
  'testRunner',
  'vitest',
  'plugins',
  'coverageAnalysis',
  'timeoutMS',
  'ignoreStatic',
  'mutator',
];

const args = process.argv.slice(2);
const force = args.includes('--force');
const scoreOnly = args.includes('--score-only');
const names = args.filter((arg) => !arg.startsWith('--'));
const unknown = names.filter((name) => !(name in mutationModules));
if (unknown.length > 0) {
  console.error(
    `Unknown module(s): ${unknown.join(', ')}. Known: ${Object.keys(mutationModules).join(', ')}`,
  );
  process.exit(2);
}

/** The module's equivalent survivors, matched by mutator, replacement and source line. */
function isListedEquivalent(name, mutant, sourceLines) {
  const line = sourceLines[mutant.location.start.line - 1] ?? '';
  return (equivalentMutants[name] ?? []).find(
    (entry) =>
      entry.mutator === mutant.mutatorName &&
      entry.replacement === mutant.replacement &&
      line.includes(entry.line),
  );
}

/**
 * killed / (killed + survived + no coverage), timeouts counting as killed; static mutants are
 * left out by Stryker, listed equivalents here. Also names the survivors that are gaps, and the
 * listed equivalents no survivor matches any more.
 */
function score(resultsFile, name) {
  const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const counts = {};
  const gaps = [];
  const matched = new Set();
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const sourceLines = source.split('\n');
    for (const mutant of mutants) {
      let status = mutant.status;
      if (status === 'Survived' || status === 'NoCoverage') {
        const entry = isListedEquivalent(name, mutant, sourceLines);
        if (entry) {
          matched.add(entry);
          status = 'Equivalent';
        } else {
          const at = `${file}:${mutant.location.start.line}`;
          gaps.push(
            `${at} ${mutant.mutatorName} → ${JSON.stringify(mutant.replacement)} (${status})`,
          );
        }
      }
      counts[status] = (counts[status] ?? 0) + 1;
    }
  }
  const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const undetected = (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  const stale = (equivalentMutants[name] ?? []).filter((entry) => !matched.has(entry));
  return { percent: (100 * detected) / (detected + undetected), counts, gaps, stale };
}

const strykerVersion = JSON.parse(
  readFileSync(new URL(import.meta.resolve('@stryker-mutator/core/package.json')), 'utf8'),
).version;
const strykerOptions = (await import('../stryker.config.mjs')).default;

/**
 * Whether a recorded option is `value`: an object has its keys (Stryker adds its defaults), and
 * an option the config leaves out is Stryker's default (the same for the same version).
 */
function holds(recorded, value) {
  if (value === undefined) return true;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return JSON.stringify(recorded) === JSON.stringify(value);
  }
  return Object.entries(value).every(([key, inner]) => holds(recorded?.[key], inner));
}

/**
 * Whether the committed results were measured on exactly this module and these test files, by
 * this Stryker with these options (and on PostgreSQL when the module needs it): then Stryker's
 * incremental run would re-test nothing, and only its dry run of every test would cost.
 */
function unchanged(resultsFile, module) {
  if (!existsSync(resultsFile)) return false;
  if (module.postgres && !process.env.TEST_DATABASE_URL) return false;
  const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const sameSource = (recorded, path) =>
    recorded !== undefined && recorded.source === readFileSync(path, 'utf8');
  const testFiles = Object.keys(report.testFiles ?? {}).sort();
  return (
    report.framework?.version === strykerVersion &&
    OUTCOME_OPTIONS.every((key) => holds(report.config?.[key], strykerOptions[key])) &&
    sameSource(report.files?.[module.file], module.file) &&
    JSON.stringify(testFiles) === JSON.stringify([...module.tests].sort()) &&
    testFiles.every((path) => sameSource(report.testFiles[path], path))
  );
}

const THRESHOLD = 90;
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
  // Stryker rewrites the module's incremental file with every mutant's status after each run.
  const resultsFile = `mutation/results/${name}.json`;
  const skipped = scoreOnly
    ? 'scored from the committed results'
    : !force && unchanged(resultsFile, module)
      ? 'as committed: module and tests unchanged'
      : undefined;
  const run = skipped
    ? { status: 0 }
    : spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', ...(force ? ['--force'] : [])], {
        stdio: 'inherit',
        env: { ...process.env, MUTATION_MODULE: name },
      });
  const seconds = Math.round((Date.now() - started) / 1000);
  const measured = existsSync(resultsFile) ? score(resultsFile, name) : null;
  // Stryker's own threshold is off (it would count equivalents); the score here decides.
  if (run.status !== 0 || !measured || measured.percent < THRESHOLD) failed = true;
  results.push({ name, seconds, status: run.status, measured, skipped });
}

console.log(`\nMutation scores (threshold ${THRESHOLD} %, listed equivalents left out):`);
for (const { name, seconds, status, measured, skipped } of results) {
  const figure = measured
    ? `${measured.percent.toFixed(2)} % ${JSON.stringify(measured.counts)}`
    : 'no report';
  const verdict =
    status !== 0 ? ' FAILED' : measured && measured.percent < THRESHOLD ? ' BELOW' : '';
  const how = skipped ?? `in ${seconds} s`;
  console.log(`  ${name.padEnd(12)} ${figure} ${how}${verdict}`);
  for (const gap of measured?.gaps ?? []) console.log(`    survived: ${gap}`);
  for (const entry of measured?.stale ?? []) {
    console.log(
      `    listed as equivalent but not found: ${entry.mutator} → ${entry.replacement} on "${entry.line}"`,
    );
  }
}
process.exit(failed ? 1 : 0);
