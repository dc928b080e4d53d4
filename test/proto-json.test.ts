/**
 * runtime/proto-json.ts, the generated JSON codecs' conversions, against protobuf-es's reflection on
 * the same input: what the fast path returns equals what reflection returns, and what it does not
 * take it throws `FALLBACK` at (reflection then answers), never a different value.
 */
import { create, fromJson, type JsonValue, toJson } from '@bufbuild/protobuf';
import { BytesValueSchema, DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import {
  bytesJson,
  durationJson,
  FALLBACK,
  countKeys,
  readBytes,
  readDuration,
  readTimestamp,
  timestampJson,
} from '../runtime/proto-json.js';

/** The fast path's answer, or FALLBACK when it throws (the codec then asks reflection, whatever it threw). */
function attempt<T>(read: () => T): T | typeof FALLBACK {
  try {
    return read();
  } catch {
    return FALLBACK;
  }
}

/** Reflection's answer, or the error it throws. */
function reflect<T>(read: () => T): T | Error {
  try {
    return read();
  } catch (error) {
    return error as Error;
  }
}

/** A deterministic pseudo-random sequence (no flaky inputs). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('timestamps', () => {
  const next = random(17);
  const seconds = [
    -62135596800,
    253402300799,
    0,
    -1,
    86399,
    951782400,
    951868800,
    4107542400,
    -2208988800,
    ...Array.from({ length: 2000 }, () => Math.floor(-62135596800 + next() * (253402300799 + 62135596800))),
  ];
  const nanos = [0, 1, 1000, 1000000, 250000000, 999999999, 120000, 123456789];

  it('writes what toJson writes, and reads it back as fromJson does', () => {
    for (const [i, s] of seconds.entries()) {
      const value = create(TimestampSchema, { seconds: BigInt(s), nanos: nanos[i % nanos.length]! });
      const json = timestampJson(value);
      expect(json).toBe(toJson(TimestampSchema, value));
      expect(readTimestamp(json)).toEqual(fromJson(TimestampSchema, json));
    }
  });

  it('leaves out-of-range values to reflection', () => {
    for (const [s, n] of [
      [-62135596801, 0],
      [253402300800, 0],
      [0, -1],
      [0, 1000000000],
    ] as const)
      expect(attempt(() => timestampJson(create(TimestampSchema, { seconds: BigInt(s), nanos: n })))).toBe(FALLBACK);
  });

  it('reads RFC 3339 as fromJson does, or leaves it to reflection', () => {
    const texts = [
      '2026-01-02T03:04:05Z',
      '2026-01-02T03:04:05.1Z',
      '2026-01-02T03:04:05.123456789Z',
      '2026-01-02T03:04:05.1234567891Z',
      '2026-01-02T03:04:05+01:30',
      '2026-01-02T03:04:05.5-23:59',
      '2026-01-02T03:04:05-24:00',
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2021-02-30T00:00:00Z',
      '2021-01-01T24:00:00Z',
      '2021-01-01T23:60:00Z',
      '0001-01-01T00:00:00Z',
      '0000-12-31T23:59:59Z',
      '0001-01-01T00:00:00+00:01',
      '9999-12-31T23:59:59.999999999Z',
      '9999-12-31T23:59:59-00:01',
      '2026-01-02t03:04:05z',
      '2026-01-02T03:04:05',
      '2026-01-02T03:04:05.Z',
      '2026-01-02T03:04:05ZZ',
      '2026-1-02T03:04:05Z',
      ' 2026-01-02T03:04:05Z',
    ];
    for (const text of texts) {
      const fast = attempt(() => readTimestamp(text));
      const slow = reflect(() => fromJson(TimestampSchema, text));
      if (fast !== FALLBACK) expect(fast, text).toEqual(slow);
    }
    // The usual forms do not leave the fast path.
    for (const text of texts.slice(0, 3))
      expect(
        attempt(() => readTimestamp(text)),
        text,
      ).not.toBe(FALLBACK);
  });
});

describe('durations', () => {
  it('writes and reads what toJson and fromJson do', () => {
    for (const [s, n] of [
      [0, 0],
      [172800, 0],
      [-1, -500000000],
      [0, -1],
      [0, 1000],
      [315576000000, 999999999],
    ] as const) {
      const value = create(DurationSchema, { seconds: BigInt(s), nanos: n });
      const json = durationJson(value);
      expect(json).toBe(toJson(DurationSchema, value));
      expect(readDuration(json)).toEqual(fromJson(DurationSchema, json));
    }
    for (const text of ['-0.5s', '1.000000001s', '1s', '1', '1.s', 's', '315576000001s', '1.5sx'])
      if (attempt(() => readDuration(text)) !== FALLBACK) expect(readDuration(text), text).toEqual(fromJson(DurationSchema, text));
  });
});

describe('bytes', () => {
  it('writes standard base64 as toJson does, and reads both alphabets as fromJson does', () => {
    const next = random(5);
    for (let length = 0; length < 70; length++) {
      const bytes = Uint8Array.from({ length }, () => Math.floor(next() * 256));
      const value = create(BytesValueSchema, { value: bytes });
      const json = bytesJson(bytes);
      expect(json).toBe(toJson(BytesValueSchema, value));
      for (const text of [json, json.replace(/=+$/, ''), json.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')]) {
        const fast = readBytes(text);
        expect(Object.getPrototypeOf(fast)).toBe(Uint8Array.prototype);
        expect([...fast], text).toEqual([...(fromJson(BytesValueSchema, text as JsonValue).value as Uint8Array)]);
      }
    }
    for (const text of ['AQ', 'A', 'AQ=', 'A Q==', 'AQ==AQ==', '-_+/', '%%%%', 'AR==', 'AQI']) {
      const slow = reflect(() => fromJson(BytesValueSchema, text));
      const fast = attempt(() => readBytes(text));
      if (slow instanceof Error) expect(fast, text).toBe(FALLBACK);
      else expect([...(fast as Uint8Array)], text).toEqual([...slow.value]);
    }
  });
});

describe('counting keys', () => {
  it('counts the keys of JSON text, so that a key given twice (which JSON.parse drops) shows', () => {
    const keysIn = (value: unknown): number =>
      Array.isArray(value)
        ? value.reduce((sum: number, item) => sum + keysIn(item), 0)
        : typeof value === 'object' && value !== null
          ? Object.values(value).reduce((sum: number, item) => sum + keysIn(item), Object.keys(value).length)
          : 0;
    for (const text of [
      '{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}',
      '{"a":"\\":","b":"{\\"a\\":"}',
      '{"a\\\\":1,"b":"x\\\\"}',
      '{ "a" : [ 1 , { "b" : null } ] , "c" : "::" }',
      '[]',
      '"a:b"',
    ])
      expect(countKeys(text), text).toBe(keysIn(JSON.parse(text)));
    expect(countKeys('{"a":1,"b":2,"a":3}')).toBe(3);
    expect(keysIn(JSON.parse('{"a":1,"b":2,"a":3}'))).toBe(2);
  });
});
