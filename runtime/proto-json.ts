/**
 * What the generated JSON codecs (`<file>_json.ts`) share: the `MessageJsonCodec` they export, the
 * registry the server's JSON paths look them up in, and the conversions of scalars and well-known
 * types between protobuf-es's values and the proto3 JSON mapping.
 *
 * The generated code is a fast path, not a second implementation of every rule: it reads the forms
 * JSON usually takes (JSON names, numbers as numbers, enums by name…) and throws `FALLBACK` at
 * anything else — a proto name given beside a JSON name, `Any`, an extension key, a value it would
 * have to reject, a depth past 100. The codec then answers with protobuf-es's reflection
 * (`toJson`/`fromJson`) on the same input, so results and errors are protobuf-es's exactly, and
 * options the fast path does not take (`alwaysEmitImplicit`, `enumAsInteger`, `useProtoFieldName`,
 * `ignoreUnknownFields`) go to reflection too.
 */
import {
  fromJson,
  fromJsonString,
  protoInt64,
  toJson,
  toJsonString,
  type DescMessage,
  type JsonObject,
  type JsonReadOptions,
  type JsonValue,
  type JsonWriteOptions,
  type JsonWriteStringOptions,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { Duration, Timestamp } from "@bufbuild/protobuf/wkt";
import { base64Decode, base64Encode, getTextEncoding } from "@bufbuild/protobuf/wire";

/** A message type's proto3 JSON: protobuf-es's `toJson`/`fromJson` (and their `String` forms), with the same results and errors. */
export interface MessageJsonCodec<T extends Message = Message> {
  readonly schema: GenMessage<T>;
  toJson(message: T, options?: Partial<JsonWriteOptions>): JsonValue;
  toJsonString(message: T, options?: Partial<JsonWriteStringOptions>): string;
  fromJson(json: JsonValue, options?: Partial<JsonReadOptions>): T;
  fromJsonString(json: string, options?: Partial<JsonReadOptions>): T;
}

/** A generated writer: the JSON of `message` with default options (`registry` for `Any`). */
export type JsonWrite<T> = (message: T, registry: Registry | undefined) => JsonValue;
/** A generated reader: a new message from `json` at nesting depth `depth` (1 for the top message). */
export type JsonRead<T> = (json: JsonValue, depth: number) => T;

/** Thrown by generated code at what it leaves to reflection; never escapes a codec. */
export const FALLBACK: Error = new Error("left to reflection");

/** Throws `FALLBACK`: an expression for the generated code. */
export function fallback(): never {
  throw FALLBACK;
}

/** protobuf-es's limit of nested messages in JSON. */
export const MAX_DEPTH = 100;

/** The codec of a message type from its generated writer and reader, with reflection behind both. */
export function jsonCodec<T extends Message>(schema: GenMessage<T>, write: JsonWrite<T>, read: JsonRead<T>): MessageJsonCodec<T> {
  const codec: MessageJsonCodec<T> = {
    schema,
    toJson(message, options) {
      if (options !== undefined && (options.alwaysEmitImplicit || options.enumAsInteger || options.useProtoFieldName))
        return toJson(schema, message, options);
      try {
        if (message.$typeName !== schema.typeName) return fallback();
        return write(message, options?.registry);
      } catch {
        return toJson(schema, message, options);
      }
    },
    toJsonString(message, options) {
      return JSON.stringify(codec.toJson(message, options), null, options?.prettySpaces ?? 0);
    },
    fromJson(json, options) {
      if (options !== undefined && (options.ignoreUnknownFields || options.recursionLimit !== undefined))
        return fromJson(schema, json, options);
      try {
        return read(json, 1);
      } catch {
        return fromJson(schema, json, options);
      }
    },
    fromJsonString(text, options) {
      if (options !== undefined && (options.ignoreUnknownFields || options.recursionLimit !== undefined))
        return fromJsonString(schema, text, options);
      let json: JsonValue;
      try {
        json = JSON.parse(text) as JsonValue;
      } catch {
        return fromJsonString(schema, text, options);
      }
      const keys = countKeys(text);
      keysRead = 0;
      let message: T;
      try {
        message = read(json, 1);
      } catch {
        return fromJsonString(schema, text, options);
      }
      // Fewer keys read than written: a key given twice, or objects read by reflection (`Struct`…), which checks them itself.
      return keysRead === keys ? message : fromJsonString(schema, text, options);
    },
  };
  return codec;
}

const registered = new WeakMap<DescMessage, MessageJsonCodec>();

/** Makes `codecs` the JSON of their message types for `jsonCodecOf`. */
export function registerJsonCodecs(...codecs: { readonly schema: DescMessage }[]): void {
  // A codec is only ever handed messages of its own schema (jsonCodecOf looks it up by schema).
  for (const codec of codecs) registered.set(codec.schema, codec as MessageJsonCodec);
}

/** The registered JSON codec of `schema`, or protobuf-es's reflection for a type without one. */
export function jsonCodecOf(schema: DescMessage): MessageJsonCodec {
  let codec = registered.get(schema);
  if (codec === undefined) {
    const generic = schema as GenMessage<Message>;
    codec = {
      schema: generic,
      toJson: (message, options) => toJson(generic, message, options),
      toJsonString: (message, options) => toJsonString(generic, message, options),
      fromJson: (json, options) => fromJson(generic, json, options),
      fromJsonString: (json, options) => fromJsonString(generic, json, options),
    };
    registered.set(schema, codec);
  }
  return codec;
}

/** Keys `keysOf` handed out since the last reset: `fromJsonString` compares them with the text's. */
let keysRead = 0;

/** The keys of a JSON object the generated code reads (a message's fields, a map's entries), counted. */
export function keysOf(object: JsonObject): string[] {
  const keys = Object.keys(object);
  keysRead += keys.length;
  return keys;
}

/**
 * The number of object keys in JSON text: its colons outside strings. Strings are jumped with
 * `indexOf` (a quote after an odd run of backslashes is escaped). JSON.parse keeps the last of a key
 * given twice in one object, so a parsed value with fewer keys than its text had a duplicate, which
 * protobuf-es's `fromJsonString` refuses.
 */
export function countKeys(text: string): number {
  let count = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) count++;
    else if (c === 0x22) {
      for (;;) {
        const close = text.indexOf('"', i + 1);
        if (close < 0) return count;
        let k = close - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        i = close;
        if ((close - k) % 2 === 1) break;
      }
    }
  }
  return count;
}

const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** A `string` field's value: a string that is valid UTF-16 (protobuf-es refuses lone surrogates). */
export function readString(json: JsonValue): string {
  if (typeof json !== "string") return fallback();
  if (nativeWellFormed !== undefined ? !nativeWellFormed.call(json) : !getTextEncoding().checkUtf8(json)) return fallback();
  return json;
}

export function readBool(json: JsonValue): boolean {
  return typeof json === "boolean" ? json : fallback();
}

/** A number or a decimal string, as protobuf-es's `int32FromJson` reads 32-bit integers. */
function int32Json(json: JsonValue): number {
  if (typeof json === "number") return json;
  if (typeof json !== "string" || json === "" || json.trim().length !== json.length) return fallback();
  return Number(json);
}

export function readInt32(json: JsonValue): number {
  const value = int32Json(json);
  return Number.isInteger(value) && value <= 0x7fffffff && value >= -0x80000000 ? value : fallback();
}

export function readUint32(json: JsonValue): number {
  const value = int32Json(json);
  return Number.isInteger(value) && value <= 0xffffffff && value >= 0 ? value : fallback();
}

/** A `double` (`float` when `float32`): a number, `"NaN"`, `"Infinity"`, `"-Infinity"` or a numeric string. */
export function readDouble(json: JsonValue, float32?: boolean): number {
  let value: number;
  if (typeof json === "number") {
    if (!Number.isFinite(json)) return fallback();
    value = json;
  } else if (typeof json === "string") {
    if (json === "NaN") return Number.NaN;
    if (json === "Infinity") return Number.POSITIVE_INFINITY;
    if (json === "-Infinity") return Number.NEGATIVE_INFINITY;
    if (json === "" || json.trim().length !== json.length) return fallback();
    value = Number(json);
    if (!Number.isFinite(value)) return fallback();
  } else return fallback();
  return float32 && !Number.isFinite(Math.fround(value)) ? fallback() : value;
}

/** A signed 64-bit integer as protobuf-es holds it (`bigint`, or a string with `jstype = JS_STRING`). */
export function readInt64(json: JsonValue): bigint {
  if (typeof json === "number" || (typeof json === "string" && json.length > 0)) return protoInt64.parse(json) as bigint;
  return fallback();
}

export function readUint64(json: JsonValue): bigint {
  if (typeof json === "number" || (typeof json === "string" && json.length > 0)) return protoInt64.uParse(json) as bigint;
  return fallback();
}

/** A signed 64-bit integer with `jstype = JS_STRING`: checked as `readInt64` does, kept as JSON gave it. */
export function readInt64String(json: JsonValue): string {
  readInt64(json);
  return String(json);
}

export function readUint64String(json: JsonValue): string {
  readUint64(json);
  return String(json);
}

/** A map key of a `bool` map: `"true"` or `"false"`. */
export function mapKeyBool(key: string): string {
  return key === "true" || key === "false" ? key : fallback();
}

/** A map key of a 32-bit integer map, as the record holds it (`"01"` is `"1"`). */
export function mapKeyInt32(key: string): string {
  return String(readInt32(key));
}

export function mapKeyUint32(key: string): string {
  return String(readUint32(key));
}

const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]*)$/;

/** A map key of a 64-bit integer map, in canonical form (others, such as `"01"`, are left to reflection). */
export function mapKeyInt64(key: string): string {
  if (!CANONICAL_INTEGER.test(key)) return fallback();
  protoInt64.parse(key);
  return key;
}

export function mapKeyUint64(key: string): string {
  if (!CANONICAL_INTEGER.test(key)) return fallback();
  protoInt64.uParse(key);
  return key;
}

/** A value of a well-known type read at nesting depth `depth`, which protobuf-es counts as a message. */
export function leaf<T>(depth: number, value: T): T {
  return depth > MAX_DEPTH ? fallback() : value;
}

/**
 * Node's native base64 (`Buffer`), where there is one: its decoder skips characters outside the
 * alphabet where protobuf-es's refuses them, so it only gets strings of one alphabet alone.
 */
const NodeBuffer = (
  globalThis as {
    Buffer?: {
      from(
        data: string | ArrayBufferLike,
        encodingOrOffset?: string | number,
        length?: number,
      ): Uint8Array & { toString(encoding: string): string };
    };
  }
).Buffer;
/** Standard base64 in groups of four (with `json.length % 4 === 0`): padding only at the end. */
const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_BASE64 = /^[A-Za-z0-9_-]*$/;

/** `bytes`: base64, standard or URL-safe alphabet, padded or not (protobuf-es's `base64Decode`). */
export function readBytes(json: JsonValue): Uint8Array {
  if (typeof json !== "string") return fallback();
  if (json === "") return new Uint8Array(0);
  if (
    NodeBuffer !== undefined &&
    ((json.length % 4 === 0 && STANDARD_BASE64.test(json)) || (json.length % 4 !== 1 && URL_BASE64.test(json)))
  ) {
    const bytes = NodeBuffer.from(json, "base64");
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  }
  return base64Decode(json);
}

/** `bytes` in JSON: standard base64 with padding, as protobuf-es's `base64Encode` writes it. */
export function bytesJson(bytes: Uint8Array): string {
  if (NodeBuffer === undefined) return base64Encode(bytes);
  return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
}

/** An enum value: its name (from `numbers`), or a number the enum accepts (`known`: a closed enum's values). */
export function readEnum(json: JsonValue, numbers: ReadonlyMap<string, number>, known?: ReadonlySet<number>): number {
  if (typeof json === "string") return numbers.get(json) ?? fallback();
  if (typeof json !== "number" || !Number.isInteger(json)) return fallback();
  if (known !== undefined) return known.has(json) ? json : fallback();
  return json <= 0x7fffffff && json >= -0x80000000 ? json : fallback();
}

/** A JSON object's value, for maps and messages. */
export function readObject(json: JsonValue): JsonObject {
  return typeof json === "object" && json !== null && !Array.isArray(json) ? json : fallback();
}

export function readArray(json: JsonValue): JsonValue[] {
  return Array.isArray(json) ? json : fallback();
}

/** A `double`/`float` in JSON: a number, or the string of a value JSON has no number for. */
export function doubleJson(value: number): JsonValue {
  if (Number.isFinite(value)) return value;
  return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
}

/** Whether a map (a record) has an entry. */
export function hasEntries(record: object): boolean {
  for (const _ in record) return true;
  return false;
}

const TIMESTAMP_MS_MIN = Date.parse("0001-01-01T00:00:00Z");
const TIMESTAMP_MS_MAX = Date.parse("9999-12-31T23:59:59Z");
const DURATION_SECONDS_MAX = 315576000000;

/** "00" to "99". */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => (n < 10 ? `0${n}` : String(n)));

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/**
 * `google.protobuf.Timestamp` in RFC 3339, as protobuf-es writes it (`Date#toISOString`, with 0, 3,
 * 6 or 9 digits of fraction), computed without a `Date`; out of range is left to reflection (its error).
 */
export function timestampJson(value: Timestamp): string {
  const seconds = Number(value.seconds);
  const nanos = value.nanos;
  if (seconds * 1000 < TIMESTAMP_MS_MIN || seconds * 1000 > TIMESTAMP_MS_MAX || nanos < 0 || nanos > 999999999) return fallback();
  const days = Math.floor(seconds / 86400);
  const clock = seconds - days * 86400;
  // H. Hinnant's `civil_from_days`.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(clock / 3600);
  const minute = Math.floor((clock % 3600) / 60);
  let text = `${TWO_DIGITS[Math.floor(year / 100)]}${TWO_DIGITS[year % 100]}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hour]}:${TWO_DIGITS[minute]}:${TWO_DIGITS[clock % 60]}`;
  if (nanos > 0) {
    const digits = String(nanos + 1000000000).substring(1);
    text += `.${digits.endsWith("000000") ? digits.substring(0, 3) : digits.endsWith("000") ? digits.substring(0, 6) : digits}`;
  }
  return `${text}Z`;
}

/** The number of `text`'s two decimal digits at `at`, or -1. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48;
  const ones = text.charCodeAt(at + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
}

const DAYS_IN_MONTH = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A `google.protobuf.Timestamp` from RFC 3339 (`2026-01-02T03:04:05.123Z`, or with an offset), read
 * field by field. protobuf-es reads it with a pattern and `Date.parse`; anything outside plain
 * calendar values (`24:00:00`, 30 February, which `Date.parse` rolls over) is left to it.
 */
export function readTimestamp(json: JsonValue): Timestamp {
  if (typeof json !== "string" || json.length < 20) return fallback();
  const century = twoDigits(json, 0);
  const yy = twoDigits(json, 2);
  const month = twoDigits(json, 5);
  const day = twoDigits(json, 8);
  const hour = twoDigits(json, 11);
  const minute = twoDigits(json, 14);
  const second = twoDigits(json, 17);
  if (
    century < 0 ||
    yy < 0 ||
    json.charCodeAt(4) !== 0x2d ||
    json.charCodeAt(7) !== 0x2d ||
    json.charCodeAt(10) !== 0x54 ||
    json.charCodeAt(13) !== 0x3a ||
    json.charCodeAt(16) !== 0x3a ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > DAYS_IN_MONTH[month]! ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59
  )
    return fallback();
  const year = century * 100 + yy;
  if (month === 2 && day === 29 && (year % 4 !== 0 || (year % 100 === 0 && year % 400 !== 0))) return fallback();
  let at = 19;
  let nanos = 0;
  if (json.charCodeAt(at) === 0x2e) {
    const start = ++at;
    while (at < json.length && at - start < 9) {
      const digit = json.charCodeAt(at) - 48;
      if (digit < 0 || digit > 9) break;
      nanos = nanos * 10 + digit;
      at++;
    }
    if (at === start) return fallback();
    for (let k = at - start; k < 9; k++) nanos *= 10;
  }
  let offset = 0;
  if (json.charCodeAt(at) === 0x5a) at++;
  else {
    const sign = json.charCodeAt(at);
    const hours = twoDigits(json, at + 1);
    const minutes = twoDigits(json, at + 4);
    if ((sign !== 0x2b && sign !== 0x2d) || json.charCodeAt(at + 3) !== 0x3a || hours < 0 || hours > 23 || minutes < 0 || minutes > 59)
      return fallback();
    offset = (sign === 0x2b ? 1 : -1) * (hours * 3600 + minutes * 60);
    at += 6;
  }
  if (at !== json.length) return fallback();
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  if (seconds * 1000 < TIMESTAMP_MS_MIN || seconds * 1000 > TIMESTAMP_MS_MAX) return fallback();
  return { $typeName: "google.protobuf.Timestamp", seconds: protoInt64.parse(seconds) as bigint, nanos };
}

/** `google.protobuf.Duration` as `"1.5s"`, as protobuf-es writes it; out of range is left to reflection. */
export function durationJson(value: Duration): string {
  const seconds = Number(value.seconds);
  const nanos = value.nanos;
  if (seconds > DURATION_SECONDS_MAX || seconds < -DURATION_SECONDS_MAX || (seconds > 0 && nanos < 0) || (seconds < 0 && nanos > 0))
    return fallback();
  let text = value.seconds.toString();
  if (nanos !== 0) {
    let digits = Math.abs(nanos).toString();
    digits = "0".repeat(9 - digits.length) + digits;
    if (digits.endsWith("000000")) digits = digits.substring(0, 3);
    else if (digits.endsWith("000")) digits = digits.substring(0, 6);
    text += `.${digits}`;
    if (nanos < 0 && seconds === 0) text = `-${text}`;
  }
  return `${text}s`;
}

export function readDuration(json: JsonValue): Duration {
  if (typeof json !== "string") return fallback();
  const match = /^(-?[0-9]+)(?:\.([0-9]+))?s/.exec(json);
  if (match === null) return fallback();
  const seconds = Number(match[1]);
  if (seconds > DURATION_SECONDS_MAX || seconds < -DURATION_SECONDS_MAX) return fallback();
  const duration: Duration = { $typeName: "google.protobuf.Duration", seconds: protoInt64.parse(seconds) as bigint, nanos: 0 };
  const fraction = match[2];
  if (fraction !== undefined) {
    const nanos = Number.parseInt(fraction + "0".repeat(9 - fraction.length));
    duration.nanos = seconds < 0 || Object.is(seconds, -0) ? -nanos : nanos;
  }
  return duration;
}

/**
 * A message the codecs leave to reflection inside one they handle (`Struct`, `Value`, `FieldMask`,
 * `Any`…): its JSON, with the registry for `Any`.
 */
export function writeReflected(schema: DescMessage, message: Message, registry: Registry | undefined): JsonValue {
  return toJson(schema, message, registry === undefined ? undefined : { registry });
}

/** A message read by reflection at nesting depth `depth`: the depth limit counts from the top message. */
export function readReflected<T extends Message>(schema: GenMessage<T>, json: JsonValue, depth: number): T {
  if (depth > MAX_DEPTH) return fallback();
  return fromJson(schema, json, { recursionLimit: MAX_DEPTH - depth + 1 });
}
