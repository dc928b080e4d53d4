// Runs one command as a separate process and measures it: wall time (hrtime around spawnSync),
// exit status, captured output and, where GNU time is installed, the CPU time (user + system) and
// peak resident set size of the process tree (wait4's rusage covers waited-for descendants, e.g. a
// CLI that re-spawns node). CPU time is the figure to look at when the machine is busy with other work.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const GNU_TIME = '/usr/bin/time';
const HAS_GNU_TIME = existsSync(GNU_TIME) && spawnSync(GNU_TIME, ['-f', '%M %U %S', 'true'], { encoding: 'utf8' }).status === 0;

const NETGUARD = join(import.meta.dirname, 'netguard.js');

/**
 * Environment for measured children: no colours, no inherited NODE_OPTIONS, and optionally the
 * network guard preloaded into every node process of the tree (NODE_OPTIONS is inherited).
 */
export function childEnv({ netguard = false, extra = {} } = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...extra };
  delete env.NODE_OPTIONS;
  if (netguard) env.NODE_OPTIONS = `--import=${pathToFileURL(NETGUARD).href}`;
  return env;
}

/**
 * @param {string} command executable (usually process.execPath)
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number, usageFile?: string }} [options]
 * @returns {{ ok: boolean, status: number | null, signal: string | null, ms: number, rssKb: number | null, cpuMs: number | null,
 *             stdout: string, stderr: string, error?: string, netAttempts: string[] }}
 */
export function timed(command, args, options = {}) {
  const { cwd, env = childEnv(), timeoutMs = 600_000, usageFile } = options;
  let file = command;
  let argv = args;
  if (HAS_GNU_TIME && usageFile) {
    rmSync(usageFile, { force: true });
    file = GNU_TIME;
    argv = ['-f', '%M %U %S', '-o', usageFile, command, ...args];
  }
  const start = process.hrtime.bigint();
  const result = spawnSync(file, argv, {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  let rssKb = null;
  let cpuMs = null;
  if (HAS_GNU_TIME && usageFile && existsSync(usageFile)) {
    // GNU time writes "Command exited with non-zero status N" before the figures on failure.
    const lines = readFileSync(usageFile, 'utf8').trim().split('\n');
    const [rss, user, system] = lines[lines.length - 1].split(' ').map(Number);
    if (Number.isFinite(rss) && rss > 0) rssKb = rss;
    if (Number.isFinite(user) && Number.isFinite(system)) cpuMs = (user + system) * 1000;
  }
  const stdout = result.stdout ?? '';
  const stderr = result.stderr ?? '';
  const netAttempts = stderr.split('\n').filter((line) => line.startsWith('NETGUARD:'));
  const out = {
    ok: result.status === 0 && !result.error,
    status: result.status,
    signal: result.signal,
    ms,
    rssKb,
    cpuMs,
    stdout,
    stderr,
    netAttempts,
  };
  if (result.error) out.error = result.error.code === 'ETIMEDOUT' ? `timed out after ${timeoutMs / 1000} s` : String(result.error.message);
  else if (result.signal) out.error = `killed by ${result.signal}`;
  else if (result.status !== 0) out.error = `exit status ${result.status}`;
  return out;
}

export const hasGnuTime = HAS_GNU_TIME;

/**
 * A short excerpt of a failed process's output for the report: from the first line that reads like
 * an error message (else from the start), without stack frames or guard notices, at most `lines`.
 */
export function tail(text, lines = 6) {
  let useful = text.split('\n').filter((line) => line.trim() && !line.startsWith('NETGUARD:') && !/^\s+at /.test(line));
  const first = useful.findIndex((line) => /^\s*(\w*Error\b|error\b|Error:)|\berror TS\d+/i.test(line));
  if (first > 0) useful = useful.slice(first);
  const picked = useful.length > lines ? [...useful.slice(0, lines - 1), `… (${useful.length - lines + 1} more lines)`] : useful;
  return picked.map((line) => `    ${line.length > 240 ? `${line.slice(0, 240)}…` : line}`).join('\n');
}
