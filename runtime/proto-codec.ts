/**
 * What the generated binary codecs (`<file>_codec.ts`) share: one reused `ProtoWriter`, unknown
 * fields kept on decode and written back on encode (as protobuf-es keeps them, in `$unknown`), the
 * reflection fallback for messages a codec does not handle itself, and the registry the gRPC
 * server's own HTTP/2 path looks codecs up in. The wire format is read by `ProtoReader`
 * (proto-reader.ts) and written by `ProtoWriter` (proto-writer.ts): `BinaryReader`'s and
 * `BinaryWriter`'s APIs, made cheaper for small messages; the codecs replace reflection's per-field
 * dispatch by straight-line code per message.
 */
import { fromBinary, mergeFromBinary, toBinary, type DescMessage, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { Struct, Value } from "@bufbuild/protobuf/wkt";
import type { ProtoReader } from "./proto-reader.js";
import { ProtoWriter } from "./proto-writer.js";

/** A message type's binary encoding: `toBinary`/`fromBinary` with the same results. */
export interface MessageCodec<T extends Message = Message> {
  readonly schema: GenMessage<T>;
  encode(message: T): Uint8Array;
  decode(bytes: Uint8Array): T;
}

/** Encoding is synchronous and never re-entered, so one writer serves every call. */
const shared = new ProtoWriter();
let busy = false;

/** The bytes `write` produces for `message`, written through the shared writer. */
export function encodeWith<T>(write: (writer: ProtoWriter, message: T) => void, message: T): Uint8Array {
  const writer = busy ? new ProtoWriter() : shared;
  busy = true;
  try {
    write(writer, message);
    return writer.finish();
  } catch (error) {
    writer.discard();
    throw error;
  } finally {
    if (writer === shared) busy = false;
  }
}

/** The end of the length-delimited value at the reader's position (its length is read). */
export function delimitedEnd(reader: ProtoReader): number {
  const end = reader.uint32() + reader.pos;
  if (end > reader.len) throw new RangeError("premature EOF");
  return end;
}

/** Checks that a message's fields ended exactly where its length said. */
export function checkEnd(reader: ProtoReader, end: number): void {
  if (reader.pos !== end) throw new RangeError("premature EOF");
}

/**
 * A field the codec has no case for, whose tag started at `start`: validated and skipped as
 * `fromBinary` does, and kept in `$unknown` (extensions among them, as protobuf-es stores them).
 */
export function readUnknown(reader: ProtoReader, message: Message, start: number): void {
  reader.pos = start;
  const [no, wireType] = reader.tag();
  const data = reader.skip(wireType, no);
  (message.$unknown ??= []).push({ no, wireType, data });
}

/** Skips a field of a map entry other than its key and value, as `fromBinary` does. */
export function skipField(reader: ProtoReader, start: number): void {
  reader.pos = start;
  const [no, wireType] = reader.tag();
  reader.skip(wireType, no);
}

/** Whether a field with explicit presence is set where defaults sit on the prototype (proto2, editions). */
export function hasValue(message: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(message, key) && (message as Record<string, unknown>)[key] !== undefined;
}

/** `toBinary`'s refusal of a message whose proto2 `required` field is not set. */
export function requiredMissing(field: string): never {
  throw new Error(`cannot encode field ${field} to binary: required field not set`);
}

/** A `google.protobuf.Struct` as protobuf-es holds it in a field: a `JsonObject`. */
export function structToJson(struct: Struct): JsonObject {
  const json: JsonObject = {};
  for (const key of Object.keys(struct.fields)) setOwn(json, key, valueToJson(struct.fields[key]!));
  return json;
}

function valueToJson(value: Value): JsonValue {
  switch (value.kind.case) {
    case "structValue":
      return structToJson(value.kind.value);
    case "listValue":
      return value.kind.value.values.map(valueToJson);
    case "nullValue":
    case undefined:
      return null;
    default:
      return value.kind.value;
  }
}

/** The `google.protobuf.Struct` message of a `JsonObject` field, to encode it. */
export function structFromJson(json: JsonObject): Struct {
  const struct: Struct = { $typeName: "google.protobuf.Struct", fields: {} };
  for (const key of Object.keys(json)) setOwn(struct.fields, key, valueFromJson(json[key]!));
  return struct;
}

function valueFromJson(json: JsonValue): Value {
  const value: Value = { $typeName: "google.protobuf.Value", kind: { case: undefined } };
  if (typeof json === "number") value.kind = { case: "numberValue", value: json };
  else if (typeof json === "string") value.kind = { case: "stringValue", value: json };
  else if (typeof json === "boolean") value.kind = { case: "boolValue", value: json };
  else if (json === null) value.kind = { case: "nullValue", value: 0 };
  else if (Array.isArray(json))
    value.kind = { case: "listValue", value: { $typeName: "google.protobuf.ListValue", values: json.map(valueFromJson) } };
  else value.kind = { case: "structValue", value: structFromJson(json) };
  return value;
}

/** A key set as an own property even when it is `__proto__` (map entries, `Struct` fields). */
export function setOwn(target: object, key: string | number, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string | number, unknown>)[key] = value;
}

/** Writes back the unknown fields a decode kept, after the known ones, as `toBinary` does. */
export function writeUnknown(writer: ProtoWriter, message: Message): void {
  const unknown = message.$unknown;
  if (unknown === undefined) return;
  for (const field of unknown) writer.uint32(((field.no << 3) | field.wireType) >>> 0).raw(field.data);
}

/**
 * A message field's value read by reflection, merged into `into` when the field was already set;
 * its nesting counts against the reader's recursion limit.
 */
export function readReflected<T extends Message>(reader: ProtoReader, schema: GenMessage<T>, into?: T): T {
  const bytes = reader.bytes();
  const options = { recursionLimit: reader.budget() };
  return into === undefined ? fromBinary(schema, bytes, options) : mergeFromBinary(schema, into, bytes, options);
}

const registered = new WeakMap<DescMessage, MessageCodec>();

/** Makes `codecs` the encoding of their message types for `codecOf`. */
export function registerCodecs(
  ...codecs: { readonly schema: DescMessage; encode(message: never): Uint8Array; decode(bytes: Uint8Array): Message }[]
): void {
  // A codec is only ever handed messages of its own schema (codecOf looks it up by schema).
  for (const codec of codecs) registered.set(codec.schema, codec as unknown as MessageCodec);
}

/** The registered codec of `schema`, or protobuf-es's reflection for a type without one. */
export function codecOf(schema: DescMessage): MessageCodec {
  let codec = registered.get(schema);
  if (codec === undefined) {
    codec = {
      schema: schema as GenMessage<Message>,
      encode: (message) => toBinary(schema, message),
      decode: (bytes) => fromBinary(schema, bytes),
    };
    registered.set(schema, codec);
  }
  return codec;
}
