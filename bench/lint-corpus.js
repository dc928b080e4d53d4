#!/usr/bin/env node
/**
 * `codegen lint` over every API document of the shared corpus (issue 16's acceptance): per rule, the
 * documents with findings and the total findings; then lint vs generation on GitHub's REST
 * description (median of 3 each). Every document goes through the real CLI (`node bin/codegen.js
 * lint <file> --format json`) in its own process; nothing is asserted, figures are printed as measured.
 *
 *   npx tsc -p tsconfig.build.json && node bench/lint-corpus.js [corpus-dir] [--no-timing] [--findings <file.json>]
 *
 * --findings writes every finding (document, rule, line, message) to a JSON file for reading samples.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'bin/codegen.js');
const args = process.argv.slice(2);
const findingsOut = args.includes('--findings') ? args[args.indexOf('--findings') + 1] : undefined;
const corpus = resolve(args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--findings') ?? '/work/shared/corpus');
const githubSpec = join(repo, 'node_modules/@octokit/openapi/generated/api.github.com.json');

/** Test suites and license/readme files are not API documents. */
const SKIP_FOLDERS = new Set(['json-schema-test-suite', 'example_queries']);

function walk(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return SKIP_FOLDERS.has(name) ? [] : walk(path);
    return [path];
  });
}

/**
 * One lint job per document. A .proto is linted with the folder of its set that holds `google/` or
 * `grpc/` (its include root) on the include paths; the well-known types (google/protobuf/*) are the
 * set's vendored dependencies, not documents of their own.
 */
function documents() {
  const jobs = [];
  for (const file of walk(corpus).sort()) {
    const rel = relative(corpus, file);
    if (/^openapi\/.*\.(ya?ml|json)$/.test(rel) || /^asyncapi\/.*\.(ya?ml|json)$/.test(rel) || /^graphql\/.*\.graphql$/.test(rel)) {
      jobs.push({ rel, file });
    } else if (rel.endsWith('.proto') && !rel.includes('google/protobuf/')) {
      const set = rel.split('/').slice(0, 2).join('/');
      jobs.push({ rel, file, includeRoot: join(corpus, set) });
    }
  }
  return jobs;
}

/** A config for one .proto with its include root (the CLI takes include paths from the config). */
function protoConfig(job, folder) {
  const config = join(folder, 'codegen.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      apis: [
        {
          name: 'corpus',
          style: 'proto',
          input: job.file,
          output: join(folder, 'out'),
          allowRead: [job.includeRoot],
          options: { includePaths: [job.includeRoot] },
        },
      ],
    }),
  );
  return config;
}

function lint(job, scratch) {
  const argv = job.includeRoot
    ? ['lint', '--config', protoConfig(job, scratch), '--format', 'json']
    : ['lint', job.file, '--format', 'json'];
  const run = spawnSync(process.execPath, [cli, ...argv], { cwd: scratch, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  try {
    const report = JSON.parse(run.stdout);
    return { findings: report.apis.flatMap((api) => api.findings) };
  } catch {
    const first = `${run.stdout}${run.stderr}`.trim().split('\n')[0] ?? `exit ${run.status}`;
    return { refused: first.replace(/\S*?corpus\//, '') };
  }
}

function timeOnce(argv, cwd) {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [cli, ...argv], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  // lint exits 1 on error-severity findings; it must still have printed its JSON report.
  const failed = argv[0] === 'lint' ? !run.stdout.trimStart().startsWith('{') : run.status !== 0;
  if (failed) throw new Error(`${argv.join(' ')}: exit ${run.status}\n${run.stderr}`);
  return seconds;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const scratch = mkdtempSync(join(tmpdir(), 'lint-corpus-'));
try {
  const jobs = documents();
  const perRule = new Map();
  const refused = [];
  const all = [];
  for (const job of jobs) {
    const result = lint(job, scratch);
    if (result.refused) {
      refused.push(`${job.rel}: ${result.refused}`);
      continue;
    }
    for (const finding of result.findings) {
      const entry = perRule.get(finding.ruleId) ?? { documents: new Set(), findings: 0 };
      entry.documents.add(job.rel);
      entry.findings++;
      perRule.set(finding.ruleId, entry);
      all.push({
        document: job.rel,
        ruleId: finding.ruleId,
        file: relative(corpus, finding.file),
        line: finding.line,
        column: finding.column,
        message: finding.message,
      });
    }
  }
  console.log(
    `# codegen lint over ${corpus}: ${jobs.length} documents, ${jobs.length - refused.length} linted, ${refused.length} refused by the loader\n`,
  );
  console.log('| rule | documents with findings | findings |\n|---|---:|---:|');
  for (const [rule, entry] of [...perRule].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`| ${rule} | ${entry.documents.size} | ${entry.findings} |`);
  console.log(`| **total** | ${new Set(all.map((f) => f.document)).size} | ${all.length} |`);
  if (refused.length)
    console.log(`\nRefused (the generator's loader stops; lint reports the load error):\n${refused.map((line) => `- ${line}`).join('\n')}`);
  if (findingsOut) writeFileSync(findingsOut, JSON.stringify(all, null, 1));

  if (!args.includes('--no-timing')) {
    if (!existsSync(githubSpec)) {
      console.log(`\nTiming skipped: ${relative(repo, githubSpec)} is missing (npm ci installs @octokit/openapi).`);
    } else {
      const lintTimes = [];
      const generateTimes = [];
      for (let i = 0; i < 3; i++) {
        lintTimes.push(timeOnce(['lint', githubSpec, '--format', 'json'], scratch));
        const out = join(scratch, `github-${i}`);
        generateTimes.push(timeOnce(['generate', githubSpec, '-o', out, '--quiet'], scratch));
        rmSync(out, { recursive: true, force: true });
      }
      const format = (values) => `median ${median(values).toFixed(2)} s (runs: ${values.map((v) => v.toFixed(2)).join(', ')})`;
      console.log(`\nGitHub REST description (${relative(repo, githubSpec)}), interleaved, 3 runs each:`);
      console.log(`- lint:     ${format(lintTimes)}`);
      console.log(`- generate: ${format(generateTimes)}`);
      console.log(`- lint / generate: ${(median(lintTimes) / median(generateTimes)).toFixed(2)}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
