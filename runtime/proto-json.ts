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
import { base64Decode, getTextEncoding } from "@bufbuild/protobuf/wire";

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
      let json: JsonValue;
      try {
        json = JSON.parse(text) as JsonValue;
      } catch {
        return fromJsonString(schema, text, options);
      }
      // protobuf-es refuses a key given twice in one object, which JSON.parse lets through.
      if (hasDuplicateKeys(text)) return fromJsonString(schema, text, options);
      return codec.fromJson(json, options);
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

/**
 * Whether an object in the JSON text has a key twice (protobuf-es's `checkDuplicateKeys`, which
 * `fromJsonString` runs): keys are compared as written, so an escaped duplicate is left to
 * reflection's own check, which decodes escapes.
 */
export function hasDuplicateKeys(text: string): boolean {
  const stack: (Set<string> | null)[] = [];
  let keys: Set<string> | null = null;
  let expectKey = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const open = i + 1;
      let escaped = false;
      i = open;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) return false;
        let slashes = 0;
        for (let k = quote - 1; k >= open && text.charCodeAt(k) === 0x5c; k--) slashes++;
        if (slashes > 0) escaped = true;
        i = quote + 1;
        if (slashes % 2 === 0) break;
      }
      i--;
      if (expectKey && keys !== null) {
        if (escaped) return true;
        const key = text.slice(open, i);
        if (keys.has(key)) return true;
        keys.add(key);
      }
      expectKey = false;
    } else if (c === 0x7b /* { */) {
      stack.push(keys);
      keys = new Set();
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push(keys);
      keys = null;
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      keys = stack.pop() ?? null;
      expectKey = false;
    } else if (c === 0x2c /* , */) expectKey = keys !== null;
    else if (c === 0x3a /* : */) expectKey = false;
  }
  return false;
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

/** `bytes`: base64, standard or URL-safe alphabet, padded or not (protobuf-es's `base64Decode`). */
export function readBytes(json: JsonValue): Uint8Array {
  if (typeof json !== "string") return fallback();
  return json === "" ? new Uint8Array(0) : base64Decode(json);
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
const TIMESTAMP_PATTERN =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(?:Z|([+-][0-9][0-9]:[0-9][0-9]))$/;

/** `google.protobuf.Timestamp` in RFC 3339, as protobuf-es writes it; out of range is left to reflection (its error). */
export function timestampJson(value: Timestamp): string {
  const ms = Number(value.seconds) * 1000;
  const nanos = value.nanos;
  if (ms < TIMESTAMP_MS_MIN || ms > TIMESTAMP_MS_MAX || nanos < 0 || nanos > 999999999) return fallback();
  let z = "Z";
  if (nanos > 0) {
    const digits = (nanos + 1000000000).toString().substring(1);
    z = `.${digits.endsWith("000000") ? digits.substring(0, 3) : digits.endsWith("000") ? digits.substring(0, 6) : digits}Z`;
  }
  return new Date(ms).toISOString().replace(".000Z", z);
}

export function readTimestamp(json: JsonValue): Timestamp {
  if (typeof json !== "string") return fallback();
  const match = TIMESTAMP_PATTERN.exec(json);
  if (match === null) return fallback();
  const ms = Date.parse(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}${match[8] ?? "Z"}`);
  if (Number.isNaN(ms) || ms < TIMESTAMP_MS_MIN || ms > TIMESTAMP_MS_MAX) return fallback();
  const fraction = match[7];
  return {
    $typeName: "google.protobuf.Timestamp",
    seconds: protoInt64.parse(ms / 1000) as bigint,
    nanos: fraction === undefined ? 0 : Number.parseInt(`1${fraction}${"0".repeat(9 - fraction.length)}`) - 1000000000,
  };
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
