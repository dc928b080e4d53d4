/**
 * Malformed requests for the REST example, generated from a seed, and a raw-socket client that
 * sends them byte for byte (fetch would refuse or repair most of them) and parses whatever comes
 * back. Every generator returns a `FuzzCase`: the bytes, in chunks with optional pauses, and
 * whether to leave the connection open (slow and oversized bodies) or half-close it after writing.
 */
import { connect } from 'node:net';

// ---- deterministic randomness ------------------------------------------------------------------

/** mulberry32: small, fast, and the same sequence for the same seed on every platform. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }

  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  uuid(): string {
    const hex = this.string(32, '0123456789abcdef');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[this.int(0, 3)]}${hex.slice(17, 20)}-${hex.slice(20)}`;
  }
}

// ---- cases -------------------------------------------------------------------------------------

export interface FuzzContext {
  /** `127.0.0.1:<port>` */
  host: string;
  /** A project and a task that exist (the fuzzer never deletes them on purpose). */
  projectId: string;
  taskId: string;
  token: string;
  /** The server's body limit (MAX_BODY_BYTES). */
  maxBody: number;
}

export interface FuzzCase {
  category: string;
  /** Written in order; a number is a pause in milliseconds. */
  chunks: Array<Buffer | number>;
  /** Keep the write side open (the server must answer without the end of the request). */
  keepOpen?: boolean;
  /** The method, when it is readable (HEAD answers carry no body). */
  method?: string;
}

type Header = [string, string] | Buffer | string;

interface RequestParts {
  method?: string;
  target?: string;
  version?: string;
  /** Extra header lines: `[name, value]`, or raw text/bytes of a whole line (no CRLF added to bytes). */
  headers?: Header[];
  body?: Buffer | string;
  /** `auto` (default): Content-Length of the body when there is one; `none`; or the literal value. */
  length?: 'auto' | 'none' | string;
  host?: boolean;
  auth?: boolean;
  close?: boolean;
}

/** Builds the bytes of a request. Text is UTF-8; Buffers go through untouched. */
function request(ctx: FuzzContext, parts: RequestParts): Buffer {
  const pieces: Buffer[] = [Buffer.from(`${parts.method ?? 'GET'} ${parts.target ?? '/v1/projects'} ${parts.version ?? 'HTTP/1.1'}\r\n`)];
  const line = (text: string): void => void pieces.push(Buffer.from(`${text}\r\n`));
  if (parts.host !== false) line(`Host: ${ctx.host}`);
  if (parts.auth !== false) line(`Authorization: Bearer ${ctx.token}`);
  if (parts.close !== false) line('Connection: close');
  for (const header of parts.headers ?? []) {
    if (Buffer.isBuffer(header)) pieces.push(header);
    else if (typeof header === 'string') line(header);
    else line(`${header[0]}: ${header[1]}`);
  }
  const body = parts.body === undefined ? undefined : Buffer.isBuffer(parts.body) ? parts.body : Buffer.from(parts.body);
  const length = parts.length ?? 'auto';
  if (length === 'auto' && body !== undefined) line(`Content-Length: ${body.length}`);
  else if (length !== 'auto' && length !== 'none') line(`Content-Length: ${length}`);
  pieces.push(Buffer.from('\r\n'));
  if (body !== undefined) pieces.push(body);
  return Buffer.concat(pieces);
}

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, as in any encoder). */
function percent(text: string): string {
  return [...Buffer.from(text)]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

function simple(category: string, bytes: Buffer, method?: string): FuzzCase {
  return { category, chunks: [bytes], method };
}

const STATUSES = ['todo', 'in_progress', 'done'];

function validTask(g: Rng): Record<string, unknown> {
  const task: Record<string, unknown> = { title: g.string(g.int(1, 30), 'abcdefgh ijk'), status: g.pick(STATUSES) };
  if (g.chance(0.5)) task.dueDate = `2025-0${g.int(1, 9)}-1${g.int(0, 9)}`;
  if (g.chance(0.3)) task.estimateHours = g.int(1, 40) * 0.25;
  if (g.chance(0.3))
    task.assignee = g.chance(0.5) ? { kind: 'person', email: `${g.string(5)}@example.com` } : { kind: 'team', team: g.string(6) };
  if (g.chance(0.3)) task.labels = [{ name: g.string(5, 'abcxyz'), color: '#00aa11' }];
  if (g.chance(0.2)) task.metadata = { source: g.string(8) };
  return task;
}

/** A request that should succeed (or fail only for business reasons): the base of mutations. */
function validRequest(g: Rng, ctx: FuzzContext): RequestParts {
  const p = ctx.projectId;
  const t = ctx.taskId;
  switch (g.int(0, 9)) {
    case 0:
      return {
        target: `/v1/projects?page=${g.int(1, 3)}&pageSize=${g.int(1, 100)}&sort=${g.pick(['name', '-name', 'createdAt', '-createdAt'])}`,
      };
    case 1:
      return {
        method: 'POST',
        target: '/v1/projects',
        headers: [
          ['Content-Type', 'application/json'],
          ['Idempotency-Key', g.uuid()],
        ],
        body: JSON.stringify({ name: g.string(10), description: g.chance(0.5) ? null : 'text' }),
      };
    case 2:
      return { target: `/v1/projects/${p}`, headers: g.chance(0.5) ? [['If-None-Match', '"abc"']] : [] };
    case 3:
      return {
        target: `/v1/projects/${p}/tasks?limit=${g.int(1, 100)}&sort=-title,dueDate&filter[status]=${g.pick(STATUSES)}&fields=id,title,status,createdAt`,
      };
    case 4:
      return {
        method: 'POST',
        target: `/v1/projects/${p}/tasks`,
        headers: [['Content-Type', 'application/json']],
        body: JSON.stringify(validTask(g)),
      };
    case 5:
      return { target: `/v1/tasks/${t}` };
    case 6:
      return {
        method: 'PUT',
        target: `/v1/tasks/${t}`,
        headers: [['Content-Type', 'application/json']],
        body: JSON.stringify(validTask(g)),
      };
    case 7:
      return {
        method: 'PATCH',
        target: `/v1/tasks/${t}`,
        headers: [['Content-Type', 'application/merge-patch+json']],
        body: JSON.stringify({ title: g.string(8) }),
      };
    case 8: {
      const boundary = `----fuzz${g.string(12)}`;
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: application/octet-stream\r\n\r\n${g.string(g.int(0, 200))}\r\n--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nhello\r\n--${boundary}--\r\n`;
      return {
        method: 'POST',
        target: `/v1/tasks/${t}/attachments`,
        headers: [['Content-Type', `multipart/form-data; boundary=${boundary}`]],
        body,
      };
    }
    default:
      return { method: 'DELETE', target: `/v1/tasks/${g.uuid()}` };
  }
}

const JSON_ROUTES = (ctx: FuzzContext): Array<{ method: string; target: string; type: string }> => [
  { method: 'POST', target: '/v1/projects', type: 'application/json' },
  { method: 'POST', target: `/v1/projects/${ctx.projectId}/tasks`, type: 'application/json' },
  { method: 'PUT', target: `/v1/tasks/${ctx.taskId}`, type: 'application/json' },
  { method: 'PATCH', target: `/v1/tasks/${ctx.taskId}`, type: 'application/merge-patch+json' },
];

function jsonRoute(g: Rng, ctx: FuzzContext): { method: string; target: string; type: string } {
  return g.pick(JSON_ROUTES(ctx));
}

function jsonCase(category: string, g: Rng, ctx: FuzzContext, body: Buffer | string, extra: Header[] = []): FuzzCase {
  const route = jsonRoute(g, ctx);
  return simple(
    category,
    request(ctx, { method: route.method, target: route.target, headers: [['Content-Type', route.type], ...extra], body }),
    route.method,
  );
}

const WRONG_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  '',
  'x',
  [],
  [1, 'a'],
  {},
  { a: 1 },
  '2025-13-45',
  'not-an-email',
  -0.25,
  1e300,
];

const UNICODE = [
  '😀🚀',
  'מְשִׁימָה',
  'مهمة',
  'задача',
  '任务',
  'e\u0301\u0301\u0301',
  '\u200b\u200d\ufeff',
  '\u202egnirts',
  '\u0000nul',
  '\ud800',
  '\udfff',
  '\uffff',
  '\u{10ffff}',
  'Å'.repeat(300),
];

const TRAVERSALS = [
  '/v1/../etc/passwd',
  '/v1/projects/../../etc/passwd',
  '/v1/projects/..%2f..%2fetc%2fpasswd',
  '/v1/tasks/%2e%2e/%2e%2e/etc/passwd',
  '/v1/tasks/%2e%2e%2f%2e%2e%2fetc',
  '/v1/projects/..\\..\\windows\\win.ini',
  '/v1/projects/%5c..%5c..%5c',
  '//v1//projects',
  '/v1/./projects',
  '/v1/projects/%00',
  '/v1/projects/a%00b',
  '/./v1/projects',
  '/v1/projects/.%2e/',
  '/v1/projects/%252e%252e/%252e%252e',
  '/v1/tasks/..;/..;/',
  '/%2e%2e/%2e%2e/',
  '/v1/projects/%c0%ae%c0%ae/',
  '/v1/projects/....//....//',
  'http://evil.example/v1/projects',
  'https://127.0.0.1/v1/../../',
  '*',
  '../v1/projects',
  'v1/projects',
  '/v1/projects#/../../x',
  '/v1/projects?/../../etc/passwd',
  '/etc/passwd',
  '/v1/tasks/%2F%2Fetc',
  '/v1/tasks/\\\\server\\share',
];

const PERCENT = [
  '%',
  '%z',
  '%zz',
  '%e0%80',
  '%c0%af',
  '%ff',
  '%u0041',
  '%%',
  '%2',
  '%G0',
  '%ed%a0%80',
  '%f8%88%80%80%80',
  '%00',
  '%0d%0a',
  '%E2%82',
];

const METHODS = [
  'FOO',
  'get',
  'Get',
  'PROPFIND',
  'TRACE',
  'CONNECT',
  'MKCOL',
  'PURGE',
  'LINK',
  'SEARCH',
  'REPORT',
  'COPY',
  'MOVE',
  'LOCK',
  'QUERY',
  'G\u00c9T',
  'GET\t',
  'POST POST',
  '',
  '123',
  'X'.repeat(2000),
  'GE\u0000T',
  'DELETE\u0001',
];

const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=latin1',
  'application/json; charset="utf-16"',
  'application/json;;;',
  'application/jsonx',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="a b"',
  '*/*',
  'application/*',
  '',
  ' ',
  ';',
  'application/merge-patch+json',
  'application/problem+json',
  'application/json, text/plain',
  'APPLICATION/JSON',
  `application/json; ${'x'.repeat(3000)}=1`,
  'application/vnd.api+json',
  'text/json',
  'image/png',
];

type Generator = (g: Rng, ctx: FuzzContext) => FuzzCase;

export const GENERATORS: Record<string, { weight: number; make: Generator }> = {
  'random bytes': {
    weight: 4,
    make: (g) => simple('random bytes', g.bytes(g.int(1, 1500))),
  },
  'random header bytes': {
    weight: 3,
    make: (g, ctx) =>
      simple(
        'random header bytes',
        Buffer.concat([Buffer.from(`GET /v1/projects HTTP/1.1\r\nHost: ${ctx.host}\r\n`), g.bytes(g.int(1, 600)), Buffer.from('\r\n\r\n')]),
        'GET',
      ),
  },
  'random body': {
    weight: 4,
    make: (g, ctx) => jsonCase('random body', g, ctx, g.bytes(g.int(1, 3000))),
  },
  'truncated JSON': {
    weight: 6,
    make: (g, ctx) => {
      const text = JSON.stringify({ ...validTask(g), labels: [{ name: 'a' }], metadata: { k: 'v', l: 'w' } });
      return jsonCase('truncated JSON', g, ctx, text.slice(0, g.int(0, text.length - 1)));
    },
  },
  'wrong types': {
    weight: 8,
    make: (g, ctx) => {
      let body: unknown;
      if (g.chance(0.2)) body = g.pick(WRONG_VALUES);
      else {
        const task = validTask(g);
        const field = g.pick([
          'title',
          'status',
          'dueDate',
          'estimateHours',
          'assignee',
          'labels',
          'metadata',
          'subtasks',
          'name',
          'description',
          'id',
          '__proto__',
          'constructor',
        ]);
        task[field] = g.pick(WRONG_VALUES);
        if (g.chance(0.3)) delete task[g.pick(['title', 'status'])];
        body = task;
      }
      return jsonCase('wrong types', g, ctx, JSON.stringify(body) ?? 'undefined');
    },
  },
  'huge numbers': {
    weight: 5,
    make: (g, ctx) => {
      const huge = g.pick([
        '1e309',
        '-1e309',
        '1e308',
        '123456789012345678901234567890',
        '9007199254740993',
        '-0',
        '0.1e-400',
        '1.0000000000000000000001',
        '4.9e-324',
        '1e-7',
        '0.25e1',
        '-9'.repeat(400),
      ]);
      if (g.chance(0.5)) {
        const task = JSON.stringify({ title: 'n', status: 'todo', estimateHours: 0 }).replace('0}', `${huge}}`);
        return jsonCase('huge numbers', g, ctx, task);
      }
      const target = g.pick([
        `/v1/projects?page=${huge}`,
        `/v1/projects?pageSize=${huge}`,
        `/v1/projects/${ctx.projectId}/tasks?limit=${huge}`,
        `/v1/projects?page=${huge}&pageSize=${huge}`,
      ]);
      return simple('huge numbers', request(ctx, { target }), 'GET');
    },
  },
  'deep nesting': {
    weight: 4,
    make: (g, ctx) => {
      const depth = g.pick([65, 100, 1000, 10_000, 50_000]);
      const open = g.chance(0.5) ? '[' : '{"a":';
      const close = open === '[' ? ']' : '}';
      const nested = open.repeat(depth) + '1' + close.repeat(g.chance(0.8) ? depth : g.int(0, depth));
      const body = g.chance(0.5) ? nested : `{"title":"deep","status":"todo","metadata":${nested}}`;
      return jsonCase('deep nesting', g, ctx, body);
    },
  },
  unicode: {
    weight: 6,
    make: (g, ctx) => {
      const text = g.pick(UNICODE);
      switch (g.int(0, 5)) {
        case 0:
          return jsonCase('unicode', g, ctx, JSON.stringify({ title: text, status: 'todo', metadata: { [text]: text } }));
        case 1:
          // Lone surrogates as JSON escapes, and invalid UTF-8 bytes inside a string.
          return jsonCase(
            'unicode',
            g,
            ctx,
            g.chance(0.5)
              ? '{"title":"\\ud800\\udc00\\udfff","status":"todo"}'
              : Buffer.concat([
                  Buffer.from('{"title":"'),
                  g.pick([
                    Buffer.from([0xff, 0xfe]),
                    Buffer.from([0xc0, 0xaf]),
                    Buffer.from([0xed, 0xa0, 0x80]),
                    Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
                  ]),
                  Buffer.from('","status":"todo"}'),
                ]),
          );
        case 2:
          return simple(
            'unicode',
            request(ctx, { target: `/v1/projects/${percent(text)}/tasks?filter[assignee]=${percent(text)}` }),
            'GET',
          );
        case 3:
          // Raw (unencoded) non-ASCII bytes in the request target.
          return simple(
            'unicode',
            Buffer.concat([
              Buffer.from('GET /v1/projects/'),
              Buffer.from(text),
              Buffer.from(` HTTP/1.1\r\nHost: ${ctx.host}\r\nConnection: close\r\n\r\n`),
            ]),
            'GET',
          );
        case 4:
          return simple(
            'unicode',
            request(ctx, {
              target: `/v1/tasks/${ctx.taskId}`,
              headers: [
                Buffer.concat([Buffer.from('If-None-Match: "'), Buffer.from(text), Buffer.from('"\r\n')]),
                Buffer.concat([Buffer.from('Idempotency-Key: '), Buffer.from(text, 'latin1'), Buffer.from('\r\n')]),
              ],
            }),
            'GET',
          );
        default:
          return jsonCase(
            'unicode',
            g,
            ctx,
            Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ name: text, title: text, status: 'todo' }))]),
          );
      }
    },
  },
  'path traversal': {
    weight: 6,
    make: (g, ctx) => {
      const method = g.pick(['GET', 'GET', 'DELETE', 'PUT', 'HEAD', 'OPTIONS']);
      return simple(
        'path traversal',
        request(ctx, {
          method,
          target: g.pick(TRAVERSALS),
          body: method === 'PUT' ? '{}' : undefined,
          headers: method === 'PUT' ? [['Content-Type', 'application/json']] : [],
        }),
        method,
      );
    },
  },
  'foreign targets': {
    // Absolute-form targets, dot segments and odd Host headers (issue 11 F9): whatever the answer,
    // the URLs it carries (Location, Link, instance) must not name the host they came with.
    weight: 5,
    make: (g, ctx) => {
      const foreign = g.pick([
        'http://evil.example',
        'https://evil.example:8443',
        'HTTP://EVIL.EXAMPLE',
        'http://user:pw@evil.example',
        'http://[::1]:1',
        '//evil.example',
        '/\\evil.example',
        '//evil.example/',
      ]);
      const path = g.pick([
        '/v1/projects',
        '/v1/projects?page=1&pageSize=1',
        `/v1/projects/${ctx.projectId}/tasks?limit=1`,
        `/v1/tasks/${ctx.taskId}`,
        '/v1/nowhere',
        '',
        '/v1/projects/.',
        '/v1/projects/..',
        '/v1/tasks/%2E%2E',
        '/v1/tasks/%2e',
        '/v1/tasks/.%2E/x',
        `/v1/projects/${ctx.projectId}/tasks/..%2F..`,
      ]);
      const target = g.chance(0.75) ? foreign + path : path || '/';
      const host = g.pick([ctx.host, 'evil.example', 'evil.example:1@x', '', '[::1]', 'exa mple', 'a/b', 'evil.example, other.example']);
      const extraHost = g.chance(0.2) ? [['Host', 'second.example'] as [string, string]] : [];
      const create = g.chance(0.4);
      // Never a DELETE of the task the other cases use.
      const method = create ? 'POST' : path.includes(ctx.taskId) ? 'GET' : g.pick(['GET', 'GET', 'DELETE', 'HEAD']);
      const createTarget = target.replace(/\/v1\/.*$/, '/v1/projects');
      return simple(
        'foreign targets',
        request(ctx, {
          method,
          target: create ? createTarget : target,
          host: false,
          headers: [`Host: ${host}`, ...extraHost, ...(create ? [['Content-Type', 'application/json'] as [string, string]] : [])],
          body: create ? JSON.stringify({ name: 'Foreign' }) : undefined,
        }),
        method,
      );
    },
  },
  'header injection': {
    weight: 7,
    make: (g, ctx) => {
      const target = g.pick(['/v1/projects', `/v1/tasks/${ctx.taskId}`, `/v1/projects/${ctx.projectId}`]);
      const name = g.pick([
        'X-Note',
        'Trace-Id',
        'X-Request-Id',
        'Idempotency-Key',
        'If-None-Match',
        'Origin',
        'Authorization',
        'Accept',
        'Content-Type',
      ]);
      const attack = g.pick([
        `${name}: a\r\nSet-Cookie: pwned=1`,
        `${name}: a\nX-Injected: pwned`,
        `${name}: a\rX-Injected: pwned`,
        `${name}: a\r\n\r\nGET /v1/projects?pwned=1 HTTP/1.1\r\nHost: x`,
        `${name}: a\u0000pwned`,
        `${name}: a\r\n pwned-folded: 1`,
        `${name}: a\r\n\tpwned-folded`,
        `${name} : spaced-name`,
        `Bad Header: pwned`,
        `NoColonLinepwned`,
        `${name}: \u007fpwned\u0001`,
        `Content-Length: 5\r\nContent-Length: 6`,
        `Transfer-Encoding: chunked\r\nContent-Length: 4`,
        `Transfer-Encoding: chunked, identity`,
        `Transfer-Encoding: xchunked`,
        `Trace-Id: ${'a'.repeat(129)}`,
        `Trace-Id: ../../etc\r\nX-Injected: pwned`,
        'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nSet-Cookie: pwned',
        `Origin: http://localhost:5173\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: x-pwned\r\n\r\n`,
      ]);
      const method = attack.startsWith('Transfer-Encoding: chunked') ? 'POST' : 'GET';
      const body = attack.startsWith('Transfer-Encoding: chunked')
        ? g.pick([
            '4\r\nabcd\r\n0\r\n\r\n',
            'zz\r\nab\r\n0\r\n\r\n',
            '-1\r\nx\r\n0\r\n\r\n',
            'fffffffffffffffffff\r\nx\r\n',
            '4;ext="\r\n"\r\nabcd\r\n0\r\n\r\n',
          ])
        : undefined;
      return simple(
        'header injection',
        request(ctx, { method, target: method === 'POST' ? '/v1/projects' : target, headers: [attack], body, length: 'none' }),
        method,
      );
    },
  },
  oversized: {
    weight: 3,
    make: (g, ctx) => {
      switch (g.int(0, 5)) {
        case 0: {
          // Declared over the limit: the answer must come without the body being read.
          const route = jsonRoute(g, ctx);
          const head = request(ctx, {
            method: route.method,
            target: route.target,
            headers: [['Content-Type', route.type]],
            length: String(ctx.maxBody + g.int(1, 10_000_000)),
          });
          return {
            category: 'oversized',
            chunks: [head, Buffer.from('{"title":"'), Buffer.alloc(g.int(0, 4096), 0x61)],
            keepOpen: true,
            method: route.method,
          };
        }
        case 1: {
          // Chunked, growing past the limit.
          const route = jsonRoute(g, ctx);
          const head = request(ctx, {
            method: route.method,
            target: route.target,
            headers: [
              ['Content-Type', route.type],
              ['Transfer-Encoding', 'chunked'],
            ],
          });
          const size = ctx.maxBody + 1024;
          return {
            category: 'oversized',
            chunks: [head, Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, 0x20), Buffer.from('\r\n0\r\n\r\n')],
            keepOpen: true,
            method: route.method,
          };
        }
        case 2:
          return simple('oversized', request(ctx, { target: `/v1/projects?x=${'a'.repeat(g.int(8200, 15_000))}` }), 'GET');
        case 3:
          return simple('oversized', request(ctx, { headers: [['X-Big', 'b'.repeat(g.int(17_000, 40_000))]] }), 'GET');
        case 4:
          return simple(
            'oversized',
            request(ctx, { headers: Array.from({ length: g.int(500, 3000) }, (_, i) => [`X-H${i}`, 'v'] as [string, string]) }),
            'GET',
          );
        default: {
          // Exactly at the limit, as valid JSON: a 422 (title too long), not a 413.
          const route = JSON_ROUTES(ctx)[1];
          const filler = ctx.maxBody - JSON.stringify({ title: '', status: 'todo' }).length;
          return simple(
            'oversized',
            request(ctx, {
              method: route.method,
              target: route.target,
              headers: [['Content-Type', route.type]],
              body: JSON.stringify({ title: 'x'.repeat(filler), status: 'todo' }),
            }),
            'POST',
          );
        }
      }
    },
  },
  'bad methods': {
    weight: 4,
    make: (g, ctx) => {
      const method = g.pick(METHODS);
      const target =
        method === 'CONNECT'
          ? ctx.host
          : g.pick(['/v1/projects', `/v1/tasks/${ctx.taskId}`, `/v1/tasks/${ctx.taskId}/attachments`, '/healthz', '/']);
      return simple('bad methods', request(ctx, { method, target }), method);
    },
  },
  'bad percent-encoding': {
    weight: 5,
    make: (g, ctx) => {
      const bad = g.pick(PERCENT);
      const target = g.pick([
        `/v1/projects/${bad}`,
        `/v1/tasks/${ctx.taskId}${bad}`,
        `/v1/projects?page=${bad}`,
        `/v1/projects?${bad}=1`,
        `/v1/projects/${ctx.projectId}/tasks?filter[${bad}]=x`,
        `/v1/projects/${ctx.projectId}/tasks?filter%5Bstatus%5D=${bad}`,
        `/v1/projects/${ctx.projectId}/tasks?cursor=${bad}&fields=${bad}`,
        `/v1${bad}/projects`,
        `/${bad}`,
      ]);
      return simple('bad percent-encoding', request(ctx, { target }), 'GET');
    },
  },
  'bad content types': {
    weight: 6,
    make: (g, ctx) => {
      const type = g.pick(CONTENT_TYPES);
      const routes = [...JSON_ROUTES(ctx), { method: 'POST', target: `/v1/tasks/${ctx.taskId}/attachments`, type: 'multipart/form-data' }];
      const route = g.pick(routes);
      const body = g.pick([
        JSON.stringify(validTask(g)),
        'title=x&status=todo',
        '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--x--\r\n',
        '',
        g.bytes(50).toString('latin1'),
      ]);
      const headers: Header[] = type === '' && g.chance(0.5) ? [] : [['Content-Type', type]];
      return simple('bad content types', request(ctx, { method: route.method, target: route.target, headers, body }), route.method);
    },
  },
  'bad multipart': {
    weight: 4,
    make: (g, ctx) => {
      const boundary = g.pick(['x', 'b'.repeat(71), 'with space', '"quoted"', '----abc', '']);
      const parts = g.pick([
        `--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nno file\r\n--${boundary}--\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\nnot a file but text\r\n--${boundary}--\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc\r\n--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\n${'c'.repeat(300)}\r\n--${boundary}--\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc`,
        `--other\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc\r\n--other--\r\n`,
        `--${boundary}\r\n\r\n\r\n--${boundary}--\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\nContent-Type: text/plain\r\n\r\nroot:x:0:0\r\n--${boundary}--\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''%F0%9F%98%80\r\n\r\nx\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b"\r\n\r\ny\r\n--${boundary}--\r\n`,
        g.bytes(g.int(1, 500)).toString('latin1'),
      ]);
      return simple(
        'bad multipart',
        request(ctx, {
          method: 'POST',
          target: `/v1/tasks/${g.chance(0.8) ? ctx.taskId : g.uuid()}/attachments`,
          headers: [['Content-Type', `multipart/form-data; boundary=${boundary}`]],
          body: Buffer.from(parts, 'latin1'),
        }),
        'POST',
      );
    },
  },
  'bad parameters': {
    weight: 6,
    make: (g, ctx) => {
      const p = ctx.projectId;
      const target = g.pick([
        '/v1/projects?page=abc',
        '/v1/projects?page=0',
        '/v1/projects?page=-1',
        '/v1/projects?pageSize=101',
        '/v1/projects?pageSize=0',
        '/v1/projects?page=1&page=2',
        '/v1/projects?sort=bogus',
        '/v1/projects?sort=',
        '/v1/projects?sort=-',
        '/v1/projects?sort=name,name',
        '/v1/projects?page=1.5',
        '/v1/projects?page=',
        '/v1/projects?page',
        '/v1/projects?&&&=&=',
        `/v1/projects/${p}/tasks?limit=abc`,
        `/v1/projects/${p}/tasks?limit=0`,
        `/v1/projects/${p}/tasks?limit=101`,
        `/v1/projects/${p}/tasks?sort=priority`,
        `/v1/projects/${p}/tasks?sort=,,,`,
        `/v1/projects/${p}/tasks?filter[status]=blocked`,
        `/v1/projects/${p}/tasks?filter[status][x]=1`,
        `/v1/projects/${p}/tasks?filter[unknown]=1`,
        `/v1/projects/${p}/tasks?filter=1`,
        `/v1/projects/${p}/tasks?fields=nope`,
        `/v1/projects/${p}/tasks?fields=`,
        `/v1/projects/${p}/tasks?fields=id,,title`,
        `/v1/projects/${p}/tasks?fields=__proto__`,
        `/v1/projects/${p}/tasks?cursor=${g.string(20)}`,
        `/v1/projects/${p}/tasks?cursor=${Buffer.from('o:999999999').toString('base64url')}`,
        `/v1/projects/${p}/tasks?cursor=${Buffer.from('o:-5').toString('base64url')}`,
        `/v1/projects/${p}/tasks?cursor=&limit=1`,
        `/v1/projects/${p}/tasks?limit=1&limit=2`,
        `/v1/projects/not-a-uuid`,
        `/v1/tasks/${g.uuid().toUpperCase()}`,
        `/v1/tasks/${g.uuid()}x`,
        `/v1/projects/${p}/tasks?__proto__[x]=1&constructor[prototype][x]=1`,
        `/v1/projects/${p}/tasks?filter[__proto__]=x`,
      ]);
      return simple('bad parameters', request(ctx, { target }), 'GET');
    },
  },
  'bad credentials': {
    weight: 4,
    make: (g, ctx) => {
      const value = g.pick([
        'Bearer',
        'Bearer ',
        'Bearer  demo-token',
        'Bearer demo-token extra',
        'bearer demo-token',
        'BEARER demo-token',
        'Basic ZGVtbzpkZW1v',
        'Basic !!!',
        'Basic ' + Buffer.from('nocolon').toString('base64'),
        'Token demo-token',
        '',
        'Bearer ' + 'a'.repeat(10_000),
        'Bearer demo\u00e9token',
        'Bearer reader-token',
        'Bearer ===',
        'Negotiate abc',
        'Bearer demo-token, Bearer other',
      ]);
      const target = g.pick(['/v1/projects', `/v1/tasks/${ctx.taskId}`, `/v1/projects/${ctx.projectId}`]);
      const method = g.pick(['GET', 'POST', 'DELETE']);
      const headers: Header[] = [Buffer.from(`Authorization: ${value}\r\n`, 'latin1')];
      if (g.chance(0.2)) headers.push(['Authorization', 'Bearer demo-token']);
      if (method === 'POST') headers.push(['Content-Type', 'application/json']);
      return simple(
        'bad credentials',
        request(ctx, {
          method,
          target: method === 'DELETE' ? `/v1/tasks/${g.uuid()}` : target,
          auth: false,
          headers,
          body: method === 'POST' ? '{"name":"x"}' : undefined,
        }),
        method,
      );
    },
  },
  'bad conditionals': {
    weight: 4,
    make: (g, ctx) => {
      const name = g.pick(['If-Match', 'If-None-Match', 'If-Modified-Since', 'If-Unmodified-Since', 'If-Range']);
      const value = g.pick([
        'garbage',
        '"unterminated',
        'W/',
        'W/"x"',
        '*',
        '"a", "b", *',
        '',
        ',,,',
        `"${'x'.repeat(5000)}"`,
        'Tue, 99 Foo 2024 25:61:61 GMT',
        'Sun, 06 Nov 1994 08:49:37 GMT',
        '1e9',
        new Array(500).fill('"x"').join(','),
      ]);
      const method = g.pick(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);
      const body = method === 'PUT' ? JSON.stringify(validTask(g)) : method === 'PATCH' ? '{"status":"done"}' : undefined;
      const type = method === 'PUT' ? 'application/json' : 'application/merge-patch+json';
      return simple(
        'bad conditionals',
        request(ctx, {
          method,
          target: `/v1/tasks/${ctx.taskId}`,
          headers: [[name, value], ...(body ? [['Content-Type', type] as [string, string]] : [])],
          body,
        }),
        method,
      );
    },
  },
  'bad idempotency keys': {
    weight: 3,
    make: (g, ctx) => {
      const headers: Header[] = [['Content-Type', 'application/json']];
      const key = g.pick(['', ' ', 'k'.repeat(300), '"quoted \\" key"', '"', 'é-key', '\u0001ctl', 'same-key']);
      headers.push(Buffer.from(`Idempotency-Key: ${key}\r\n`, 'latin1'));
      if (g.chance(0.3)) headers.push(['Idempotency-Key', 'second']);
      // `same-key` with different bodies: 422 after the first.
      return simple(
        'bad idempotency keys',
        request(ctx, {
          method: 'POST',
          target: g.pick(['/v1/projects', `/v1/projects/${ctx.projectId}/tasks`]),
          headers,
          body: JSON.stringify({ name: g.string(4), title: g.string(4), status: 'todo' }),
        }),
        'POST',
      );
    },
  },
  'bad versions': {
    weight: 3,
    make: (g, ctx) => {
      const version = g.pick([
        'HTTP/1.1',
        'HTTP/1.0',
        'HTTP/2.0',
        'HTTP/9.9',
        'HTTP/1.1x',
        'http/1.1',
        'HTTP/1',
        'HTTP/1.10',
        'HTTP/0.9',
        'FOO/1.1',
        '',
      ]);
      return simple('bad versions', request(ctx, { version, host: g.chance(0.7) }), 'GET');
    },
  },
  'expect header': {
    weight: 1,
    make: (g, ctx) => {
      const expect = g.pick(['100-continue', '100-Continue', 'foo', '', '200-ok']);
      const body = JSON.stringify({ name: g.string(6) });
      return simple(
        'expect header',
        request(ctx, {
          method: 'POST',
          target: '/v1/projects',
          headers: [
            ['Content-Type', 'application/json'],
            ['Expect', expect],
          ],
          body,
        }),
        'POST',
      );
    },
  },
  'slow body': {
    weight: 1,
    make: (g, ctx) => {
      const route = jsonRoute(g, ctx);
      const body = Buffer.from(JSON.stringify(validTask(g)));
      const head = request(ctx, {
        method: route.method,
        target: route.target,
        headers: [['Content-Type', route.type]],
        length: String(body.length + g.int(1, 100)),
      });
      // Less than promised, and then silence: 408 once the body timeout passes.
      return { category: 'slow body', chunks: [head, 20, body], keepOpen: true, method: route.method };
    },
  },
  'split writes': {
    weight: 2,
    make: (g, ctx) => {
      const bytes = request(ctx, validRequest(g, ctx));
      const chunks: Array<Buffer | number> = [];
      for (let at = 0; at < bytes.length; ) {
        const size = g.int(1, 40);
        chunks.push(bytes.subarray(at, at + size));
        if (g.chance(0.1)) chunks.push(1);
        at += size;
      }
      return { category: 'split writes', chunks, method: bytes.toString('latin1').split(' ', 1)[0] };
    },
  },
  'mutated valid requests': {
    weight: 14,
    make: (g, ctx) => {
      const bytes = Buffer.from(request(ctx, validRequest(g, ctx)));
      let mutated: Buffer = bytes;
      for (let n = g.int(1, 6); n > 0; n--) {
        const at = g.int(0, mutated.length - 1);
        switch (g.int(0, 4)) {
          case 0:
            mutated[at] = g.int(0, 255);
            break;
          case 1:
            mutated[at] ^= 1 << g.int(0, 7);
            break;
          case 2:
            mutated = Buffer.concat([mutated.subarray(0, at), g.bytes(g.int(1, 8)), mutated.subarray(at)]);
            break;
          case 3:
            mutated = Buffer.concat([mutated.subarray(0, at), mutated.subarray(at + g.int(1, 8))]);
            break;
          default:
            mutated = Buffer.concat([
              mutated.subarray(0, at),
              Buffer.from(g.pick(['\r\n', '\n', '\r', '"', '{', '%', '\u0000', ':', ' ', '[', ','])),
              mutated.subarray(at),
            ]);
        }
      }
      return simple('mutated valid requests', mutated, bytes.toString('latin1').split(' ', 1)[0]);
    },
  },
};

/** Draws the next case: generators in proportion to their weight. */
export function nextCase(g: Rng, ctx: FuzzContext): FuzzCase {
  const entries = Object.values(GENERATORS);
  const total = entries.reduce((sum, entry) => sum + entry.weight, 0);
  let roll = g.next() * total;
  for (const entry of entries) {
    roll -= entry.weight;
    if (roll < 0) return entry.make(g, ctx);
  }
  return entries[entries.length - 1].make(g, ctx);
}

// ---- sending and reading ---------------------------------------------------------------------

export interface RawResponse {
  status: number;
  /** The status line and header lines as received. */
  head: string;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  /** The body arrived in full (by Content-Length, chunked framing, or the end of the connection). */
  complete: boolean;
}

/** Parses the responses in `data` (several, when requests were pipelined). Interim 1xx are skipped. */
export function parseResponses(data: Buffer, method: string | undefined, closed: boolean): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const head = data.subarray(at, end).toString('latin1');
    const [statusLine, ...lines] = head.split('\r\n');
    const match = /^HTTP\/\d\.\d (\d{3})/.exec(statusLine);
    if (!match) break;
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let cursor = end + 4;
    if (status < 200) {
      at = cursor;
      continue;
    }
    let body: Buffer = Buffer.alloc(0);
    let complete = true;
    if (method === 'HEAD' || status === 204 || status === 304) {
      // No body.
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts: Buffer[] = [];
      complete = false;
      for (;;) {
        const lineEnd = data.indexOf('\r\n', cursor);
        if (lineEnd === -1) break;
        const size = parseInt(data.subarray(cursor, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) break;
        cursor = lineEnd + 2;
        if (size === 0) {
          cursor += 2;
          complete = true;
          break;
        }
        parts.push(data.subarray(cursor, cursor + size));
        cursor += size + 2;
      }
      body = Buffer.concat(parts);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      body = data.subarray(cursor, cursor + length);
      complete = body.length === length;
      cursor += length;
    } else {
      body = data.subarray(cursor);
      complete = closed;
      cursor = data.length;
    }
    responses.push({ status, head, headers, body, complete });
    at = cursor;
  }
  return responses;
}

export interface Outcome {
  data: Buffer;
  responses: RawResponse[];
  /** A socket error code seen (EPIPE, ECONNRESET): expected when the server closes first. */
  error?: string;
  timedOut: boolean;
}

/** Sends one case on a fresh connection and collects the answer until the server closes (or `timeout`). */
export function send(port: number, fuzzCase: FuzzCase, timeout = 5000): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let timedOut = false;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const data = Buffer.concat(chunks);
      resolve({ data, responses: parseResponses(data, fuzzCase.method, true), error, timedOut });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
      finish();
    }, timeout);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // With the write side open, one complete answer is all there is to wait for.
      if (fuzzCase.keepOpen) {
        const responses = parseResponses(Buffer.concat(chunks), fuzzCase.method, false);
        if (responses.length > 0 && responses[0].complete) socket.destroy();
      }
    });
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error ??= failure.code ?? failure.message;
    });
    socket.on('close', finish);
    socket.on('connect', async () => {
      for (const chunk of fuzzCase.chunks) {
        if (socket.destroyed) return;
        if (typeof chunk === 'number') await new Promise((wait) => setTimeout(wait, chunk));
        else if (!socket.write(chunk)) await new Promise((drained) => socket.once('drain', drained).once('close', drained));
      }
      if (!fuzzCase.keepOpen && !socket.destroyed) socket.end();
    });
  });
}
