// Section 11: worst case per validator keyword (bench/worst-case.ts): the largest blocking time one
// request within the default limits causes, printed as a table (see bench/README.md). Runs as a
// child process through ts-register.js, like section 3.
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { childEnv, timed } from './proc.js';
import { ms } from './stats.js';
import { ROOT } from './tools.js';

/**
 * @param {{ log: (line: string) => void, quick: boolean }} options
 */
export function benchWorstCase({ log, quick }) {
  log('\n## 11. Worst case: blocking time of one request within default limits, per validator keyword');
  const script = join(ROOT, 'bench', 'worst-case.ts');
  const args = [`--import=${pathToFileURL(join(import.meta.dirname, 'ts-register.js')).href}`, script];
  const result = timed(process.execPath, args, { cwd: ROOT, env: childEnv({ extra: quick ? { BENCH_QUICK: '1' } : {} }), timeoutMs: 10 * 60_000 });
  const output = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.trimEnd();
  log(output.split('\n').map((line) => `   ${line}`).join('\n'));
  if (!result.ok) log(`   ✗ ${relative(ROOT, script)} failed (${result.error}) after ${ms(result.ms)}`);
  return { ok: result.ok, error: result.error ?? null, ms: result.ms, output };
}
