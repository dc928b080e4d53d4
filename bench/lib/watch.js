// Section `watch`: edit-to-written latency of `codegen --watch` on GitHub's REST description.
// A copy of the description in bench/.work/watch/ is generated once by a plain run (the full-run
// time beside the figures), then `codegen generate <copy> -o … --watch` is started and N one-schema
// edits are saved, one at a time, each made by changing one component schema of the parsed copy and
// writing the whole text as the file is written (`JSON.stringify(…, null, 2)`, byte-identical for
// an unchanged document). Latency runs from just before the write to the watch process's summary
// line, which it prints once every file is in place; the files it names are the ones rewritten.
// The watch process's CPU per edit comes from /proc (utime + stime), when there is one.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadavg } from 'node:os';
import { childEnv } from './proc.js';
import { recordTarget } from './summary.js';
import { fmtRatio, ms, ratio, summarize, table } from './stats.js';
import { oursBuilt, ROOT, SPEC, WORK } from './tools.js';

const DIR = join(WORK, 'watch');
const COPY = join(DIR, 'api.github.com.json');
const BIN = join(ROOT, 'bin', 'codegen.js');
const TARGET_MS = 200;
/** Schemas the edits go round: widely referenced ones and leaves. */
const EDITED = ['simple-user', 'repository', 'issue', 'pull-request-simple', 'label', 'milestone', 'reaction-rollup', 'license-simple'];

/** The i-th edit: a description changed, or (every third) a property added. */
function edit(document, i) {
  const schema = document.components.schemas[EDITED[i % EDITED.length]];
  if (i % 3 === 2)
    schema.properties = { ...schema.properties, [`bench_edit_${i}`]: { type: 'string', description: `Added by edit ${i}.` } };
  else schema.description = `${schema.description ?? ''} (watch bench edit ${i})`;
}

/** CPU seconds (user + system) a process has used so far, or null without /proc. */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Wall time of one plain `codegen generate` of the copy into `out` (created beforehand). */
function fullRun(out) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [BIN, 'generate', COPY, '-o', out, '--quiet'], {
    cwd: ROOT,
    env: childEnv(),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`full run failed: ${result.stderr}`);
  return performance.now() - started;
}

export async function benchWatch({ log, quick }) {
  log('\n## watch: `codegen --watch`, one-schema edits to api.github.com.json (edit-to-written latency)\n');
  if (!oursBuilt()) {
    log('✗ dist/bin/cli.js is missing: `npm run build` has not produced the CLI');
    return { ok: false };
  }
  const edits = quick ? 3 : 12;
  const fullRuns = quick ? 1 : 3;
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  cpSync(SPEC, COPY);
  const document = JSON.parse(readFileSync(COPY, 'utf8'));
  const load = [loadavg()[0]];

  const full = [];
  for (let i = 0; i < fullRuns; i++) full.push(fullRun(join(DIR, `full-${i}`)));

  const out = join(DIR, 'out');
  const child = spawn(process.execPath, [BIN, 'generate', COPY, '-o', out, '--watch'], { cwd: ROOT, env: childEnv() });
  let stdout = '';
  let stderr = '';
  let wake = () => undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk) => ((stdout += chunk), wake()));
  child.stderr.setEncoding('utf8').on('data', (chunk) => ((stderr += chunk), wake()));
  const exited = new Promise((resolve) => child.on('exit', (code) => (wake(), resolve(code))));
  /** Resolves with the stdout after `from` once it matches `pattern`, and the time it did. */
  const waitFor = async (pattern, from) => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const seen = stdout.slice(from);
      if (pattern.test(seen)) return { seen, at: performance.now() };
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(
          `codegen --watch ${child.exitCode !== null ? 'exited' : 'timed out'}:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`,
        );
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, 1000);
      });
    }
  };

  const samples = [];
  try {
    await waitFor(/codegen: watching for changes/, 0);
    // The first run may be followed by one more (its own output appearing in a watched folder):
    // the edits start once nothing has been printed for 2 s.
    for (let printed = -1; printed !== stdout.length; ) {
      printed = stdout.length;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    for (let i = 0; i < edits; i++) {
      edit(document, i);
      const text = JSON.stringify(document, null, 2);
      const from = stdout.length;
      const cpuBefore = cpuOf(child.pid);
      const started = performance.now();
      writeFileSync(COPY, text);
      const { seen, at } = await waitFor(/codegen: \d+ written.*\n/, from);
      const cpuAfter = cpuOf(child.pid);
      const written = [...seen.matchAll(/ {2}wrote {4}(.+)\n/g)].map((match) => relative(out, join(ROOT, match[1])));
      const reported = /in (\d+) ms/.exec(seen);
      samples.push({
        ms: at - started,
        runMs: reported ? Number(reported[1]) : null,
        cpuMs: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) * 1000,
        written,
      });
    }
  } catch (cause) {
    log(`✗ ${cause.message}`);
    return { ok: false };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  load.push(loadavg()[0]);

  const latency = summarize(samples.map((s) => s.ms));
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)];
  const runMs = summarize(samples.filter((s) => s.runMs !== null).map((s) => s.runMs));
  const cpu = summarize(samples.filter((s) => s.cpuMs !== null).map((s) => s.cpuMs));
  const fullMedian = summarize(full).median;
  log(
    table(
      ['what', 'median', 'p90', 'min – max', 'n'],
      [
        [
          'full run (`codegen generate`, new process)',
          ms(fullMedian),
          '',
          `${ms(Math.min(...full))} – ${ms(Math.max(...full))}`,
          String(full.length),
        ],
        [
          'edit → written (`--watch`, settle included)',
          ms(latency.median),
          ms(p90),
          `${ms(latency.min)} – ${ms(latency.max)}`,
          String(latency.n),
        ],
        [
          '  of which the run (its own summary)',
          ms(runMs?.median),
          '',
          runMs ? `${ms(runMs.min)} – ${ms(runMs.max)}` : '—',
          String(runMs?.n ?? 0),
        ],
        ['  watch process CPU per edit', ms(cpu?.median), '', cpu ? `${ms(cpu.min)} – ${ms(cpu.max)}` : '—', String(cpu?.n ?? 0)],
      ],
    ),
  );
  const rewritten = [...new Set(samples.flatMap((s) => s.written))].sort();
  log(`\nfiles rewritten by the edits: ${rewritten.join(', ') || 'none'}`);
  log(
    `edit → written / full run: ${fmtRatio(ratio(latency.median, fullMedian))} · median ${ms(latency.median)} — ${latency.median <= TARGET_MS ? 'within' : 'over'} target ≤ ${TARGET_MS} ms · load average ${load.map((l) => l.toFixed(2)).join(' → ')}`,
  );
  recordTarget({
    section: 'watch',
    id: 'watch',
    what: 'codegen --watch, one-schema edit → written, GitHub REST',
    ours: `${ms(latency.median)} (p90 ${ms(p90)}), ${ms(cpu?.median)} CPU`,
    peer: `full run ${ms(fullMedian)}`,
    ratio: ratio(latency.median, fullMedian),
    target: null,
    note: `target ≤ ${TARGET_MS} ms: ${latency.median <= TARGET_MS ? 'within' : 'over'}`,
  });
  return { ok: true, full, samples, p90, load };
}
