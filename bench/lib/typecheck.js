// Section 2: how long a user's `tsc --noEmit` takes on the generated code, ours vs openapi-typescript's
// (and, for information, @hey-api/openapi-ts's), under TypeScript 5.9 and TypeScript 7.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { listFiles, outputSize } from './files.js';
import { runGenerator } from './generation.js';
import { childEnv, tail, timed } from './proc.js';
import { bytes, fmtRatio, int, ms, ratio, summarize, table, verdict } from './stats.js';
import { generators, ROOT, versionOf, WORK } from './tools.js';

import { TARGETS } from './summary.js';

/** Ours over openapi-typescript's time: at most this (issue 17: TypeScript 5.9 and 7 alike). */
export const TARGET = TARGETS['tsc-5'].atMost;
/** A type-check slower than this is measured once (its warm-up run) instead of `runs` times. */
export const SLOW_MS = 20_000;

export const COMPILERS = [
  { id: 'ts5', label: `TypeScript ${versionOf('typescript')}`, bin: join(ROOT, 'node_modules/typescript/bin/tsc') },
  { id: 'ts7', label: `TypeScript ${versionOf('typescript7')}`, bin: join(ROOT, 'node_modules/typescript7/bin/tsc') },
];

// One project's settings for every subject: our output includes a node:http server, so @types/node
// is loaded (by path: the checked folders are under bench/.work, where a symlinked node_modules
// would not be found by every compiler).
const COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  types: ['node'],
  typeRoots: [join(ROOT, 'node_modules/@types')],
};

/** What gets type-checked; each subject is one tsconfig written into bench/.work/tsc. */
function subjects() {
  const gen = generators();
  return [
    // `**/*.ts` takes the .d.ts files too (the declarations of the .js validators), as a project's include does.
    { id: 'ours', label: 'ours: whole output', generator: gen.ours, include: [`${relPath(gen.ours.outDir)}/**/*.ts`] },
    { id: 'ours-types', label: 'ours: types.ts only', generator: gen.ours, files: [`${relPath(gen.ours.outDir)}/types.ts`] },
    {
      id: 'openapi-typescript',
      label: 'openapi-typescript: schema.ts',
      generator: gen['openapi-typescript'],
      files: [`${relPath(gen['openapi-typescript'].outDir)}/schema.ts`],
    },
    {
      id: 'hey-api',
      label: '@hey-api/openapi-ts: whole output',
      generator: gen['hey-api'],
      include: [`${relPath(gen['hey-api'].outDir)}/**/*.ts`],
    },
  ];
}

const TSC_DIR = join(WORK, 'tsc');
const relPath = (path) => relative(TSC_DIR, path).split('\\').join('/');

function writeConfig(subject) {
  mkdirSync(TSC_DIR, { recursive: true });
  const file = join(TSC_DIR, `tsconfig.${subject.id}.json`);
  const config = { compilerOptions: subject.types ? { ...COMPILER_OPTIONS, types: subject.types } : COMPILER_OPTIONS };
  if (subject.files) config.files = subject.files;
  if (subject.include) config.include = subject.include;
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

function countErrors(text) {
  return (text.match(/error TS\d+/g) ?? []).length;
}

/**
 * @param {{ runs: number, warmup: number, subjects: string[], log: (line: string) => void, regenerate: boolean,
 *           generation?: { results: Record<string, { failure: unknown }> } }} options
 *   generation: section 1's results of this run, whose outputs are checked as they are.
 */
export function benchTypecheck({ runs, warmup, subjects: wanted, log, regenerate, generation }) {
  log(`\n## 2. tsc --noEmit on the generated code (strict, skipLibCheck, lib ES2022+DOM+DOM.Iterable, NodeNext)`);
  log(
    `   ${warmup} warm-up run(s), then median of ${runs} (a check over ${SLOW_MS / 1000} s is measured once); tsconfigs in ${relative(ROOT, TSC_DIR)}/`,
  );
  const chosen = subjects().filter((subject) => wanted.includes(subject.id));

  // Outputs come from section 1 of this run; if it was skipped, reuse earlier outputs or generate once (untimed).
  const prepared = new Map();
  for (const subject of chosen) {
    const gen = subject.generator;
    if (prepared.has(gen.id)) continue;
    const fromThisRun = generation?.results[gen.id];
    if (fromThisRun) {
      prepared.set(gen.id, fromThisRun.failure ? 'its generation failed in section 1' : null);
      continue;
    }
    const missing = !listFiles(gen.outDir).some((file) => file.path.endsWith('.ts'));
    if (missing || regenerate) {
      const reason = gen.unavailable?.();
      if (reason) {
        prepared.set(gen.id, `not runnable — ${reason}`);
        continue;
      }
      log(`   generating ${gen.label} output first (untimed)…`);
      const result = runGenerator(gen);
      prepared.set(gen.id, result.ok ? null : `generation failed (${result.error})\n${tail(result.stdout + result.stderr)}`);
    } else prepared.set(gen.id, null);
  }

  const cells = [];
  for (const subject of chosen) {
    const problem = prepared.get(subject.generator.id);
    const target = subject.files ? join(TSC_DIR, subject.files[0]) : subject.generator.outDir;
    const size = subject.files
      ? existsSync(target) && outputSize(subject.generator.outDir, (path) => join(subject.generator.outDir, path) === target)
      : outputSize(subject.generator.outDir, (path) => path.endsWith('.ts'));
    const config = writeConfig(subject);
    for (const compiler of COMPILERS) {
      const cell = {
        subject,
        compiler,
        config,
        samples: [],
        cpu: [],
        errors: null,
        failure: problem ?? null,
        size: size || null,
        firstErrors: '',
      };
      if (!problem && !size) cell.failure = `nothing to check: ${relative(ROOT, target)} does not exist`;
      cells.push(cell);
    }
  }

  const usageFile = join(WORK, 'usage.txt');
  const run = (cell) =>
    timed(process.execPath, [cell.compiler.bin, '-p', cell.config, '--pretty', 'false'], {
      cwd: ROOT,
      env: childEnv(),
      timeoutMs: 5 * 60_000,
      usageFile,
    });
  // tsc exits 1 or 2 when it reports diagnostics: still a valid timing (flagged); anything else is a failure.
  const broken = (cell, result) => {
    if (!result.error || result.status === 1 || result.status === 2) return false;
    cell.failure = `${result.error}\n${tail(result.stdout + result.stderr)}`;
    return true;
  };
  const sample = (cell, result) => {
    cell.samples.push(result.ms);
    if (result.cpuMs != null) cell.cpu.push(result.cpuMs);
  };

  // Probe (= warm-up) runs. A check slower than SLOW_MS is not repeated, to keep the whole benchmark
  // within a few minutes: its probe run is its one measurement (n = 1 in the results).
  for (const cell of cells) {
    if (cell.failure) continue;
    for (let i = 0; i < Math.max(1, warmup); i++) {
      const result = run(cell);
      if (broken(cell, result)) break;
      cell.errors = countErrors(result.stdout + result.stderr);
      cell.firstErrors = tail(result.stdout + result.stderr, 5);
      if (warmup === 0 || result.ms > SLOW_MS) {
        cell.slow = result.ms > SLOW_MS;
        sample(cell, result);
        break;
      }
    }
  }
  for (let round = 0; round < runs; round++) {
    for (const cell of cells) {
      if (cell.failure || cell.slow || cell.samples.length >= runs) continue;
      const result = run(cell);
      if (!broken(cell, result)) sample(cell, result);
    }
  }

  const results = cells.map((cell) => ({
    subject: cell.subject.id,
    label: cell.subject.label,
    compiler: cell.compiler.label,
    compilerId: cell.compiler.id,
    time: summarize(cell.samples),
    samples: cell.samples,
    cpu: summarize(cell.cpu),
    errors: cell.errors,
    slow: Boolean(cell.slow),
    failure: cell.failure,
    size: cell.size && { files: cell.size.files, bytes: cell.size.bytes, lines: cell.size.lines },
    config: relative(ROOT, cell.config),
  }));

  log('');
  log(
    table(
      ['checked code', 'files', 'size', 'lines', ...COMPILERS.map((c) => c.label), 'tsc errors'],
      chosen.map((subject) => {
        const row = results.filter((r) => r.subject === subject.id);
        const size = row[0]?.size;
        const errors = row.map((r) => (r.errors == null ? '—' : String(r.errors))).join(' / ');
        return [
          subject.label,
          size ? int(size.files) : '—',
          size ? bytes(size.bytes) : '—',
          size ? int(size.lines) : '—',
          ...row.map((r) => (r.failure ? 'FAILED' : `${ms(r.time?.median)}${r.slow ? ' (n=1)' : ''}`)),
          errors,
        ];
      }),
    ),
  );
  const reported = new Set();
  for (const r of results) {
    if (r.failure) {
      if (!reported.has(`${r.subject}\0${r.failure}`)) log(`   ✗ ${r.label}: ${r.failure}`);
      reported.add(`${r.subject}\0${r.failure}`);
    } else if (r.errors)
      log(
        `   ! ${r.label} (${r.compiler}): ${r.errors} type error(s); first ones:\n${cells.find((c) => c.subject.id === r.subject && c.compiler.label === r.compiler).firstErrors}`,
      );
  }

  const ratios = [];
  for (const compiler of COMPILERS) {
    const get = (id, key = 'time') => results.find((r) => r.subject === id && r.compilerId === compiler.id)?.[key]?.median;
    const errorsOf = (id) => results.find((r) => r.subject === id && r.compilerId === compiler.id)?.errors ?? 0;
    const add = (id, name, target) =>
      ratios.push({
        name: `${name} (${compiler.label})`,
        value: ratio(get(id), get('openapi-typescript')),
        cpu: ratio(get(id, 'cpu'), get('openapi-typescript', 'cpu')),
        target,
        note: errorsOf(id) ? `ours has ${errorsOf(id)} tsc errors` : '',
      });
    if (!wanted.includes('openapi-typescript')) continue;
    if (wanted.includes('ours')) add('ours', 'ours whole output / openapi-typescript', TARGET);
    if (wanted.includes('ours-types')) add('ours-types', 'ours types.ts / openapi-typescript', null);
  }
  if (ratios.length) {
    log('');
    log(
      table(
        ['ratio (tsc --noEmit)', 'wall', 'CPU', 'target (on wall time)'],
        ratios.map((r) => [
          r.name,
          fmtRatio(r.value),
          fmtRatio(r.cpu),
          `${r.target == null ? 'info' : verdict(r.value, r.target)}${r.note ? ` (${r.note})` : ''}`,
        ]),
      ),
    );
  }
  const perFile = cells.some((cell) => cell.subject.id === 'ours' && cell.compiler.id === 'ts5' && !cell.failure)
    ? costPerFile(
        cells.find((cell) => cell.subject.id === 'ours' && cell.compiler.id === 'ts5'),
        log,
      )
    : null;
  return { compilerOptions: COMPILER_OPTIONS, results, ratios, perFile };
}

/** The checker's phases as `--generateTrace` names them. */
const PHASES = { createSourceFile: 'parse', bindSourceFile: 'bind', checkSourceFile: 'check' };

/**
 * Where our whole output's check goes, per file: one more TypeScript 5.9 run with `--generateTrace`
 * (which slows it by some 20 %, so shares are printed, not times), summing each file's parse, bind
 * and check. A file's check includes the types of other files it resolves first.
 */
function costPerFile(cell, log) {
  const dir = join(TSC_DIR, 'trace-ours');
  rmSync(dir, { recursive: true, force: true });
  const result = timed(process.execPath, [cell.compiler.bin, '-p', cell.config, '--generateTrace', dir], {
    cwd: ROOT,
    env: childEnv(),
    timeoutMs: 5 * 60_000,
  });
  if (result.error && result.status !== 1 && result.status !== 2) {
    log(`   ✗ per-file cost: ${result.error}`);
    return null;
  }
  const outDir = cell.subject.generator.outDir;
  const fileOf = (path) => {
    const rel = relative(outDir, path).split('\\').join('/');
    if (!rel.startsWith('..')) return rel.startsWith('runtime/') ? 'runtime/*' : rel;
    const nodeModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    return nodeModules ? `${nodeModules[1]} (declarations)` : relative(ROOT, path);
  };
  const files = new Map();
  const open = new Map();
  const add = (path, phase, micros) => {
    const name = fileOf(path);
    const row = files.get(name) ?? { file: name, parse: 0, bind: 0, check: 0 };
    row[phase] += micros / 1000;
    files.set(name, row);
  };
  for (const event of JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8'))) {
    const phase = PHASES[event.name];
    const path = event.args?.path;
    if (!phase || !path) continue;
    if (event.ph === 'X') add(path, phase, event.dur);
    else if (event.ph === 'B') open.set(`${event.name}\0${path}`, event.ts);
    else if (event.ph === 'E') add(path, phase, event.ts - open.get(`${event.name}\0${path}`));
  }
  const rows = [...files.values()].map((row) => ({ ...row, total: row.parse + row.bind + row.check })).sort((a, b) => b.total - a.total);
  const all = rows.reduce((sum, row) => sum + row.total, 0);
  const pct = (value) => `${((100 * value) / all).toFixed(1)} %`;
  log('');
  log(`   where ours' check goes (${cell.compiler.label}, --generateTrace: share of parse + bind + check time per file)`);
  log(
    table(
      ['file', 'parse', 'bind', 'check', 'total'],
      rows.filter((row) => row.total >= all / 200).map((row) => [row.file, pct(row.parse), pct(row.bind), pct(row.check), pct(row.total)]),
    ),
  );
  return rows.map((row) => ({ ...row, share: row.total / all }));
}
