#!/usr/bin/env node
/**
 * First step of `npm test`: makes sure the programs the tests start are installed, before the
 * build and before any test runs. The browser tests drive Debian's Chromium with playwright-core
 * (which downloads no browser of its own), the Redis store tests start their own redis-server (the
 * cluster tests three, joined with redis-cli) and the load-balancer tests their own nginx, all at
 * fixed paths (test/support/redis-server.ts, test/support/redis-cluster.ts, test/support/nginx.ts,
 * test/support/*-browser.ts, test/grpc-browser.test.ts).
 *
 * Missing ones are installed from Debian's packages when this runs as root with apt-get (CI, a
 * fresh container); anywhere else it stops with one message naming what to install, since a
 * test run should not ask for a password or change a developer's machine behind their back.
 * Plain JavaScript so it runs before `tsc` has built anything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { provisionConformanceRuntime } from './support/conformance-runtime.js';

/** What the tests start, and the Debian package that puts it there. */
export const REQUIRED_PROGRAMS = [
  { path: '/usr/bin/redis-server', debianPackage: 'redis-server', usedBy: 'the Redis store tests' },
  { path: '/usr/bin/redis-cli', debianPackage: 'redis-tools', usedBy: 'the Redis Cluster tests (--cluster create)' },
  { path: '/usr/bin/chromium', debianPackage: 'chromium', usedBy: 'the browser tests' },
  { path: '/usr/sbin/nginx', debianPackage: 'nginx', usedBy: 'the load-balancer tests' },
];

const APT_GET = '/usr/bin/apt-get';

/** Runs apt-get quietly; its output is shown only if it fails. */
function aptGet(args) {
  const result = spawnSync(APT_GET, ['-qq', '-o', 'DPkg::Lock::Timeout=120', ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
    throw new Error(`\`apt-get ${args.join(' ')}\` failed (exit ${result.status}):\n${output}`);
  }
}

/**
 * Installs what is missing of `programs`, or explains how to; returns the process exit code. `who`
 * names the caller in messages (the benchmark installs its load generator, h2load, this way too).
 */
export function provision(programs = REQUIRED_PROGRAMS, who = 'npm test') {
  const missing = programs.filter((program) => !existsSync(program.path));
  if (missing.length === 0) return 0;

  const packages = missing.map((program) => program.debianPackage);
  const what = missing.map((program) => `${program.path} (${program.usedBy})`).join(' and ');
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !existsSync(APT_GET)) {
    const how = existsSync(APT_GET)
      ? `install them with: sudo apt-get install ${packages.join(' ')}`
      : `install ${packages.join(' and ')} with your system's package manager so that they are at those paths`;
    console.error(`${who}: ${what} not installed; ${how}, then run ${who} again.`);
    return 1;
  }

  console.log(`${who}: installing ${packages.join(' ')} from Debian's packages (missing: ${missing.map((p) => p.path).join(', ')})`);
  const started = Date.now();
  try {
    aptGet(['update']);
    aptGet(['install', '-y', ...packages]);
  } catch (error) {
    console.error(`${who}: could not install ${packages.join(' ')}: ${error.message}`);
    return 1;
  }
  const stillMissing = missing.filter((program) => !existsSync(program.path));
  if (stillMissing.length > 0) {
    console.error(`${who}: apt-get installed ${packages.join(' ')} but ${stillMissing.map((p) => p.path).join(' and ')} is still missing`);
    return 1;
  }
  console.log(`${who}: installed ${packages.join(' ')} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = provision();
  // The protobuf conformance runner's newer glibc (test/conformance.test.ts), from Debian's mirror;
  // never fails the run (offline it warns, and that test fails with the reason).
  provisionConformanceRuntime();
}
