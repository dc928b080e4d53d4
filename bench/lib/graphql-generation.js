// Section `graphql-generation`: generation time for GitHub's public GraphQL schema
// (@octokit/graphql-schema's schema.graphql), ours against @graphql-codegen/cli with its
// `typescript` + `typescript-resolvers` plugins: the schema's types plus typed resolvers, which is
// what our `types.ts` holds. Both run through their CLI as a user runs it, from a config file in
// bench/.work/graphql-generation/, as separate node processes with the network guard preloaded;
// warm-up runs, then measured runs interleaved round-robin, median reported (as section 1 does).
//
// GitHub's SDL declares some fields twice. graphql-js refuses that unless `assumeValidSDL` is set,
// so our config sets `options.assumeValidSDL: true`; graphql-codegen's loader (graphql-tools)
// merges the duplicates on its own and needs no option.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { outputSize } from './files.js';
import { commandLine, resultsTable, runGenerator } from './generation.js';
import { tail } from './proc.js';
import { bytes, fmtRatio, ms, ratio, summarize, table, verdict } from './stats.js';
import { binOf, oursBuilt, ROOT, versionOf, WORK } from './tools.js';

export const GRAPHQL_SCHEMA = join(ROOT, 'node_modules/@octokit/graphql-schema/schema.graphql');
const TARGET = 1.0;
const DIR = join(WORK, 'graphql-generation');
const OURS_VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

/** Writes both config files (paths in them are relative: each is read from where it lies or from ROOT). */
function writeConfigs() {
  mkdirSync(DIR, { recursive: true });
  const fromDir = relative(DIR, GRAPHQL_SCHEMA);
  writeFileSync(
    join(DIR, 'codegen.config.yaml'),
    `# Written by bench/lib/graphql-generation.js: GitHub's GraphQL schema → types.ts (types + Resolvers).
apis:
  - name: github
    input: ${fromDir}
    output: ours
    emit: [types]
    options:
      # GitHub's SDL declares some fields twice; graphql-js loads it only with this.
      assumeValidSDL: true
`,
  );
  // graphql-codegen resolves paths from its working directory (ROOT).
  writeFileSync(
    join(DIR, 'codegen.yml'),
    `# Written by bench/lib/graphql-generation.js: GitHub's GraphQL schema → types + resolver types.
schema: ${relative(ROOT, GRAPHQL_SCHEMA)}
overwrite: true
generates:
  ${relative(ROOT, join(DIR, 'graphql-codegen', 'types.ts'))}:
    plugins:
      - typescript
      - typescript-resolvers
`,
  );
}

/** @returns {import('./tools.js').Tool[]} */
function tools() {
  return [
    {
      id: 'ours',
      label: `codegen ${OURS_VERSION} (ours) --emit types`,
      emits: 'types.ts: types + Resolvers',
      outDir: join(DIR, 'ours'),
      args: [join(ROOT, 'bin', 'codegen.js'), '--config', join(DIR, 'codegen.config.yaml'), '--quiet'],
      unavailable: () => (oursBuilt() ? null : 'dist/bin/cli.js is missing: `npm run build` has not produced the CLI'),
    },
    {
      id: 'graphql-codegen',
      label: `@graphql-codegen/cli ${versionOf('@graphql-codegen/cli')}`,
      emits: `typescript ${versionOf('@graphql-codegen/typescript')} + typescript-resolvers ${versionOf('@graphql-codegen/typescript-resolvers')}`,
      outDir: join(DIR, 'graphql-codegen'),
      args: [binOf('@graphql-codegen/cli', 'graphql-codegen'), '--config', join(DIR, 'codegen.yml'), '--errors-only'],
    },
  ];
}

/** A types file without a `Resolvers` type is not the output being compared (e.g. a placeholder plugin). */
function incomplete(outDir) {
  const size = outputSize(outDir);
  if (!size) return 'wrote nothing';
  const text = size.list.map((file) => readFileSync(join(outDir, file.path), 'utf8')).join('\n');
  return /\bResolvers\b/.test(text) ? null : `its output has no \`Resolvers\` type (${bytes(size.bytes)}): not comparable yet`;
}

/**
 * @param {{ runs: number, warmup: number, log: (line: string) => void }} options
 */
export function benchGraphQLGeneration({ runs, warmup, log }) {
  writeConfigs();
  const schemaBytes = statSync(GRAPHQL_SCHEMA).size;
  log(
    `\n## 5. GraphQL generation — GitHub's schema.graphql (@octokit/graphql-schema ${versionOf('@octokit/graphql-schema')}, ${bytes(schemaBytes)}), wall time of one process per run`,
  );
  log(`   ${warmup} warm-up run(s) per tool, then ${runs} measured runs, interleaved; median reported`);
  const usageFile = join(WORK, 'usage.txt');
  const state = tools().map((tool) => ({ tool, samples: [], cpu: [], rss: [], failure: null, netAttempts: new Set() }));
  for (const entry of state) log(`   ${entry.tool.id}: ${commandLine(entry.tool)}`);

  const record = (entry, result, phase) => {
    for (const attempt of result.netAttempts) entry.netAttempts.add(attempt);
    if (result.ok) return true;
    entry.failure = { phase, error: result.error, output: tail(`${result.stdout}\n${result.stderr}`) };
    log(`   ✗ ${entry.tool.label}: ${phase} failed (${result.error})\n${entry.failure.output}`);
    return false;
  };

  for (const entry of state) {
    const reason = entry.tool.unavailable?.();
    if (reason) {
      entry.failure = { phase: 'setup', error: reason, output: '' };
      log(`   ✗ ${entry.tool.label}: not runnable — ${reason}`);
      continue;
    }
    for (let i = 0; i < warmup && !entry.failure; i++) {
      const result = runGenerator(entry.tool, usageFile);
      if (record(entry, result, 'warm-up')) log(`   warm-up  ${entry.tool.label.padEnd(34)} ${ms(result.ms)}`);
    }
  }
  for (let round = 0; round < runs; round++) {
    const line = [];
    for (const entry of state) {
      if (entry.failure) continue;
      const result = runGenerator(entry.tool, usageFile);
      if (!record(entry, result, `run ${round + 1}`)) continue;
      entry.samples.push(result.ms);
      if (result.cpuMs != null) entry.cpu.push(result.cpuMs);
      if (result.rssKb != null) entry.rss.push(result.rssKb);
      line.push(`${entry.tool.id} ${ms(result.ms)}`);
    }
    if (line.length) log(`   run ${round + 1}/${runs}  ${line.join('   ')}`);
  }

  const results = {};
  for (const entry of state) {
    const size = outputSize(entry.tool.outDir);
    results[entry.tool.id] = {
      label: entry.tool.label,
      emits: entry.tool.emits,
      command: commandLine(entry.tool),
      time: summarize(entry.samples),
      samples: entry.samples,
      cpu: summarize(entry.cpu),
      peakRssKb: summarize(entry.rss),
      output: size && { files: size.files, bytes: size.bytes, lines: size.lines },
      incomplete: entry.failure ? null : incomplete(entry.tool.outDir),
      failure: entry.failure,
      netAttempts: [...entry.netAttempts],
    };
  }

  log('');
  log(resultsTable(results));
  log('   median/min/max: wall time; CPU: median user+system time of the process tree (less sensitive to a busy machine)');
  for (const r of Object.values(results)) if (r.incomplete) log(`   ! ${r.label}: ${r.incomplete}`);

  const ours = results.ours;
  const theirs = results['graphql-codegen'];
  const comparable = !ours.incomplete && !theirs.incomplete;
  const value = comparable ? ratio(ours.time?.median, theirs.time?.median) : null;
  const cpu = comparable ? ratio(ours.cpu?.median, theirs.cpu?.median) : null;
  log('');
  log(
    table(
      ['ratio (GraphQL generation)', 'wall', 'CPU', 'target (on wall time)'],
      [['ours / graphql-codegen', fmtRatio(value), fmtRatio(cpu), comparable ? verdict(value, TARGET) : 'not comparable yet']],
    ),
  );
  const net = Object.values(results).filter((r) => r.netAttempts.length);
  for (const r of net) log(`   ! ${r.label} tried to reach the network (blocked): ${r.netAttempts.slice(0, 3).join('; ')}`);
  if (!net.length) log('   network: no generator attempted a connection (all ran with bench/lib/netguard.js preloaded)');

  return { schema: relative(ROOT, GRAPHQL_SCHEMA), schemaBytes, results, ratio: { wall: value, cpu, target: TARGET } };
}
