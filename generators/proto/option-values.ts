/**
 * Option values as protoc holds them once interpreted: one message value per options message, its
 * fields (builtin and extensions) keyed by number, values in the order given. Encoding follows
 * what protoc writes — it re-parses every options message with all extensions known and serializes
 * it again — so fields come out by number, message options given in pieces are merged, repeated
 * scalars are packed where the field is packed, and implicit-presence zeros are dropped.
 */
import { ScalarType } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { OptionField, OptionMessageType } from './option-types.js';

/** Text format's `-nan` for a float or double: protoc writes the NaN with its sign bit set. */
export const NEGATIVE_NAN = Object.freeze({ negativeNaN: true as const });

export type ScalarValue = number | bigint | boolean | string | Uint8Array | typeof NEGATIVE_NAN;
export type FieldValue = ScalarValue | MessageValue;

/** A string value as protoc keeps it: text when it is UTF-8, else its bytes (or why it may not be). */
export function stringOf(bytes: Uint8Array | number[], field: OptionField): string | Uint8Array | { error: string } {
  const raw = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    if (field.utf8) return { error: `string field "${field.name}" is not valid UTF-8` };
    return raw;
  }
}

export class MessageValue {
  readonly fields = new Map<number, { field: OptionField; values: FieldValue[] }>();

  constructor(readonly type: OptionMessageType) {}

  has(field: OptionField): boolean {
    return this.fields.has(field.number);
  }

  add(field: OptionField, value: FieldValue): void {
    const entry = this.fields.get(field.number);
    if (entry) entry.values.push(value);
    else this.fields.set(field.number, { field, values: [value] });
  }

  /** The value of a singular message field, created empty when absent (a sub-field path's step). */
  child(field: OptionField): MessageValue {
    const existing = this.fields.get(field.number)?.values[0];
    if (existing instanceof MessageValue) return existing;
    const created = new MessageValue(field.message());
    this.add(field, created);
    return created;
  }

  encode(): Uint8Array {
    const writer = new BinaryWriter();
    writeMessage(writer, this);
    return writer.finish();
  }
}

function wireType(type: ScalarType): WireType {
  switch (type) {
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
    case ScalarType.FLOAT:
      return WireType.Bit32;
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
    case ScalarType.DOUBLE:
      return WireType.Bit64;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WireType.LengthDelimited;
    default:
      return WireType.Varint;
  }
}

function writeScalar(w: BinaryWriter, type: ScalarType, value: ScalarValue): void {
  switch (type) {
    case ScalarType.INT32:
      w.int32(value as number);
      break;
    case ScalarType.SINT32:
      w.sint32(value as number);
      break;
    case ScalarType.UINT32:
      w.uint32(value as number);
      break;
    case ScalarType.INT64:
      w.int64(value as bigint);
      break;
    case ScalarType.SINT64:
      w.sint64(value as bigint);
      break;
    case ScalarType.UINT64:
      w.uint64(value as bigint);
      break;
    case ScalarType.BOOL:
      w.bool(value as boolean);
      break;
    case ScalarType.FIXED32:
      w.fixed32(value as number);
      break;
    case ScalarType.SFIXED32:
      w.sfixed32(value as number);
      break;
    // A double out of float range becomes +-Infinity, as C++'s static_cast<float> makes it.
    case ScalarType.FLOAT:
      if (value === NEGATIVE_NAN) w.fixed32(0xffc00000);
      else w.float(Math.fround(value as number));
      break;
    case ScalarType.FIXED64:
      w.fixed64(value as bigint);
      break;
    case ScalarType.SFIXED64:
      w.sfixed64(value as bigint);
      break;
    case ScalarType.DOUBLE:
      if (value === NEGATIVE_NAN) w.fixed64(0xfff8000000000000n);
      else w.double(value as number);
      break;
    // A proto2 string may hold bytes that are not UTF-8; protoc writes them as they are.
    case ScalarType.STRING:
      if (value instanceof Uint8Array) w.bytes(value);
      else w.string(value as string);
      break;
    case ScalarType.BYTES:
      w.bytes(value as Uint8Array);
      break;
  }
}

/** A proto3 zero, which an implicit-presence field does not write (-0.0 is written, as in C++). */
function isZero(value: ScalarValue): boolean {
  if (typeof value === 'number') return Object.is(value, 0);
  if (typeof value === 'bigint') return value === 0n;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string' || value instanceof Uint8Array) return value.length === 0;
  return false;
}

function writeMessage(w: BinaryWriter, message: MessageValue): void {
  const numbers = [...message.fields.keys()].sort((a, b) => a - b);
  // Map entries are written whole, zero key and value included, as protoc writes them.
  const whole = message.type.proto.options?.mapEntry === true;
  for (const number of numbers) {
    const { field, values } = message.fields.get(number)!;
    if (field.kind === 'message') {
      for (const value of values) {
        if (field.delimited) {
          w.tag(number, WireType.StartGroup);
          writeMessage(w, value as MessageValue);
          w.tag(number, WireType.EndGroup);
        } else {
          w.tag(number, WireType.LengthDelimited).fork();
          writeMessage(w, value as MessageValue);
          w.join();
        }
      }
    } else if (field.packed) {
      w.tag(number, WireType.LengthDelimited).fork();
      for (const value of values) writeScalar(w, field.scalar, value as ScalarValue);
      w.join();
    } else {
      for (const value of values) {
        if (field.implicit && !whole && isZero(value as ScalarValue)) continue;
        w.tag(number, wireType(field.scalar));
        writeScalar(w, field.scalar, value as ScalarValue);
      }
    }
  }
}
