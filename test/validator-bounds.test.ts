/**
 * Bounded work in generated validators (issue 11, F1, F2, F13a): a failed size bound stops the
 * checks of that value's content, `uniqueItems` is linear, and schema values no validator can be
 * built from are located diagnostics. The timing bounds are orders of magnitude above what the
 * fixed code needs (a few ms to ~100 ms) and below what the old code took (2.4 s to 36 s), so a
 * busy machine does not make them flaky.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitSchemaValidators } from '../generators/core/emit/validators/emit.js';
import type { JsonSchema } from '../generators/core/schema/json-schema.js';
import { ROOT, codegen } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { runtimeSpecifier } from './support/runtime.js';
import { generateServerFiles } from './support/server-generate.js';
import { SERVER_USAGE_SOURCE } from './support/server-usage.js';
import { tempDir } from './support/tmp.js';
import { validatorImports } from './support/validator-imports.js';
import { WatchProcess } from './support/watch-process.js';

type Result = { ok: true } | { ok: false; errors: Array<{ path: string; keyword: string; message: string }> };
type Module = Record<string, (value: unknown) => unknown>;

/** Generated validators for standalone schemas, imported as a module. */
async function validators(schemas: Record<string, JsonSchema>): Promise<Module> {
  const folder = tempDir('codegen-bounds-');
  const result = emitSchemaValidators(Object.entries(schemas).map(([name, schema]) => ({ name, schema })));
  writeFileSync(
    join(folder, 'validators.ts'),
    `${validatorImports(result, { types: './types.js', runtime: runtimeSpecifier(folder, 'validation') })}\n${result.code}`,
  );
  return (await import(pathToFileURL(join(folder, 'validators.ts')).href)) as Module;
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

function errorsOf(result: unknown): Array<{ path: string; keyword: string }> {
  const outcome = result as Result;
  if (outcome.ok) throw new Error('expected errors, the value is valid');
  return outcome.errors.map(({ path, keyword }) => ({ path, keyword }));
}

/** 60,000 distinct objects: about 1 MB of JSON, as in the attack. */
const LABELS = Array.from({ length: 60_000 }, (_, i) => ({ name: `l${i.toString(36).padStart(4, '0')}` }));
const CATASTROPHIC = '^([a-z]+)+$';
/** 29 characters that make `^([a-z]+)+$` backtrack through every split of the 28 letters. */
const EVIL = `${'a'.repeat(28)}!`;

describe('bounds stop the costly checks of a value', () => {
  let checks: Module;
  beforeAll(async () => {
    checks = await validators({
      Labels: { type: 'array', maxItems: 10, uniqueItems: true, items: { type: 'object' } },
      Unique: { type: 'array', uniqueItems: true },
      Code: { type: 'string', maxLength: 16, pattern: CATASTROPHIC },
      Few: { type: 'object', maxProperties: 3, propertyNames: { pattern: CATASTROPHIC } },
    });
  });

  it('F1: maxItems fails before uniqueItems compares 60,000 objects, in both passes', { timeout: 120_000 }, () => {
    const yes = timed(() => checks.isLabels(LABELS));
    expect(yes.value).toBe(false);
    expect(yes.ms, 'isLabels over 60,000 objects').toBeLessThan(2000);
    const all = timed(() => checks.validateLabels(LABELS));
    expect(errorsOf(all.value)).toEqual([{ path: '', keyword: 'maxItems' }]);
    expect(all.ms, 'validateLabels over 60,000 objects').toBeLessThan(2000);
    expect(checks.isLabels(LABELS.slice(0, 10))).toBe(true);
    expect(errorsOf(checks.validateLabels([{ a: 1 }, { a: 1 }]))).toEqual([{ path: '/1', keyword: 'uniqueItems' }]);
  });

  it('F1: uniqueItems alone over 60,000 distinct objects is linear', { timeout: 120_000 }, () => {
    const distinct = timed(() => checks.isUnique(LABELS));
    expect(distinct.value).toBe(true);
    // One pass over ~1 MB of objects costs about what parsing it did (the old pairwise check: ~36 s).
    expect(distinct.ms, 'isUnique over 60,000 objects').toBeLessThan(5000);
    // The same object with its keys in another order, at the very end.
    const repeated = [...LABELS.map((label) => ({ ...label, n: 1 })), { n: 1, name: LABELS[123]!.name }];
    const found = timed(() => checks.validateUnique(repeated));
    expect(errorsOf(found.value)).toEqual([{ path: '/60000', keyword: 'uniqueItems' }]);
    expect(found.ms, 'validateUnique over 60,001 objects').toBeLessThan(5000);
  });

  it('uniqueItems keeps JSON equality on long arrays', () => {
    const filler = Array.from({ length: 20 }, (_, i) => `f${i}`);
    const unique = (...items: unknown[]) => checks.isUnique([...filler, ...items]);
    expect(unique({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(false);
    expect(unique([1, 2], [1, 2])).toBe(false);
    expect(unique({ a: 1.0 }, { a: 1 })).toBe(false);
    expect(unique({ a: 0 }, { a: -0 })).toBe(false);
    expect(unique(1, 1.0)).toBe(false);
    expect(unique(null, null)).toBe(false);
    expect(unique([1], ['1'])).toBe(true);
    expect(unique([1, 2], [2, 1])).toBe(true);
    expect(unique({ a: '1' }, { a: 1 })).toBe(true);
    expect(unique({ a: null }, {})).toBe(true);
    expect(unique({ 'a,"b":1': 1 }, { a: 1, b: 1 })).toBe(true);
    expect(unique([{}], [[]])).toBe(true);
    expect(unique(true, 'true', 1, '1', {}, [])).toBe(true);
  });

  it('F2: maxLength fails before a catastrophic pattern runs, in both passes', { timeout: 120_000 }, () => {
    const yes = timed(() => checks.isCode(EVIL));
    expect(yes.value).toBe(false);
    expect(yes.ms, `isCode(${JSON.stringify(EVIL)})`).toBeLessThan(1000);
    const all = timed(() => checks.validateCode(EVIL));
    expect(errorsOf(all.value)).toEqual([{ path: '', keyword: 'maxLength' }]);
    expect(all.ms, `validateCode(${JSON.stringify(EVIL)})`).toBeLessThan(1000);
    // Within the bound the pattern still applies.
    expect(checks.isCode('abc')).toBe(true);
    expect(errorsOf(checks.validateCode('abc!'))).toEqual([{ path: '', keyword: 'pattern' }]);
  });

  it('maxProperties fails before the names are matched', { timeout: 120_000 }, () => {
    const object = Object.fromEntries(['a', 'b', 'c', 'd'].map((letter, i) => [`${letter.repeat(26)}!`, i]));
    const all = timed(() => checks.validateFew(object));
    expect(errorsOf(all.value)).toEqual([{ path: '', keyword: 'maxProperties' }]);
    expect(all.ms).toBeLessThan(1000);
    expect(checks.isFew({ abc: 1 })).toBe(true);
  });
});

/** The tasks API's generated server in a child process, with `GET /healthz` beside it, as examples/rest has. */
const SERVE = `import { createServer } from "node:http";
import { listener } from "./usage.js";
const api = listener({ production: true });
const server = createServer((request, response) => {
  if (request.url === "/healthz") return void response.end("ok");
  api(request, response);
});
server.listen(0, "127.0.0.1", () => console.log("port " + server.address().port));
`;

describe('F1 through a generated REST server', () => {
  let child: ChildProcessWithoutNullStreams;
  let base: string;

  beforeAll(async () => {
    mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
    const folder = mkdtempSync(join(ROOT, '.vitest-tmp', 'bounds-'));
    writeFiles(folder, await generateServerFiles('schemas/openapi/tasks.yaml'));
    writeFileSync(join(folder, 'usage.ts'), SERVER_USAGE_SOURCE);
    transpileFolder(folder);
    writeFileSync(join(folder, 'serve.mjs'), SERVE);
    child = spawn(process.execPath, [join(folder, 'serve.mjs')], { cwd: folder });
    const port = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = /port (\d+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`server exited (${code})`)));
    });
    base = `http://127.0.0.1:${port}`;
  }, 120_000);

  afterAll(() => {
    child?.kill();
  });

  it('a ~1 MB createTask body of 60,000 distinct labels is answered 422 promptly, and /healthz meanwhile', {
    timeout: 120_000,
  }, async () => {
    const headers = { authorization: 'Bearer good', 'content-type': 'application/json' };
    const created = await fetch(`${base}/v1/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'Attack' }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const body = JSON.stringify({ title: 'x', status: 'todo', labels: LABELS });
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(body.length).toBeLessThanOrEqual(1024 * 1024);

    // The attack, and health checks one after another while it is in flight.
    let done = false;
    const started = performance.now();
    const attack = fetch(`${base}/v1/projects/${id}/tasks`, { method: 'POST', headers, body, signal: AbortSignal.timeout(20_000) })
      .then(async (response) => ({
        status: response.status,
        problem: (await response.json()) as { errors?: Array<{ keyword?: string }> },
        ms: performance.now() - started,
      }))
      .finally(() => (done = true));
    let slowestHealth = 0;
    let healthChecks = 0;
    while (!done || healthChecks === 0) {
      const sent = performance.now();
      const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(20_000) });
      expect(await health.text()).toBe('ok');
      slowestHealth = Math.max(slowestHealth, performance.now() - sent);
      healthChecks++;
    }
    const answer = await attack;
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.problem)).toContain('maxItems');
    expect(JSON.stringify(answer.problem)).not.toContain('uniqueItems');
    expect(answer.ms, '422 for 60,000 labels').toBeLessThan(2000);
    expect(slowestHealth, 'slowest /healthz during the attack').toBeLessThan(2000);
  });
});

const OPENAPI = (name: string) => `openapi: 3.1.0
info: { title: Bad, version: "1" }
paths: {}
components:
  schemas:
    Tag:
      type: object
      properties:
        name:
          type: string
          pattern: "${name}"
        price:
          type: number
          multipleOf: 0
      patternProperties:
        "x-(": { type: string }
`;

const ASYNCAPI = `asyncapi: 3.0.0
info: { title: Bad, version: "1" }
channels:
  chat:
    address: chat
    messages:
      said:
        payload:
          type: object
          properties:
            text: { type: string, pattern: "[z-a]" }
            score: { type: number, multipleOf: -1 }
operations:
  say:
    action: send
    channel: { $ref: "#/channels/chat" }
`;

describe('F13a: schema values no validator can be built from are located errors', () => {
  it('OpenAPI: invalid pattern, patternProperties name and multipleOf 0 → file:line:col, exit 1, nothing written', () => {
    const dir = tempDir('codegen-bad-schema-');
    writeFileSync(join(dir, 'api.yaml'), OPENAPI('([a-z]'));
    const result = codegen(['generate', 'api.yaml', '-o', 'out'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('api.yaml:11:20: error: "pattern" "([a-z]" is not a valid regular expression: Unterminated group');
    expect(result.stderr).toContain('api.yaml:14:23: error: "multipleOf" must be greater than 0, not 0');
    expect(result.stderr).toContain('api.yaml:16:9: error: the "patternProperties" name "x-(" is not a valid regular expression');
    expect(result.stderr).not.toMatch(/ValidatorSchemaError|\n\s+at /);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('AsyncAPI: the same, through its loader', () => {
    const dir = tempDir('codegen-bad-schema-');
    writeFileSync(join(dir, 'chat.yaml'), ASYNCAPI);
    const result = codegen(['generate', 'chat.yaml', '-o', 'out'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/chat\.yaml:11:44: error: ".*\.text\.pattern" must be a valid regex, not the string "\[z-a\]"/);
    expect(result.stderr).toMatch(/chat\.yaml:12:48: error: ".*\.score\.multipleOf" must be > 0/);
    expect(result.stderr).not.toMatch(/ValidatorSchemaError|\n\s+at /);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('--watch reports it and keeps watching', { timeout: 300_000 }, async () => {
    const dir = tempDir('codegen-bad-schema-');
    const input = join(dir, 'api.yaml');
    writeFileSync(
      input,
      OPENAPI('^[a-z]+$')
        .replace(/multipleOf: 0/, 'multipleOf: 1')
        .replace('x-(', 'x-'),
    );
    const watcher = new WatchProcess(dir, ['generate', 'api.yaml', '-o', 'out', '--watch']);
    try {
      await watcher.waitFor('out', /codegen: watching for changes/, { out: 0, err: 0 });
      let mark = watcher.mark();
      writeFileSync(input, OPENAPI('([a-z]'));
      await watcher.waitFor('err', /api\.yaml:11:20: error: "pattern" "\(\[a-z\]" is not a valid regular expression/, mark);
      expect(watcher.alive).toBe(true);
      mark = watcher.mark();
      writeFileSync(
        input,
        OPENAPI('^[a-z]{2}$')
          .replace(/multipleOf: 0/, 'multipleOf: 1')
          .replace('x-(', 'x-'),
      );
      await watcher.waitFor('out', /codegen: \d+ written/, mark);
      expect(watcher.err).not.toMatch(/ValidatorSchemaError|\n\s+at /);
      watcher.child.kill('SIGINT');
      expect(await watcher.exited).toBe(0);
    } finally {
      if (watcher.alive) watcher.child.kill('SIGKILL');
    }
  });
});
