/**
 * Fuzzing the WebSocket runtime (runtime/ws-*.ts) over real sockets on 127.0.0.1: a fixed seed
 * (printed), at least 1,200 connections within a time bound, each sending a random run of hostile
 * messages: malformed and truncated JSON, binary frames, oversized messages, wrong or prototype-named discriminators, wrong field types, floods past the
 * rate limit, messages before (or instead of) the first-message auth, bad tokens, prototype
 * pollution, invalid UTF-8 and upgrades from the same client past its connection limit.
 *
 * Every connection must end with a close code of the conventions (never 1006 from a crash, never a
 * 1011 but for the `crash` kind), close reasons must not carry stack traces or paths, no handler
 * may see a message of an unauthenticated socket, and afterwards the server must still serve a
 * well-behaved client.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Rng } from './support/e2e-fuzz.js';
import { fuzz, fuzzSummary } from './support/fuzz-loop.js';
import { inbox, open, startChat, type ChatServer } from './support/ws-server-setup.js';

const SEED = 0x3eb50c11;
const TARGET = 1200;
const TIME_LIMIT_MS = 20_000;
const CONCURRENCY = 16;
const MAX_PAYLOAD = 4096;
const TOKEN = 'good-token';

/** Close codes a hostile client may get: normal, going away, unsupported data, invalid UTF-8, policy, too big, try later. */
const ALLOWED_CODES = new Set([1000, 1001, 1003, 1007, 1008, 1009, 1013]);
const LEAKS = [
  /\n\s*at\s+\S/,
  /\bat [\w$.<>[\]]+ \(/,
  /node:internal|node_modules\//,
  /\/(?:work|home|tmp)\/[\w./-]+/,
  /[\w-]+\.(?:js|ts):\d+/,
  /secret/,
];

let chat: ChatServer;
/** Messages handlers saw on sockets that never authenticated. */
let unauthenticated = 0;

beforeAll(async () => {
  chat = await startChat({
    maxPayload: MAX_PAYLOAD,
    maxConnectionsPerClient: 64,
    rateLimit: { messages: 40, intervalMs: 1000 },
    firstMessageAuth: { verify: (token) => (token === TOKEN ? { user: 'fuzz' } : undefined), timeoutMs: 1000 },
    onOpen: (connection) => {
      if (connection.context === undefined) unauthenticated++;
    },
  });
}, 60_000);

afterAll(async () => {
  await chat?.stop();
});

type Frame = { data: string | Buffer; binary?: boolean };

const KINDS = [
  'say',
  'join',
  'leave',
  'history',
  'work',
  'crash',
  'ping',
  'auth',
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  '',
  'SAY',
  'said',
];

function value(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, depth > 3 ? 5 : 8)) {
    case 0:
      return rng.string(rng.int(0, 20));
    case 1:
      return rng.int(-1e6, 1e6);
    case 2:
      return rng.pick([null, true, false, 1e308, -0, 2 ** 53 + 1]);
    case 3:
      return rng.pick(['\u0000', '\ud800', '💥'.repeat(10), '<script>', '${x}', '%s%n']);
    case 4:
      return rng.int(0, 5);
    case 5:
      return rng.string(rng.int(0, 5), 'ab');
    case 6:
      return Array.from({ length: rng.int(0, 4) }, () => value(rng, depth + 1));
    case 7:
      return Object.fromEntries(
        Array.from({ length: rng.int(0, 4) }, () => [
          rng.pick(['type', 'id', 'room', 'text', 'ms', '__proto__', 'constructor', rng.string(3)]),
          value(rng, depth + 1),
        ]),
      );
    default:
      return { nested: value(rng, depth + 1) };
  }
}

/** One hostile message. */
function message(rng: Rng): Frame {
  switch (rng.int(0, 11)) {
    case 0:
      return { data: rng.bytes(rng.int(1, 64)), binary: true };
    case 1:
      return { data: '{"type":"say","text":"' + rng.string(rng.int(0, 40)) };
    case 2:
      return { data: 'x'.repeat(MAX_PAYLOAD + rng.int(1, 4000)) };
    case 3:
      return { data: JSON.stringify({ type: rng.pick(KINDS), ...(value(rng) as object) }) };
    case 4:
      return { data: JSON.stringify({ type: rng.pick(KINDS), text: value(rng), room: value(rng), ms: rng.int(0, 3), id: value(rng) }) };
    case 5:
      return { data: '{"__proto__":{"polluted":true},"type":"say","text":"p"}' };
    case 6:
      return { data: JSON.stringify(value(rng)) };
    case 7:
      return { data: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }; // invalid UTF-8 in a text frame
    case 8:
      return { data: JSON.stringify({ type: 'say', text: rng.string(rng.int(1, 30)) }) };
    case 9:
      return { data: JSON.stringify({ type: 'ping', id: rng.pick([1, 'a', null, {}, [1]]) }) };
    case 10:
      return { data: JSON.stringify({ type: 'work', ms: rng.int(0, 3), fail: rng.chance(0.5), id: rng.int(0, 9) }) };
    default:
      return { data: '['.repeat(rng.int(1, 2000)) };
  }
}

interface Case {
  category: string;
  frames: Frame[];
}

function nextCase(rng: Rng): Case {
  const auth = { data: JSON.stringify({ type: 'auth', token: TOKEN }) };
  const category = rng.pick(['before-auth', 'bad-token', 'after-auth', 'flood', 'after-auth', 'raw-auth']);
  const some = (n: number) => Array.from({ length: rng.int(1, n) }, () => message(rng));
  switch (category) {
    case 'before-auth':
      return { category, frames: some(4) };
    case 'bad-token':
      return {
        category,
        frames: [{ data: JSON.stringify({ type: 'auth', token: rng.pick(['', 'bad', 42, null, 'x'.repeat(3000)]) }) }, ...some(3)],
      };
    case 'flood':
      return { category, frames: [auth, ...Array.from({ length: 120 }, () => ({ data: '{"type":"join","room":"r"}' }))] };
    case 'raw-auth':
      return { category, frames: [{ data: JSON.stringify({ type: 'auth', token: TOKEN, extra: value(rng) }) }, ...some(3)] };
    default:
      return { category, frames: [auth, ...some(6)] };
  }
}

interface Outcome {
  status?: number;
  code?: number;
  reason?: string;
}

/**
 * Runs one case on a fresh socket: sends its frames, then waits for the close, or 300 ms of quiet
 * (3 s before auth: the server's 1 s auth timeout must close those).
 */
async function run(fuzzCase: Case): Promise<Outcome> {
  const quietMs = fuzzCase.category === 'before-auth' ? 3000 : 300;
  const opened = await open(`${chat.url}/rooms/fuzz`);
  if (!opened.socket) return opened.outcome ?? {};
  const socket = opened.socket;
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout>;
    const done = (outcome: Outcome): void => {
      clearTimeout(quiet);
      resolve(outcome);
    };
    const rearm = (): void => {
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        socket.terminate();
        done({ code: 1000, reason: 'client done' });
      }, quietMs);
    };
    socket.on('message', rearm);
    socket.once('close', (code, reason) => done({ code, reason: reason.toString() }));
    for (const frame of fuzzCase.frames) {
      if (socket.readyState !== WebSocket.OPEN) break;
      socket.send(frame.data, { binary: frame.binary === true });
    }
    rearm();
  });
}

it(`survives ${TARGET.toLocaleString('en-US')} hostile connections: proper close codes, no leaks, nothing before auth, still serving`, async () => {
  const result = await fuzz({
    seed: SEED,
    target: TARGET,
    timeLimitMs: TIME_LIMIT_MS,
    concurrency: CONCURRENCY,
    next: nextCase,
    run: async (fuzzCase, fail) => {
      const outcome = await run(fuzzCase);
      const key = outcome.status !== undefined ? `http ${outcome.status}` : String(outcome.code);
      if (outcome.status !== undefined && outcome.status !== 429) fail(`[${fuzzCase.category}] handshake answered ${outcome.status}`);
      // A handler that throws or rejects (the chat's `crash`, a failing `work`) closes with 1011 by design.
      const crashKind = fuzzCase.frames.some(
        (frame) => typeof frame.data === 'string' && (frame.data.includes('"crash"') || frame.data.includes('"fail":true')),
      );
      if (outcome.code !== undefined && !ALLOWED_CODES.has(outcome.code) && !(outcome.code === 1011 && crashKind))
        fail(`[${fuzzCase.category}] close code ${outcome.code} ${outcome.reason}`);
      for (const pattern of LEAKS)
        if (outcome.reason && pattern.test(outcome.reason)) fail(`[${fuzzCase.category}] reason leaks: ${outcome.reason}`);
      if (fuzzCase.category === 'before-auth' && outcome.reason === 'client done')
        fail('[before-auth] a socket that never authenticated was not closed');
      return key;
    },
  });
  console.log(fuzzSummary('ws fuzz', SEED, result, 'connections'));
  const { sent, failures } = result;

  expect(sent).toBeGreaterThanOrEqual(TARGET);
  expect(failures.slice(0, 10)).toEqual([]);
  expect(unauthenticated).toBe(0);
  expect(chat.said.filter((entry) => entry.context === undefined).slice(0, 3)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();

  // A well-behaved client is still served.
  const good = await open(`${chat.url}/rooms/fuzz`);
  expect(good.outcome).toBeUndefined();
  const messages = inbox(good.socket!);
  good.socket!.send(JSON.stringify({ type: 'auth', token: TOKEN }));
  good.socket!.send(JSON.stringify({ type: 'history', id: 7, room: 'r' }));
  expect(await messages.next()).toEqual({ type: 'historyResult', id: 7, texts: ['history of r'] });
  good.socket!.close();
}, 60_000);

it.each([
  ['a message other than auth', { type: 'join', room: 'r' }],
  ['an auth message whose token is not a string', { type: 'auth', token: 42 }],
])('after %s first, the messages right behind it never reach a handler: the socket closes with 1008', async (_name, first) => {
  const before = chat.said.length;
  const opened = await open(`${chat.url}/rooms/fuzz`);
  const closed = new Promise<number>((resolve) => opened.socket!.once('close', (code) => resolve(code)));
  // In one TCP write, so the server reads them together.
  opened.socket!.send(JSON.stringify(first));
  opened.socket!.send(JSON.stringify({ type: 'say', text: 'sneaky' }));
  opened.socket!.send(JSON.stringify({ type: 'auth', token: TOKEN }));
  opened.socket!.send(JSON.stringify({ type: 'say', text: 'sneaky' }));
  expect(await closed).toBe(1008);
  expect(chat.said.slice(before)).toEqual([]);
});
