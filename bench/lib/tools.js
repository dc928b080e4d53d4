// The generators the benchmark compares, each run through its real command-line entry point (the
// `bin` its package.json declares) as a separate node process, exactly as a user would run it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const WORK = join(ROOT, 'bench', '.work');
export const SPEC = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json');

function packageJson(name) {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
}

/** Absolute path of a package's CLI, read from the `bin` field of its package.json. */
export function binOf(name, command) {
  const pkg = packageJson(name);
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin[command ?? Object.keys(pkg.bin)[0]];
  return join(ROOT, 'node_modules', name, bin);
}

export function versionOf(name) {
  try {
    return packageJson(name).version;
  } catch {
    return null;
  }
}

const OURS_BIN = join(ROOT, 'bin', 'codegen.js');
const OURS_VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const OURS_DIST = join(ROOT, 'dist', 'bin', 'cli.js');

/**
 * @typedef {object} Tool
 * @property {string} id
 * @property {string} label
 * @property {string} emits        what the command generates
 * @property {string} outDir       folder it writes (wiped before every run)
 * @property {string[]} args       node arguments
 * @property {() => string | null} [unavailable] reason it cannot run, if any
 */

/** @returns {Record<string, Tool>} */
export function generators(spec = SPEC) {
  const ours = join(WORK, 'ours');
  const oursTypes = join(WORK, 'ours-types');
  const oat = join(WORK, 'openapi-typescript');
  const hey = join(WORK, 'hey-api');
  const oursUnavailable = () => (!existsSync(OURS_DIST) ? 'dist/bin/cli.js is missing: `npm run build` has not produced the CLI' : null);
  return {
    ours: {
      id: 'ours',
      label: `codegen ${OURS_VERSION} (ours)`,
      // The server too: the target (≤ 0.5× openapi-typescript) counts the whole output.
      emits: 'types + validators + client + server',
      outDir: ours,
      args: [OURS_BIN, 'generate', spec, '-o', ours, '--emit', 'types,validators,client,server', '--quiet'],
      unavailable: oursUnavailable,
    },
    'ours-types': {
      id: 'ours-types',
      label: `codegen ${OURS_VERSION} (ours) --emit types`,
      emits: 'types',
      outDir: oursTypes,
      args: [OURS_BIN, 'generate', spec, '-o', oursTypes, '--emit', 'types', '--quiet'],
      unavailable: oursUnavailable,
    },
    'openapi-typescript': {
      id: 'openapi-typescript',
      label: `openapi-typescript ${versionOf('openapi-typescript')}`,
      emits: 'types',
      outDir: oat,
      args: [binOf('openapi-typescript'), spec, '-o', join(oat, 'schema.ts')],
    },
    'hey-api': {
      id: 'hey-api',
      label: `@hey-api/openapi-ts ${versionOf('@hey-api/openapi-ts')}`,
      emits: 'types + sdk + fetch client',
      outDir: hey,
      // --no-log-file: it would otherwise write a log folder into the working directory.
      args: [
        binOf('@hey-api/openapi-ts'),
        '--input',
        spec,
        '--output',
        hey,
        '--plugins',
        '@hey-api/typescript',
        '@hey-api/sdk',
        '@hey-api/client-fetch',
        '--no-log-file',
        '--silent',
      ],
    },
  };
}

export const oursBuilt = () => existsSync(OURS_DIST);
