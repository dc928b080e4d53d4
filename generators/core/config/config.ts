/**
 * The `codegen.config.*` file: a list of APIs, each with its input, what to emit and where.
 * Every key is checked; an unknown key or a wrong type is reported with its path (and its
 * line:col in JSON/YAML configs), so a typo never silently changes what gets generated.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineCounter, parseDocument, isMap, isScalar, type Node as YamlNode } from 'yaml';
import { CodegenError, error, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import { styleOfInput } from './detect.js';
import { STYLES, type InputStyle } from './input-style.js';
import { displayPath } from '../pipeline/paths.js';
import { sharedRuntimeClash, sharedRuntimeFolder } from '../pipeline/shared-runtime.js';
import { checkStyleOptions, type StyleOptions } from './style-options.js';
import { checkLintConfig, type LintConfig } from '../../lint/lint-config.js';

export const CONFIG_FILES = ['codegen.config.yaml', 'codegen.config.yml', 'codegen.config.json', 'codegen.config.mjs', 'codegen.config.js'];

/**
 * What an API can emit. `query` writes TanStack Query options over the client, `msw` writes Mock
 * Service Worker handlers answering from the schema.
 */
export const EMIT_KINDS = ['types', 'validators', 'client', 'server', 'query', 'msw'] as const;
export type EmitKind = (typeof EMIT_KINDS)[number];

/** One API as the user wrote it. */
export interface ApiConfigInput {
  name?: string;
  input: string | string[];
  /** GraphQL only: operation documents (files or folders of `.graphql` files) for the typed client. */
  documents?: string | string[];
  style?: InputStyle;
  output: string;
  emit?: EmitKind[];
  templates?: string;
  /** The user-owned handler file a server needs (written once, then only added to). */
  handlers?: string;
  /** Checked against the style's declaration (`generators/<style>/config-options.ts`). */
  options?: Record<string, unknown>;
  /** Folders outside the project root that `$ref`s and proto imports may read files in. */
  allowRead?: string | string[];
  /** Size cap per input file, in bytes (default 64 MiB). */
  maxInputBytes?: number;
  /** `shared`: the runtime files are written once, into `runtime/` beside the output folders of the APIs that set it. */
  runtime?: 'per-api' | 'shared';
  /** OpenAPI: what codegen forgives with a warning (a spec mistake with one obvious reading) is an error. */
  strict?: boolean;
  /** `codegen lint`: rules turned off or given another severity (`lint: { rules: { rest/max-nesting: off } }`). */
  lint?: { rules?: Record<string, 'off' | 'warn' | 'error'> };
}

export interface ConfigInput {
  apis: ApiConfigInput[];
}

/** One API with defaults applied and paths made absolute; `options` typed by its style. */
export type ApiConfig<S extends InputStyle = InputStyle> = S extends InputStyle
  ? ApiConfigCommon & { style: S; options: StyleOptions[S] }
  : never;

interface ApiConfigCommon {
  name: string;
  inputs: string[];
  /** Absolute paths of operation documents (GraphQL); empty for other styles. */
  documents: string[];
  output: string;
  emit: EmitKind[];
  templates?: string;
  /** Absolute path of the user-owned handler file, when a server is emitted. */
  handlers?: string;
  /** Folder relative paths in headers and messages are written from (the config's folder). */
  root: string;
  /**
   * Folders files reached from the input (`$ref`s, proto imports) may be read in: the project root
   * (the config's folder; the input's folder without a config) and `allowRead`. Default: `[root]`.
   */
  readRoots?: string[];
  /** Size cap per input file, in bytes; default 64 MiB (core/pipeline/input-files.ts). */
  maxInputBytes?: number;
  /** Runtime files go to the folder shared with other `runtime: shared` APIs (core/pipeline/shared-runtime.ts). */
  runtime?: 'shared';
  /** Forgiven spec mistakes are errors, not warnings (`strict: true`, `--strict`). */
  strict?: boolean;
  /** `codegen lint`'s per-rule settings (generators/lint/lint-config.ts). */
  lint?: LintConfig;
  /**
   * Set by `codegen mock` (bin/mock.ts), never by a config file: the style also writes `mock.ts`,
   * whose `serveMock` serves the API from samples built with this seed.
   */
  mock?: { seed: number };
}

export const DEFAULT_EMIT: EmitKind[] = ['types', 'validators', 'client'];

/** Finds `codegen.config.*` in `dir`, or returns undefined. */
export function findConfig(dir: string): string | undefined {
  return CONFIG_FILES.map((name) => join(dir, name)).find((file) => existsSync(file));
}

export async function loadConfig(file: string): Promise<ApiConfig[]> {
  const root = dirname(resolve(file));
  const shown = displayPath(file);
  if (/\.(mjs|js)$/.test(file)) {
    // The modification time in the URL: `import()` caches by URL, and `--watch` must see an edit.
    const url = `${pathToFileURL(resolve(file)).href}?mtime=${statSync(file).mtimeMs}`;
    const module = (await import(url)) as { default?: unknown };
    return validateConfig(module.default, root, shown, () => undefined, await lintRuleIds(module.default));
  }
  const text = readFileSync(file, 'utf8');
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) {
    throw new CodegenError(
      document.errors.map((problem) => {
        const { line, col } = lineCounter.linePos(problem.pos[0]);
        return { severity: 'error', message: problem.message.split('\n')[0], location: { file: shown, line, column: col } };
      }),
    );
  }
  const locate = (path: (string | number)[], at: 'key' | 'value' = 'value'): SourceLocation | undefined => {
    const parent = document.getIn(path.slice(0, -1), true) as YamlNode | undefined;
    const pair =
      at === 'key' && isMap(parent)
        ? parent.items.find((item) => isScalar(item.key) && item.key.value === path[path.length - 1])
        : undefined;
    const node = (pair?.key ?? document.getIn(path, true)) as YamlNode | undefined;
    const offset = node?.range?.[0] ?? parent?.range?.[0];
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { file: shown, line, column: col };
  };
  const raw: unknown = document.toJS();
  return validateConfig(raw, root, shown, locate, await lintRuleIds(raw));
}

/** The lint rule ids when an API sets `lint`: the rule registry brings graphql and protobuf-es, which generation does without. */
async function lintRuleIds(raw: unknown): Promise<readonly string[]> {
  const apis = isRecord(raw) && Array.isArray(raw.apis) ? raw.apis : [];
  if (!apis.some((api) => isRecord(api) && api.lint !== undefined)) return [];
  return (await import('../../lint/registry.js')).RULE_IDS;
}

/** Config for `codegen generate <input> -o <dir>`: one API, no file. */
export function inlineConfig(
  input: string,
  output: string,
  emit: EmitKind[] | undefined,
  templates: string | undefined,
  documents?: string[],
  allowRead?: string[],
): ApiConfig[] {
  const root = process.cwd();
  return validateConfig(
    { apis: [{ input, output, emit, templates, documents, allowRead }] },
    root,
    '<command line>',
    () => undefined,
    [],
    true,
  );
}

type Locate = (path: (string | number)[], at?: 'key' | 'value') => SourceLocation | undefined;

/** `inline`: no config file, so the project root that `$ref`s stay in is the input's folder. */
/** `ruleIds`: the lint rules an API's `lint` may name (loaded only when one sets it). */
function validateConfig(raw: unknown, root: string, file: string, locate: Locate, ruleIds: readonly string[], inline = false): ApiConfig[] {
  const problems: Diagnostic[] = [];
  const report = (path: (string | number)[], message: string, hint?: string, at?: 'key' | 'value') =>
    problems.push({
      severity: 'error',
      message: `${pathText(path)}: ${message}`,
      hint,
      location: locate(path, at) ?? { file, line: 1, column: 1 },
    });

  if (!isRecord(raw)) {
    throw error(
      'the config must be an object with an `apis` list',
      { file, line: 1, column: 1 },
      'run `codegen init` for a commented example',
    );
  }
  checkKeys(raw, ['apis', '$schema'], [], report);
  if (!Array.isArray(raw.apis) || raw.apis.length === 0) {
    report(['apis'], 'expected a non-empty list of APIs', 'each entry needs at least `input` and `output`');
    throw new CodegenError(problems);
  }

  const apis: ApiConfig[] = [];
  const names = new Set<string>();
  const outputs = new Map<string, string>();
  raw.apis.forEach((entry: unknown, index: number) => {
    const at = ['apis', index];
    if (!isRecord(entry)) return report(at, 'expected an object with `input` and `output`');
    checkKeys(
      entry,
      [
        'name',
        'input',
        'documents',
        'style',
        'output',
        'emit',
        'templates',
        'handlers',
        'options',
        'allowRead',
        'maxInputBytes',
        'runtime',
        'strict',
        'lint',
      ],
      at,
      report,
    );

    const inputs = typeof entry.input === 'string' ? [entry.input] : entry.input;
    if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((item) => typeof item === 'string' && item !== '')) {
      return report([...at, 'input'], 'expected a file path or a list of file paths');
    }
    if (typeof entry.output !== 'string' || entry.output === '') return report([...at, 'output'], 'expected the output folder, a string');

    const style = entry.style ?? styleOfInput(resolve(root, inputs[0] as string));
    if (!STYLES.includes(style as InputStyle)) {
      return report(
        [...at, entry.style === undefined ? 'input' : 'style'],
        `cannot tell the input style`,
        `set \`style\` to one of ${STYLES.join(', ')}`,
      );
    }
    const emit = entry.emit ?? DEFAULT_EMIT;
    if (!Array.isArray(emit) || emit.length === 0) return report([...at, 'emit'], `expected a list of: ${EMIT_KINDS.join(', ')}`);
    emit.forEach((kind: unknown, i: number) => {
      if (!EMIT_KINDS.includes(kind as EmitKind))
        report([...at, 'emit', i], `unknown output ${JSON.stringify(kind)}; expected one of ${EMIT_KINDS.join(', ')}`);
    });
    if (entry.templates !== undefined && typeof entry.templates !== 'string') report([...at, 'templates'], 'expected a folder path');
    if (entry.handlers !== undefined && (typeof entry.handlers !== 'string' || !/\.(ts|mts)$/.test(entry.handlers))) {
      report([...at, 'handlers'], 'expected the path of a .ts file', 'e.g. `src/handlers/tasks.ts`; it must be outside the output folder');
    }
    if (entry.name !== undefined && typeof entry.name !== 'string') report([...at, 'name'], 'expected a string');
    const documents = typeof entry.documents === 'string' ? [entry.documents] : (entry.documents ?? []);
    if (!Array.isArray(documents) || !documents.every((item) => typeof item === 'string' && item !== '')) {
      report([...at, 'documents'], 'expected a file or folder path, or a list of them');
    } else if (documents.length > 0 && style !== 'graphql') {
      report(
        [...at, 'documents'],
        '`documents` are GraphQL operation documents; this API is not GraphQL',
        'remove `documents`, or set `style: graphql`',
      );
    }

    const output = resolve(root, entry.output);
    // Stale generated files are deleted from the output folder, so it must be a dedicated one.
    if (typeof entry.handlers === 'string' && isInside(output, resolve(root, entry.handlers))) {
      report(
        [...at, 'handlers'],
        'the handler file must be outside the output folder',
        "the output folder is codegen's; your code lives elsewhere",
      );
    }
    const allowRead = typeof entry.allowRead === 'string' ? [entry.allowRead] : (entry.allowRead ?? []);
    if (!Array.isArray(allowRead) || !allowRead.every((item) => typeof item === 'string' && item !== '')) {
      report(
        [...at, 'allowRead'],
        'expected a folder path or a list of them',
        'e.g. `allowRead: [../shared-schemas]`: folders outside the project that `$ref`s and imports may read',
      );
    }
    const maxInputBytes = entry.maxInputBytes;
    if (maxInputBytes !== undefined && !(typeof maxInputBytes === 'number' && Number.isSafeInteger(maxInputBytes) && maxInputBytes > 0)) {
      report(
        [...at, 'maxInputBytes'],
        'expected a positive whole number of bytes',
        'e.g. `maxInputBytes: 134217728` for 128 MiB; the default is 64 MiB',
      );
    }
    if (entry.runtime !== undefined && entry.runtime !== 'shared' && entry.runtime !== 'per-api') {
      report(
        [...at, 'runtime'],
        'expected "shared" or "per-api"',
        '`runtime: shared` writes the runtime files once, into runtime/ beside the output folders of the APIs that set it; the default, per-api, writes them into each output folder',
      );
    }
    if (entry.strict !== undefined && typeof entry.strict !== 'boolean') {
      report(
        [...at, 'strict'],
        'expected true or false',
        '`strict: true` makes what codegen forgives in an OpenAPI document (with a warning) an error',
      );
    }
    if (isInside(output, root))
      report([...at, 'output'], 'the output folder must not contain the config folder', 'use a dedicated folder such as `out/api`');

    const name =
      (entry.name as string | undefined) ??
      basename(inputs[0] as string)
        .replace(/\.[^.]+$/, '')
        .replace(/\.(openapi|asyncapi)$/, '');
    if (names.has(name)) report([...at, 'name'], `two APIs are named ${JSON.stringify(name)}`, 'give each API a distinct `name`');
    names.add(name);
    const other = outputs.get(output);
    if (other)
      report([...at, 'output'], `the output folder is also used by API ${JSON.stringify(other)}`, 'give each API its own output folder');
    outputs.set(output, name);

    // After the common keys: options are checked against the style's declaration, paths resolved.
    const options = checkStyleOptions(style as InputStyle, entry.options, [...at, 'options'], root, report);
    const lint = checkLintConfig(entry.lint, [...at, 'lint'], ruleIds, report);
    apis.push({
      name,
      inputs: (inputs as string[]).map((input) => resolve(root, input)),
      documents: Array.isArray(documents) ? (documents as string[]).map((path) => resolve(root, path)) : [],
      style: style as InputStyle,
      output,
      emit: [...new Set(emit as EmitKind[])].sort((a, b) => EMIT_KINDS.indexOf(a) - EMIT_KINDS.indexOf(b)),
      templates: typeof entry.templates === 'string' ? resolve(root, entry.templates) : undefined,
      handlers: (emit as EmitKind[]).includes('server')
        ? resolve(root, typeof entry.handlers === 'string' ? entry.handlers : join(dirname(entry.output), `${name}.handlers.ts`))
        : undefined,
      options,
      root,
      readRoots: [
        inline ? dirname(resolve(root, inputs[0] as string)) : root,
        ...(Array.isArray(allowRead) ? (allowRead as string[]).map((folder) => resolve(root, folder)) : []),
      ],
      ...(typeof maxInputBytes === 'number' ? { maxInputBytes } : {}),
      ...(entry.runtime === 'shared' ? { runtime: 'shared' } : {}),
      ...(entry.strict === true ? { strict: true } : {}),
      ...(lint ? { lint } : {}),
    } as ApiConfig);
  });
  checkSharedRuntime(apis, raw.apis as unknown[], report);
  if (problems.length > 0) throw new CodegenError(problems);
  return apis;
}

type Report = (path: (string | number)[], message: string, hint?: string, at?: 'key' | 'value') => void;

/** The shared runtime folder must be a folder of its own: no output folder is, holds or lies inside it. */
function checkSharedRuntime(apis: ApiConfig[], entries: unknown[], report: Report): void {
  const sharing = apis.filter((api) => api.runtime === 'shared');
  if (sharing.length === 0) return;
  const folder = sharedRuntimeFolder(sharing.map((api) => api.output));
  const clash = sharedRuntimeClash(folder, apis);
  if (!clash) return;
  const index = entries.findIndex((entry) => isRecord(entry) && entry.runtime === 'shared');
  report(
    ['apis', index, 'runtime'],
    `the shared runtime folder ${displayPath(folder)} is not free: API ${JSON.stringify(clash.name)} writes its output at ${displayPath(clash.output)}`,
    'the shared runtime goes into runtime/ beside the output folders (e.g. out/rest and out/graphql share out/runtime): move that output folder, or keep `runtime: per-api`',
    'value',
  );
}

function checkKeys(object: Record<string, unknown>, allowed: string[], at: (string | number)[], report: Report): void {
  for (const key of Object.keys(object).sort()) {
    if (!allowed.includes(key))
      report(
        [...at, key],
        `unknown key ${JSON.stringify(key)}`,
        `allowed here: ${allowed.filter((k) => k !== '$schema').join(', ')}`,
        'key',
      );
  }
}

function isInside(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !/^[\\/]/.test(path) && !/^[A-Za-z]:/.test(path));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pathText(path: (string | number)[]): string {
  return (
    path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part), '') || '(config)'
  );
}
