// Section 3: generated validators vs ajv. The measurement itself belongs to bench/validators.{js,mjs,ts}
// (another file, with its own output); this section only finds it, runs it as a child process
// and relays what it prints. A .ts script runs in place through bench/lib/ts-register.js, because
// Node 20 cannot execute TypeScript on its own.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { childEnv, timed } from './proc.js';
import { fmtRatio, ms } from './stats.js';
import { recordTarget, TARGETS, targetText, verdictText } from './summary.js';
import { ROOT, WORK } from './tools.js';

const CANDIDATES = ['validators.js', 'validators.mjs', 'validators.ts', 'validators.mts'];

export function findValidatorsBench() {
  for (const name of CANDIDATES) {
    const path = join(ROOT, 'bench', name);
    if (existsSync(path)) return path;
  }
  return null;
}

/**
 * @param {{ log: (line: string) => void, quick: boolean, passArgs: string[] }} options
 */
export function benchValidators({ log, quick, passArgs }) {
  log('\n## 3. Validators: generated validators vs ajv');
  const script = findValidatorsBench();
  if (!script) {
    log(`   not measured: no bench/{${CANDIDATES.join(',')}} exists yet`);
    return { script: null, skipped: 'no validators benchmark script yet' };
  }
  const isTs = /\.m?ts$/.test(script);
  const args = [...(isTs ? [`--import=${pathToFileURL(join(import.meta.dirname, 'ts-register.js')).href}`] : []), script, ...passArgs];
  log(
    `   running: node ${args.map((arg) => (arg.startsWith(ROOT) ? relative(ROOT, arg) : arg.replace(pathToFileURL(ROOT).href + '/', ''))).join(' ')}`,
  );
  const result = timed(process.execPath, args, {
    cwd: ROOT,
    env: childEnv({ extra: { BENCH_WORK: WORK, ...(quick ? { BENCH_QUICK: '1' } : {}) } }),
    timeoutMs: 10 * 60_000,
  });
  const output = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.trimEnd();
  log(
    output
      .split('\n')
      .map((line) => `   ${line}`)
      .join('\n'),
  );
  if (!result.ok) log(`   ✗ ${relative(ROOT, script)} failed (${result.error}) after ${ms(result.ms)}`);
  else log(`   (${relative(ROOT, script)} took ${ms(result.ms)} in total)`);
  // Its table lines end in the ratios ours / ajv; the issue's target holds for every cell.
  const cells = [...output.matchAll(/(\d+\.\d+)×/g)].map((match) => Number(match[1]));
  if (cells.length) {
    const worst = Math.min(...cells);
    log(
      `   worst of ${cells.length} cells: ours / ajv = ${fmtRatio(worst)} (target ${targetText(TARGETS.validators)} in every cell: ${verdictText(worst, TARGETS.validators)})`,
    );
    recordTarget({
      section: 'validators',
      id: 'validators',
      ours: `worst of ${cells.length} cells`,
      peer: 'ajv + ajv-formats',
      ratio: worst,
    });
  }
  return { script: relative(ROOT, script), ok: result.ok, error: result.error ?? null, ms: result.ms, output };
}
