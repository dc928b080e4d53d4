// Section 11: the largest blocking time one request within the default limits causes, printed as
// tables (see bench/README.md): per validator keyword (bench/worst-case.ts, a child process through
// ts-register.js, like section 3), then per gRPC transport case (bench/lib/grpc-worst-case.js).
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { childEnv, timed } from './proc.js';
import { ms } from './stats.js';
import { ROOT } from './tools.js';

/**
 * @param {{ log: (line: string) => void, quick: boolean }} options
 */
export function benchWorstCase({ log, quick }) {
  log('\n## 11. Worst case: blocking time of one request within default limits, per validator keyword and transport');
  const runs = [
    {
      script: join(ROOT, 'bench', 'worst-case.ts'),
      args: [`--import=${pathToFileURL(join(import.meta.dirname, 'ts-register.js')).href}`],
      extra: quick ? { BENCH_QUICK: '1' } : {},
    },
    { script: join(import.meta.dirname, 'grpc-worst-case.js'), args: [], extra: quick ? { BENCH_RUNS: '1' } : {} },
  ];
  const outputs = [];
  let ok = true;
  let error = null;
  let elapsed = 0;
  for (const run of runs) {
    const result = timed(process.execPath, [...run.args, run.script], {
      cwd: ROOT,
      env: childEnv({ extra: run.extra }),
      timeoutMs: 10 * 60_000,
    });
    const output = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.trimEnd();
    log(
      output
        .split('\n')
        .map((line) => `   ${line}`)
        .join('\n'),
    );
    if (!result.ok) log(`   ✗ ${relative(ROOT, run.script)} failed (${result.error}) after ${ms(result.ms)}`);
    outputs.push(output);
    ok &&= result.ok;
    error ??= result.error ?? null;
    elapsed += result.ms;
  }
  return { ok, error, ms: elapsed, output: outputs.join('\n') };
}
