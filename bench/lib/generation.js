// Section 1: full generation from GitHub's REST description, each generator as its own process.
// Warm-up runs first (they also tell whether a tool works at all), then the measured runs are
// interleaved round-robin (A B C, A B C, ...) so slow drift on the machine hits every tool alike.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { outputSize } from './files.js';
import { childEnv, tail, timed } from './proc.js';
import { bytes, fmtRatio, int, kb, ms, ratio, summarize, table, verdict } from './stats.js';
import { recordTarget, TARGETS as ISSUE_TARGETS } from './summary.js';
import { generators, ROOT, SPEC, WORK } from './tools.js';

/** Ours (types + validators + client + server) over each peer's time: at most this. */
export const TARGETS = { 'openapi-typescript': ISSUE_TARGETS.generation.atMost, 'hey-api': 0.5 };

/** Runs a generator once into a wiped output folder (the wipe is not timed). */
export function runGenerator(tool, usageFile) {
  rmSync(tool.outDir, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  return timed(process.execPath, tool.args, {
    cwd: ROOT,
    env: childEnv({ netguard: true }),
    usageFile,
    timeoutMs: 10 * 60_000,
  });
}

/** The per-generator table both generation sections print. */
export function resultsTable(results) {
  const rows = Object.values(results).map((r) => [
    r.label,
    r.emits,
    r.failure ? `FAILED (${r.failure.phase})` : ms(r.time?.median),
    ms(r.time?.min),
    ms(r.time?.max),
    r.time ? String(r.time.n) : '0',
    ms(r.cpu?.median),
    kb(r.peakRssKb?.median),
    r.output ? int(r.output.files) : '—',
    r.output ? bytes(r.output.bytes) : '—',
    r.output ? int(r.output.lines) : '—',
  ]);
  return table(['generator', 'emits', 'median', 'min', 'max', 'n', 'CPU', 'peak RSS', 'files', 'size', 'lines'], rows);
}

export function commandLine(tool) {
  const rel = (arg) => (arg.startsWith(ROOT) ? relative(ROOT, arg) || '.' : arg);
  return ['node', ...tool.args.map(rel)].join(' ');
}

/**
 * @param {{ runs: number, heyRuns: number, warmup: number, heyWarmup: number, tools: string[], log: (line: string) => void }} options
 *   @hey-api/openapi-ts takes ~30 s a run, so it gets its own (smaller) counts to keep the benchmark short.
 */
export function benchGeneration({ runs, heyRuns, warmup, heyWarmup, tools: ids, log }) {
  const all = generators(SPEC);
  const tools = ids.map((id) => all[id]).filter(Boolean);
  const specBytes = statSync(SPEC).size;
  log(`\n## 1. Generation — ${basename(SPEC)} (${bytes(specBytes)}), wall time of one process per run`);
  const hey =
    ids.includes('hey-api') && (heyRuns !== runs || heyWarmup !== warmup)
      ? ` (@hey-api/openapi-ts: ${heyWarmup} warm-up, ${heyRuns} runs)`
      : '';
  log(`   ${warmup} warm-up run(s) per tool, then ${runs} measured runs${hey}, interleaved; median reported`);

  const state = Object.fromEntries(
    tools.map((tool) => [
      tool.id,
      {
        tool,
        samples: [],
        rss: [],
        cpu: [],
        failure: null,
        netAttempts: new Set(),
        runs: tool.id === 'hey-api' ? heyRuns : runs,
        warmup: tool.id === 'hey-api' ? heyWarmup : warmup,
      },
    ]),
  );
  const usageFile = join(WORK, 'usage.txt');

  const record = (entry, result, phase) => {
    for (const attempt of result.netAttempts) entry.netAttempts.add(attempt);
    if (!result.ok) {
      entry.failure = { phase, error: result.error, output: tail(`${result.stdout}\n${result.stderr}`) };
      const same = Object.values(state).find((other) => other !== entry && other.failure?.output === entry.failure.output);
      log(
        `   ✗ ${entry.tool.label}: ${phase} failed (${result.error})${same ? `, same output as ${same.tool.label}` : `\n${entry.failure.output}`}`,
      );
      return false;
    }
    return true;
  };

  for (const entry of Object.values(state)) {
    const reason = entry.tool.unavailable?.();
    if (reason) {
      entry.failure = { phase: 'setup', error: reason, output: '' };
      log(`   ✗ ${entry.tool.label}: not runnable — ${reason}`);
      continue;
    }
    for (let i = 0; i < entry.warmup && !entry.failure; i++) {
      const result = runGenerator(entry.tool, usageFile);
      if (record(entry, result, 'warm-up')) log(`   warm-up  ${entry.tool.label.padEnd(34)} ${ms(result.ms)}`);
    }
  }

  const maxRuns = Math.max(0, ...Object.values(state).map((entry) => entry.runs));
  for (let round = 0; round < maxRuns; round++) {
    const line = [];
    for (const entry of Object.values(state)) {
      if (entry.failure || round >= entry.runs) continue;
      const result = runGenerator(entry.tool, usageFile);
      if (!record(entry, result, `run ${round + 1}`)) continue;
      entry.samples.push(result.ms);
      if (result.rssKb != null) entry.rss.push(result.rssKb);
      if (result.cpuMs != null) entry.cpu.push(result.cpuMs);
      line.push(`${entry.tool.id} ${ms(result.ms)}`);
    }
    if (line.length) log(`   run ${round + 1}/${maxRuns}  ${line.join('   ')}`);
  }

  const results = {};
  for (const entry of Object.values(state)) {
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
      outputFiles: size?.list ?? [],
      failure: entry.failure,
      netAttempts: [...entry.netAttempts],
    };
  }

  log('');
  log(resultsTable(results));
  log('   median/min/max: wall time; CPU: median user+system time of the process tree (less sensitive to a busy machine)');

  for (const id of ['ours']) {
    const files = results[id]?.outputFiles ?? [];
    if (!files.length) continue;
    const groups = new Map();
    for (const file of files) {
      const key = file.path.includes('/') ? `${file.path.split('/')[0]}/` : file.path;
      const group = groups.get(key) ?? { files: 0, bytes: 0, lines: 0 };
      group.files++;
      group.bytes += file.bytes;
      group.lines += file.lines;
      groups.set(key, group);
    }
    log(
      `   ${results[id].label} output: ${[...groups].map(([key, g]) => `${key} ${bytes(g.bytes)} / ${int(g.lines)} lines${g.files > 1 ? ` (${g.files} files)` : ''}`).join(' · ')}`,
    );
  }

  const ratios = [];
  const ours = results.ours?.time?.median;
  for (const [peer, target] of Object.entries(TARGETS)) {
    if (!results[peer]) continue;
    const value = ratio(ours, results[peer].time?.median);
    ratios.push({ name: `ours / ${peer}`, value, target, cpu: ratio(results.ours?.cpu?.median, results[peer].cpu?.median) });
  }
  if (results['ours-types'] && results['openapi-typescript']) {
    ratios.push({
      name: 'ours --emit types / openapi-typescript',
      value: ratio(results['ours-types'].time?.median, results['openapi-typescript'].time?.median),
      cpu: ratio(results['ours-types'].cpu?.median, results['openapi-typescript'].cpu?.median),
      target: null,
    });
  }
  if (ratios.length) {
    log('');
    log(
      table(
        ['ratio (generation)', 'wall', 'CPU', 'target (on wall time)'],
        ratios.map((r) => [r.name, fmtRatio(r.value), fmtRatio(r.cpu), r.target == null ? 'info' : verdict(r.value, r.target)]),
      ),
    );
  }
  const versusTypes = ratios.find((r) => r.name === 'ours / openapi-typescript');
  if (versusTypes && results.ours)
    recordTarget({
      section: 'generation',
      id: 'generation',
      ours: `${ms(results.ours.time?.median)}, ${kb(results.ours.peakRssKb?.median)}`,
      peer: `openapi-typescript ${ms(results['openapi-typescript'].time?.median)}, ${kb(results['openapi-typescript'].peakRssKb?.median)}`,
      ratio: versusTypes.value,
      cpuRatio: versusTypes.cpu,
    });
  const net = Object.values(results).filter((r) => r.netAttempts.length);
  for (const r of net) log(`   ! ${r.label} tried to reach the network (blocked): ${r.netAttempts.slice(0, 3).join('; ')}`);
  if (!net.length) log('   network: no generator attempted a connection (all ran with bench/lib/netguard.js preloaded)');

  return { spec: relative(ROOT, SPEC), specBytes, results, ratios };
}
