#!/usr/bin/env node
/**
 * The test run of `npm test` (after test/provision.js and the build): vitest on every test file
 * under the Node that runs npm, then the e2e files of each style (generated server + generated
 * client over real sockets) again under Node 22 and under Node 24 (test/node-runtimes.js). Each
 * run keeps vitest's own output; the run ends with one plain line summed over all runs,
 * `tests: N passed, N failed[, N skipped]`, which log readers that do not know vitest's summary
 * can count.
 *
 * `npm test -- <filters…>` passes the filters to vitest; the Node 22/24 runs then take only the
 * e2e files whose path contains one of them (none: they are skipped).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXTRA_NODE_RUNTIMES } from './node-runtimes.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
/** One per style: the generated server and the generated client talk over a real socket. */
export const E2E_FILES = ['test/rest-e2e.test.ts', 'test/graphql-e2e.test.ts', 'test/grpc-e2e.test.ts', 'test/realtime-e2e.test.ts'];

/** The Node that runs npm (npm tells its scripts), else this one. */
const MACHINE_NODE = process.env.npm_node_execpath || process.execPath;

function nodeVersion(binary) {
  const result = spawnSync(binary, ['-p', 'process.version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** Counts from vitest's JSON report; a file that failed outside any test (import, hook) counts once. */
function countReport(report) {
  const fileFailures = report.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + fileFailures,
    skipped: report.numPendingTests + report.numTodoTests,
    files: report.testResults.length,
  };
}

/** Runs vitest on `files` under `binary`; returns the counts and how long it took. */
function runVitest(binary, label, files, options) {
  const shown = relative(ROOT, binary).startsWith('..') ? binary : relative(ROOT, binary);
  const version = existsSync(binary) ? nodeVersion(binary) : undefined;
  if (!version) {
    console.error(`\n${label}: ${shown} is missing or does not run; run \`npm ci\` (it is a devDependency)`);
    return { label, version: '?', passed: 0, failed: 1, skipped: 0, files: 0, seconds: 0 };
  }
  console.log(`\n━━ ${label}: Node ${version} (${shown}) on ${files.length ? files.join(' ') : 'every test file'}`);

  const reportFolder = mkdtempSync(join(tmpdir(), 'codegen-vitest-'));
  const reportFile = join(reportFolder, 'report.json');
  const started = Date.now();
  const result = spawnSync(
    binary,
    [VITEST, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...options, ...files],
    {
      cwd: ROOT,
      stdio: 'inherit',
      // Test workers check that they run under this version (test/support/node-version.ts), and
      // anything a test starts as plain `node` finds the same binary first.
      env: { ...process.env, CODEGEN_TEST_NODE_VERSION: version, PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}` },
    },
  );
  const seconds = (Date.now() - started) / 1000;
  let counts;
  try {
    counts = countReport(JSON.parse(readFileSync(reportFile, 'utf8')));
  } catch {
    console.error(`${label}: vitest exited with ${result.status ?? result.signal} and wrote no report`);
    counts = { passed: 0, failed: 1, skipped: 0, files: 0 };
  } finally {
    rmSync(reportFolder, { recursive: true, force: true });
  }
  // vitest fails a run for reasons outside the tests too (unhandled errors, no test files).
  if (result.status !== 0 && counts.failed === 0) counts.failed = 1;
  return { label, version, ...counts, seconds };
}

const args = process.argv.slice(2);
const filters = args.filter((arg) => !arg.startsWith('-'));
const options = args.filter((arg) => arg.startsWith('-'));
const e2eFiles = filters.length ? E2E_FILES.filter((file) => filters.some((filter) => file.includes(filter))) : E2E_FILES;

const runs = [runVitest(MACHINE_NODE, filters.length ? 'selected tests' : 'all tests', filters, options)];
for (const runtime of EXTRA_NODE_RUNTIMES) {
  if (e2eFiles.length === 0) continue;
  runs.push(runVitest(runtime.binary, `e2e on ${runtime.alias}`, e2eFiles, options));
}

const total = { passed: 0, failed: 0, skipped: 0 };
console.log('\n━━ Summary');
for (const run of runs) {
  for (const key of Object.keys(total)) total[key] += run[key];
  console.log(
    `  Node ${run.version}, ${run.label} (${run.files} files, ${run.seconds.toFixed(0)} s): ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped`,
  );
}
console.log(`tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exitCode = total.failed > 0 ? 1 : 0;
