/**
 * Starts an example the way `npm run example:<style>` does (`node dist/examples/<style>/main.js`,
 * built by `npm test` before vitest runs) with PORT=0, and reads the URL from the first line of
 * its stdout. Stops it with SIGTERM, which the examples answer by closing cleanly (exit code 0).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './cli.js';

export const EXAMPLE_MAIN = join(ROOT, 'dist', 'examples', 'rest', 'main.js');
export const GRAPHQL_EXAMPLE_MAIN = join(ROOT, 'dist', 'examples', 'graphql', 'main.js');

/** The example's demo credentials (see examples/rest/main.ts). */
export const EDITOR_TOKEN = 'demo-token';
export const READER_TOKEN = 'reader-token';

export interface RunningExample {
  /** `http://127.0.0.1:<port>` (plus a path for some examples), as the first line of stdout said. */
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout after the first line, and to stderr. */
  output(): { stdout: string; stderr: string };
  /** SIGTERM, then the exit code (null if it had to be killed). */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the compiled example with `env` added to this process's environment. */
export async function startExample(env: Record<string, string> = {}, main = EXAMPLE_MAIN): Promise<RunningExample> {
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));

  const firstLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the example printed no first line within 15 s; stderr: ${stderr}`)), 15_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onExit = (code: number | null): void => fail(new Error(`the example exited (${code}) before listening; stderr: ${stderr}`));
    child.once('exit', onExit);
    child.stdout!.on('data', (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      const line = stdout.slice(0, newline);
      stdout = stdout.slice(newline + 1);
      resolve(line);
    });
  });
  const match = /^listening on (http:\/\/127\.0\.0\.1:(\d+)(?:\/\S*)?)$/.exec(firstLine);
  if (!match) {
    child.kill('SIGKILL');
    throw new Error(`unexpected first line of stdout: ${JSON.stringify(firstLine)}`);
  }

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    url: match[1],
    port: Number(match[2]),
    child,
    output: () => ({ stdout, stderr }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** Imports a compiled module of the repository (`dist/...`) by path, typed as its source. */
export async function importDist<T>(relativePath: string): Promise<T> {
  const url = pathToFileURL(join(ROOT, 'dist', relativePath)).href;
  return (await import(url)) as T;
}
