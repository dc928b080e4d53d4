/**
 * Fuzzing the REST example (`node dist/examples/rest/main.js`, what `npm run example:rest`
 * starts) over real sockets on 127.0.0.1: at least 10,000 malformed requests, generated from a
 * fixed seed (support/e2e-fuzz.ts: random bytes, truncated JSON, wrong types, huge numbers, deep
 * nesting, unicode, path traversal, CRLF header injection, oversized bodies and heads, bad
 * methods, percent-encoding, content types, multipart, parameters, credentials, ...), each on a
 * fresh connection with raw bytes. Bounded in count and in time (whichever comes first).
 *
 * Every answer must be: below 500; free of stack traces, file paths and error class names that
 * the request did not itself contain; free of headers the request tried to inject; and, for a
 * 4xx, a valid Problem Details body (`application/problem+json`, the document's Problem schema via
 * ajv, `status` equal to the HTTP status). Afterwards the process must still be running and answer.
 *
 * The server runs in development mode (NODE_ENV unset): response bodies are validated against
 * their schemas (a mismatch would be a 500) and 500s would carry the error message, which makes
 * leaks easier to see than in production mode, where both are suppressed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EDITOR_TOKEN, startExample, type RunningExample } from './support/e2e-example.js';
import { nextCase, Rng, send, type FuzzCase, type FuzzContext, type RawResponse } from './support/e2e-fuzz.js';
import { OpenApiChecker } from './support/e2e-openapi.js';

const SEED = 0x5eed2026;
const TARGET = 10_000;
const TIME_LIMIT_MS = 60_000;
/** Connections in flight; tuned for ~20-40 s on 2 cores. */
const CONCURRENCY = 32;
const MAX_BODY = 64 * 1024;

/** Text that reads like an internal detail: stack frames, source paths, error class names. */
const LEAKS: RegExp[] = [
  /\n\s*at\s+\S/g,
  /\bat [\w$.<>[\]]+ \(/g,
  /\b(?:file:\/\/|node:internal|node_modules\/)\S*/g,
  /\/(?:work|home|usr|tmp|opt|root|var|srv)\/[\w./-]+/g,
  /[\w-]+\.(?:js|ts|mjs|cjs|tsx):\d+/g,
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|EvalError|AggregateError)\b/g,
];

/** A path-absolute reference: no scheme, no host (`//host` and, to browsers, `/\\host` name one). */
const PATH_ABSOLUTE = /^\/(?![/\\])/;

/** Header names the injection cases try to smuggle into a response. */
const INJECTED = /^(?:set-cookie|x-injected|pwned.*)$/i;

let example: RunningExample;
let ctx: FuzzContext;
let checker: OpenApiChecker;

beforeAll(async () => {
  checker = new OpenApiChecker();
  example = await startExample({ RATE_LIMIT: '0', BODY_TIMEOUT_MS: '500', MAX_BODY_BYTES: String(MAX_BODY), NODE_ENV: 'development' });
  const headers = { authorization: `Bearer ${EDITOR_TOKEN}`, 'content-type': 'application/json' };
  const project = (await (
    await fetch(`${example.url}/v1/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'Fuzz' }) })
  ).json()) as { id: string };
  const task = (await (
    await fetch(`${example.url}/v1/projects/${project.id}/tasks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Target', status: 'todo' }),
    })
  ).json()) as { id: string };
  ctx = { host: `127.0.0.1:${example.port}`, projectId: project.id, taskId: task.id, token: EDITOR_TOKEN, maxBody: MAX_BODY };
});

afterAll(async () => {
  await example?.stop();
});

interface Failure {
  category: string;
  reason: string;
  request: string;
  response: string;
}

function excerpt(bytes: Buffer | string, length = 300): string {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
  return JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);
}

/** The text of a response as a reader sees it: raw, plus the string values of a JSON body. */
function readable(response: RawResponse): string {
  const body = response.body.toString('utf8');
  let values = '';
  try {
    const visit = (value: unknown): void => {
      if (typeof value === 'string') values += `\n${value}`;
      else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
    };
    visit(JSON.parse(body));
  } catch {
    // Not JSON: the raw text is all there is.
  }
  return `${response.head}\r\n\r\n${body}${values}`;
}

function checkResponse(fuzzCase: FuzzCase, request: string, response: RawResponse, fail: (reason: string) => void): void {
  if (response.status >= 500) fail(`status ${response.status}`);
  if (!response.complete) fail('the response was cut off');
  const text = readable(response);
  for (const pattern of LEAKS) {
    for (const match of text.matchAll(pattern)) {
      if (!request.includes(match[0].trim())) fail(`leaks ${JSON.stringify(match[0])}`);
    }
  }
  for (const name of Object.keys(response.headers)) if (INJECTED.test(name)) fail(`injected header ${name}`);
  // Server URLs come from configuration (none here), never from the request target or Host.
  const location = response.headers.location;
  if (location !== undefined && !PATH_ABSOLUTE.test(location)) fail(`Location ${JSON.stringify(location)} is not path-absolute`);
  for (const [, target] of (response.headers.link ?? '').matchAll(/<([^>]*)>/g)) {
    if (!PATH_ABSOLUTE.test(target)) fail(`Link target ${JSON.stringify(target)} is not path-absolute`);
  }
  if (response.status < 400) return;
  const type = response.headers['content-type']?.split(';', 1)[0].trim();
  if (type !== 'application/problem+json') return fail(`content type ${String(type)}, not application/problem+json`);
  if (fuzzCase.method === 'HEAD') return;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return fail('the problem body is not JSON');
  }
  const validate = checker.schema('./problem.yaml#/Problem');
  if (!validate(body)) fail(`not a Problem: ${checker.ajv.errorsText(validate.errors)}`);
  if (body.status !== response.status) fail(`problem status ${String(body.status)} ≠ HTTP ${response.status}`);
  if (typeof body.title !== 'string' || body.title === '') fail('problem without a title');
  if (body.instance !== undefined && (typeof body.instance !== 'string' || !PATH_ABSOLUTE.test(body.instance)))
    fail(`instance ${JSON.stringify(body.instance)} is not path-absolute`);
}

it(`survives ${TARGET.toLocaleString('en-US')} malformed requests: no 5xx, no leaks, Problem Details for every error, still answering`, async () => {
  const rng = new Rng(SEED);
  const started = Date.now();
  const byCategory = new Map<string, number>();
  const byStatus = new Map<string, number>();
  const silent = new Map<string, number>();
  const failures: Failure[] = [];
  let sent = 0;
  let answered = 0;
  let unanswered = 0;
  let timedOut = 0;
  const count = <K>(map: Map<K, number>, key: K): void => void map.set(key, (map.get(key) ?? 0) + 1);

  const worker = async (): Promise<void> => {
    while (sent < TARGET && Date.now() - started < TIME_LIMIT_MS) {
      const fuzzCase = nextCase(rng, ctx);
      sent++;
      count(byCategory, fuzzCase.category);
      const request = Buffer.concat(fuzzCase.chunks.filter((chunk): chunk is Buffer => Buffer.isBuffer(chunk))).toString('latin1');
      const outcome = await send(example.port, fuzzCase);
      const fail = (reason: string): void => {
        failures.push({ category: fuzzCase.category, reason, request: excerpt(request), response: excerpt(outcome.data) });
      };
      if (outcome.timedOut) {
        timedOut++;
        if (outcome.responses.length === 0) fail('no answer within 5 s');
      }
      if (outcome.responses.length === 0) {
        // The server may close without a word: a CONNECT nobody handles, a client that went away
        // mid-body. Not an error, as long as the server lives (checked below).
        unanswered++;
        count(silent, fuzzCase.category);
        count(byStatus, `none${outcome.error ? ` (${outcome.error})` : ''}`);
        if (outcome.data.length > 0) fail('unparseable answer');
        continue;
      }
      answered++;
      for (const response of outcome.responses) {
        count(byStatus, String(response.status));
        checkResponse(fuzzCase, request, response, fail);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (Date.now() - started) / 1000;

  // Still alive, and still serving the API.
  const health = await fetch(`${example.url}/healthz`);
  const project = await fetch(`${example.url}/v1/projects/${ctx.projectId}`, { headers: { authorization: `Bearer ${EDITOR_TOKEN}` } });
  const output = example.output();

  const lines = [
    `fuzz: seed 0x${SEED.toString(16)}, ${sent.toLocaleString('en-US')} requests in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)}/s, ${CONCURRENCY} connections)`,
    `  answered ${answered}, closed without an answer ${unanswered} (${[...silent].map(([category, n]) => `${category}: ${n}`).join(', ')}), timed out ${timedOut}, failures ${failures.length}`,
    `  by status: ${[...byStatus]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ')}`,
    `  by category: ${[...byCategory]
      .sort(([, a], [, b]) => b - a)
      .map(([category, n]) => `${category}: ${n}`)
      .join(', ')}`,
    ...failures
      .slice(0, 15)
      .map(
        (failure) => `  FAIL [${failure.category}] ${failure.reason}\n    request:  ${failure.request}\n    response: ${failure.response}`,
      ),
  ];
  console.log(lines.join('\n'));

  expect(sent).toBeGreaterThanOrEqual(TARGET);
  expect(failures.slice(0, 15)).toEqual([]);
  expect([...byStatus.keys()].filter((status) => /^5/.test(status))).toEqual([]);
  expect(answered).toBeGreaterThan(TARGET * 0.9);
  expect(health.status).toBe(200);
  expect(project.status).toBe(200);
  expect(example.child.exitCode).toBeNull();
  // Nothing unexpected reached the server's error log (500s are logged there with their stack).
  expect(output.stderr).toBe('');
}, 180_000);
