// Mutation testing of the server's core modules (npm run test:mutation). One module per run,
// against only the test files that state its behaviour, so a run takes minutes on a small machine.
// The module is chosen by MUTATION_MODULE (see mutation/modules.mjs and scripts/mutation.mjs).
import { mutationModules } from './mutation/modules.mjs';

const name = process.env.MUTATION_MODULE ?? 'sync-recent';
const target = mutationModules[name];
if (!target) throw new Error(`Unknown mutation module "${name}"`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [target.file],
  testFiles: target.tests,
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 20_000,
  // The vitest runner cannot re-evaluate a module between mutants, so a mutant of code that runs
  // when the module loads (a top-level constant, a function's definition) is never active and
  // would count as surviving: those are left out (see mutation/equivalent-mutants.mjs).
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `mutation/results/${name}.json`,
  reporters: ['clear-text', 'html', 'json', 'progress'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  // One temporary folder per module, so that modules can run side by side.
  tempDirName: `.stryker-tmp-${name}`,
  cleanTempDir: 'always',
  // mutation/run.mjs enforces 90 % with the listed equivalents left out; Stryker would count them.
  thresholds: { high: 95, low: 90, break: null },
};
