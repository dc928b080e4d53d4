// Section 13: codegen lint beside Spectral (spectral:oas) and Redocly (recommended) on the corpus's
// OpenAPI documents: bench/lint-peers.js in a child process, its tables printed as they come (see
// bench/lint-peers.md). 20 s to a minute depending on load, so --quick leaves it out unless named.
import { join } from 'node:path';
import { childEnv, timed } from './proc.js';
import { ms } from './stats.js';
import { ROOT } from './tools.js';

/**
 * @param {{ log: (line: string) => void }} options
 */
export function benchLintPeers({ log }) {
  log('\n## 13. Lint beside Spectral and Redocly: the corpus OpenAPI documents (bench/lint-peers.js)');
  const result = timed(process.execPath, [join(ROOT, 'bench', 'lint-peers.js')], { cwd: ROOT, env: childEnv(), timeoutMs: 10 * 60_000 });
  const output = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.trimEnd();
  log(output.replace(/^/gm, '   '));
  if (!result.ok) log(`   ✗ bench/lint-peers.js failed (${result.error}) after ${ms(result.ms)}`);
  return { ok: result.ok, error: result.error ?? null, ms: result.ms, output };
}
