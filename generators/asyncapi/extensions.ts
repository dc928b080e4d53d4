/**
 * The `x-` extensions that fill AsyncAPI's gaps for SSE and WebSocket (documented, with an example
 * each, in the README, "SSE and WebSocket"). Each is read from the object it belongs on, checked, and returned with
 * its default applied; a wrong value is a located problem and the default stands in, so one run
 * reports every problem.
 *
 * Channel: `x-sse`, `x-discriminator`, `x-subprotocols`, `x-heartbeat`, `x-max-message-size`,
 * `x-first-message-auth`. Message: `x-sse-event`.
 */
import type { Problems, Where } from '../core/schema/json-documents.js';
import { at, describe, isObject, locate, own } from '../core/schema/json-documents.js';
import type { SseSettings, Transport } from './model.js';

export const DEFAULTS = {
  keepAlive: 15_000,
  heartbeat: 30_000,
  maxMessageSize: 1_048_576,
  authTimeout: 5_000,
} as const;

/** Extensions that only mean something on one transport. */
export const WEBSOCKET_ONLY = ['x-subprotocols', 'x-heartbeat', 'x-max-message-size', 'x-first-message-auth', 'x-discriminator'];

/** RFC 6455 subprotocols are RFC 7230 tokens. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** An integer in [min, max], else a located problem and undefined. */
function integer(
  value: unknown,
  where: Where,
  what: string,
  min: number,
  max: number,
  problems: Problems,
  example: string,
): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  problems.add(`${what} must be a whole number from ${min} to ${max}, not ${describe(value)}`, locate(where), `write e.g. ${example}`);
  return undefined;
}

function singleLine(value: unknown, where: Where, what: string, problems: Problems, example: string): string | undefined {
  if (typeof value === 'string' && value !== '' && !/[\r\n]/.test(value)) return value;
  problems.add(`${what} must be a non-empty string on one line, not ${describe(value)}`, locate(where), `write e.g. ${example}`);
  return undefined;
}

/** `x-sse` on a channel: undefined when absent or `false`; the settings (defaults applied) otherwise. */
export function readSse(channel: Record<string, unknown>, where: Where, problems: Problems): SseSettings | undefined {
  const raw = own(channel, 'x-sse');
  if (raw === undefined || raw === false) return undefined;
  const place = at(where, 'x-sse');
  const settings: SseSettings = { method: 'GET', keepAlive: DEFAULTS.keepAlive, resume: true };
  if (raw === true) return settings;
  if (!isObject(raw)) {
    problems.add(
      `"x-sse" must be true or an object of SSE settings, not ${describe(raw)}`,
      locate(place),
      'write x-sse: true, or e.g. x-sse: { retry: 3000 }',
    );
    return settings;
  }
  const known = ['method', 'retry', 'keepAlive', 'done', 'resume'];
  for (const key of Object.keys(raw)) {
    if (!known.includes(key))
      problems.add(`"x-sse" has an unknown setting "${key}"`, locate(at(place, key), 'key'), `the settings are ${known.join(', ')}`);
  }
  if (raw.method !== undefined) {
    if (raw.method === 'GET' || raw.method === 'POST') settings.method = raw.method;
    else
      problems.add(
        `"x-sse.method" must be GET or POST, not ${describe(raw.method)}`,
        locate(at(place, 'method')),
        'GET for EventSource feeds, POST for streams that take a JSON body',
      );
  }
  // A POST stream answers one request; there is nothing to resume (4.8: no Last-Event-ID).
  settings.resume = settings.method === 'GET';
  if (raw.retry !== undefined) {
    const retry = integer(raw.retry, at(place, 'retry'), '"x-sse.retry"', 0, 86_400_000, problems, 'retry: 3000 (milliseconds)');
    if (retry !== undefined) settings.retry = retry;
  }
  if (raw.keepAlive !== undefined) {
    settings.keepAlive =
      integer(
        raw.keepAlive,
        at(place, 'keepAlive'),
        '"x-sse.keepAlive"',
        0,
        3_600_000,
        problems,
        'keepAlive: 15000 (milliseconds; 0 turns it off)',
      ) ?? settings.keepAlive;
  }
  if (raw.done !== undefined) {
    const done = singleLine(raw.done, at(place, 'done'), '"x-sse.done"', problems, 'done: "[DONE]"');
    if (done !== undefined) settings.done = done;
  }
  if (raw.resume !== undefined) {
    if (typeof raw.resume !== 'boolean') {
      problems.add(
        `"x-sse.resume" must be true or false, not ${describe(raw.resume)}`,
        locate(at(place, 'resume')),
        'write resume: false to keep no event log',
      );
    } else if (raw.resume && settings.method === 'POST') {
      problems.add(
        '"x-sse.resume" cannot be true on a POST stream: it answers one request and is not resumed',
        locate(at(place, 'resume')),
        'remove resume, or make the channel a GET feed',
      );
    } else settings.resume = raw.resume;
  }
  return settings;
}

/** Reports WebSocket extensions written on a channel of another transport. */
export function checkTransportExtensions(channel: Record<string, unknown>, where: Where, transport: Transport, problems: Problems): void {
  if (transport === 'websocket') return;
  for (const key of WEBSOCKET_ONLY) {
    if (own(channel, key) !== undefined) {
      problems.add(
        `"${key}" applies to WebSocket channels; this channel is ${transport === 'sse' ? 'SSE' : 'an HTTP stream'}`,
        locate(at(where, key), 'key'),
        'remove it, or serve the channel over ws/wss',
      );
    }
  }
}

export function readDiscriminator(channel: Record<string, unknown>, where: Where, problems: Problems): string | undefined {
  const raw = own(channel, 'x-discriminator');
  if (raw === undefined) return undefined;
  return singleLine(raw, at(where, 'x-discriminator'), '"x-discriminator"', problems, 'x-discriminator: type');
}

export function readSubprotocols(channel: Record<string, unknown>, where: Where, problems: Problems): string[] {
  const raw = own(channel, 'x-subprotocols');
  if (raw === undefined) return [];
  const place = at(where, 'x-subprotocols');
  if (!Array.isArray(raw)) {
    problems.add(
      `"x-subprotocols" must be a list of subprotocol names, not ${describe(raw)}`,
      locate(place),
      'write e.g. x-subprotocols: [chat.v1]',
    );
    return [];
  }
  const out: string[] = [];
  raw.forEach((item, i) => {
    const itemAt = at(place, String(i));
    if (typeof item !== 'string' || !TOKEN.test(item)) {
      problems.add(
        `"x-subprotocols" entries must be tokens (letters, digits and !#$%&'*+-.^_\`|~), not ${describe(item)}`,
        locate(itemAt),
        'write e.g. chat.v1',
      );
    } else if (out.includes(item)) {
      problems.add(`subprotocol "${item}" is listed twice`, locate(itemAt), 'remove one of them');
    } else out.push(item);
  });
  return out;
}

export function readHeartbeat(channel: Record<string, unknown>, where: Where, problems: Problems): number {
  const raw = own(channel, 'x-heartbeat');
  if (raw === undefined) return DEFAULTS.heartbeat;
  if (raw === false || raw === 0) return 0;
  return (
    integer(
      raw,
      at(where, 'x-heartbeat'),
      '"x-heartbeat"',
      1_000,
      3_600_000,
      problems,
      'x-heartbeat: 30000 (milliseconds), or false to turn it off',
    ) ?? DEFAULTS.heartbeat
  );
}

export function readMaxMessageSize(channel: Record<string, unknown>, where: Where, problems: Problems): number {
  const raw = own(channel, 'x-max-message-size');
  if (raw === undefined) return DEFAULTS.maxMessageSize;
  return (
    integer(raw, at(where, 'x-max-message-size'), '"x-max-message-size"', 1, 2 ** 31 - 1, problems, 'x-max-message-size: 65536 (bytes)') ??
    DEFAULTS.maxMessageSize
  );
}

/** The raw `x-first-message-auth`, checked for shape; the message it names is checked by the caller. */
export interface RawFirstMessageAuth {
  message: string;
  messageAt: Where;
  token: string[];
  tokenAt: Where;
  timeout: number;
}

export function readFirstMessageAuth(channel: Record<string, unknown>, where: Where, problems: Problems): RawFirstMessageAuth | undefined {
  const raw = own(channel, 'x-first-message-auth');
  if (raw === undefined) return undefined;
  const place = at(where, 'x-first-message-auth');
  if (!isObject(raw)) {
    problems.add(
      `"x-first-message-auth" must be an object, not ${describe(raw)}`,
      locate(place),
      'write e.g. x-first-message-auth: { message: auth, token: /token }',
    );
    return undefined;
  }
  const known = ['message', 'token', 'timeout'];
  for (const key of Object.keys(raw)) {
    if (!known.includes(key))
      problems.add(
        `"x-first-message-auth" has an unknown setting "${key}"`,
        locate(at(place, key), 'key'),
        `the settings are ${known.join(', ')}`,
      );
  }
  const messageAt = at(place, 'message');
  const message = singleLine(
    raw.message,
    raw.message === undefined ? place : messageAt,
    '"x-first-message-auth.message"',
    problems,
    "message: auth (a key of the channel's messages)",
  );
  const tokenAt = at(place, 'token');
  let token = ['token'];
  if (raw.token !== undefined) {
    if (typeof raw.token !== 'string' || !/^(\/[^/]+)+$/.test(raw.token)) {
      problems.add(
        `"x-first-message-auth.token" must be a JSON pointer into the payload such as "/token", not ${describe(raw.token)}`,
        locate(tokenAt),
        'write e.g. token: /token',
      );
    } else
      token = raw.token
        .slice(1)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  const timeout =
    raw.timeout === undefined
      ? DEFAULTS.authTimeout
      : (integer(
          raw.timeout,
          at(place, 'timeout'),
          '"x-first-message-auth.timeout"',
          100,
          600_000,
          problems,
          'timeout: 5000 (milliseconds)',
        ) ?? DEFAULTS.authTimeout);
  return message === undefined ? undefined : { message, messageAt, token, tokenAt, timeout };
}

/** `x-sse-event` on a message: the SSE `event:` name, when it differs from the message's name. */
export function readSseEvent(message: Record<string, unknown>, where: Where, problems: Problems): string | undefined {
  const raw = own(message, 'x-sse-event');
  if (raw === undefined) return undefined;
  return singleLine(raw, at(where, 'x-sse-event'), '"x-sse-event"', problems, 'x-sse-event: task.created');
}
