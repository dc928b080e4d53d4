/**
 * The binary reader of the generated codecs: @bufbuild/protobuf's `BinaryReader` API (the methods
 * the codecs call, with its results and errors), made cheap where small messages spend their time:
 * nothing is set up but the position (the `DataView` for fixed-width numbers is made on first use),
 * varints are read inline, and 64-bit integers that fit in 32 bits become `bigint` without a
 * `DataView` round trip. Short strings take an ASCII fast path; others Node's native UTF-8 decoding
 * where there is one, else `TextDecoder` (fatal where the field asks for UTF-8 validation).
 */
import { protoInt64 } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
/** Strings up to this many bytes are tried as ASCII first (longer ones are faster through a decoder). */
const ASCII_MAX = 8;
/**
 * Node's native `Buffer#utf8Slice`, which works on any `Uint8Array` and costs a fraction of
 * `TextDecoder#decode` on short strings; it substitutes U+FFFD for invalid input, so a result
 * containing U+FFFD is decoded again by the fatal decoder where validation is asked for.
 */
const utf8Slice = (globalThis as { Buffer?: { prototype: { utf8Slice?: (this: Uint8Array, start: number, end: number) => string } } })
  .Buffer?.prototype.utf8Slice;

function decodeUtf8(buf: Uint8Array, start: number, end: number, strict: boolean | undefined): string {
  if (utf8Slice === undefined) return (strict ? strictDecoder : lenientDecoder).decode(buf.subarray(start, end));
  const text = utf8Slice.call(buf, start, end);
  return strict && text.includes("\uFFFD") ? strictDecoder.decode(buf.subarray(start, end)) : text;
}

/** How deep messages may nest before decoding fails: protobuf-es's and protobuf C++'s default. */
const RECURSION_LIMIT = 100;

export class ProtoReader {
  pos = 0;
  readonly len: number;
  /** Messages entered and not yet left: the top-level message is depth 1, as in `fromBinary`. */
  depth = 0;
  private view: DataView | undefined;
  /** The last 64-bit varint's low and high 32 bits (signed, as protoInt64 takes them). */
  private lo = 0;
  private hi = 0;

  /**
   * `recursionLimit` bounds how deep messages nest (`fromBinary`'s option of that name): a hostile
   * input of 100k nested messages ends in a decode error instead of exhausting the stack.
   */
  constructor(
    readonly buf: Uint8Array,
    readonly recursionLimit = RECURSION_LIMIT,
  ) {
    this.len = buf.length;
  }

  /** Starts reading a message one level deeper, refused past the recursion limit as `fromBinary` refuses it. */
  enter(): void {
    if (++this.depth > this.recursionLimit) throw new Error(`maximum recursion depth of ${this.recursionLimit} reached`);
  }

  /** Ends reading a message, which must have ended exactly where its length said. */
  leave(end: number): void {
    if (this.pos !== end) throw new RangeError("premature EOF");
    this.depth--;
  }

  /** The nesting still allowed below the current message (for reflection and skipped groups). */
  budget(): number {
    return this.recursionLimit - this.depth;
  }

  /** A varint of up to 32 bits (longer ones are read to their end and truncated, as protobuf does). */
  uint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    let byte = buf[pos++]!;
    let value = byte & 0x7f;
    if (byte >= 0x80) {
      byte = buf[pos++]!;
      value |= (byte & 0x7f) << 7;
      if (byte >= 0x80) {
        byte = buf[pos++]!;
        value |= (byte & 0x7f) << 14;
        if (byte >= 0x80) {
          byte = buf[pos++]!;
          value |= (byte & 0x7f) << 21;
          if (byte >= 0x80) {
            byte = buf[pos++]!;
            value |= (byte & 0x0f) << 28;
            // The rest of a 10-byte varint (negative int32) carries no bits of a 32-bit value.
            for (let extra = 0; byte >= 0x80 && extra < 5; extra++) byte = buf[pos++]!;
            if (byte >= 0x80) throw new Error("invalid varint");
          }
        }
      }
    }
    if (pos > this.len) throw new RangeError("premature EOF");
    this.pos = pos;
    return value >>> 0;
  }

  int32(): number {
    return this.uint32() | 0;
  }

  sint32(): number {
    const value = this.uint32();
    return (value >>> 1) ^ -(value & 1);
  }

  bool(): boolean {
    this.varint64();
    return this.lo !== 0 || this.hi !== 0;
  }

  int64(): bigint | string {
    this.varint64();
    return this.hi === 0 && this.lo >= 0 ? BigInt(this.lo) : protoInt64.dec(this.lo, this.hi);
  }

  uint64(): bigint | string {
    this.varint64();
    return this.hi === 0 && this.lo >= 0 ? BigInt(this.lo) : protoInt64.uDec(this.lo, this.hi);
  }

  sint64(): bigint | string {
    this.varint64();
    let lo = this.lo;
    let hi = this.hi;
    const sign = -(lo & 1);
    lo = ((lo >>> 1) | ((hi & 1) << 31)) ^ sign;
    hi = (hi >>> 1) ^ sign;
    return protoInt64.dec(lo, hi);
  }

  fixed32(): number {
    return this.dataView().getUint32((this.pos = this.advance(4)) - 4, true);
  }

  sfixed32(): number {
    return this.dataView().getInt32((this.pos = this.advance(4)) - 4, true);
  }

  fixed64(): bigint | string {
    const view = this.dataView();
    const at = (this.pos = this.advance(8)) - 8;
    return protoInt64.uDec(view.getInt32(at, true), view.getInt32(at + 4, true));
  }

  sfixed64(): bigint | string {
    const view = this.dataView();
    const at = (this.pos = this.advance(8)) - 8;
    return protoInt64.dec(view.getInt32(at, true), view.getInt32(at + 4, true));
  }

  float(): number {
    return this.dataView().getFloat32((this.pos = this.advance(4)) - 4, true);
  }

  double(): number {
    return this.dataView().getFloat64((this.pos = this.advance(8)) - 8, true);
  }

  /** A length-delimited value, sharing the input's memory (as `BinaryReader.bytes()`). */
  bytes(): Uint8Array {
    const length = this.uint32();
    const start = this.pos;
    this.pos = this.advance(length);
    return this.buf.subarray(start, this.pos);
  }

  /** A string; `strict` refuses invalid UTF-8 instead of substituting U+FFFD. */
  string(strict?: boolean): string {
    const length = this.uint32();
    const start = this.pos;
    const end = (this.pos = this.advance(length));
    const buf = this.buf;
    if (length <= ASCII_MAX) {
      const codes = new Array<number>(length);
      for (let i = 0; i < length; i++) {
        const byte = buf[start + i]!;
        if (byte >= 0x80) return decodeUtf8(buf, start, end, strict);
        codes[i] = byte;
      }
      return String.fromCharCode.apply(String, codes);
    }
    return decodeUtf8(buf, start, end, strict);
  }

  /** A tag as field number and wire type, refused as `BinaryReader.tag()` refuses it. */
  tag(): [number, WireType] {
    const start = this.pos;
    const tag = this.uint32();
    if (this.pos - start > 5 || (this.pos - start === 5 && this.buf[this.pos - 1]! > 0x0f))
      throw new Error("illegal tag: varint overflows uint32");
    const fieldNo = tag >>> 3;
    const wireType = tag & 7;
    if (fieldNo <= 0 || wireType > 5) throw new Error(`illegal tag: field no ${fieldNo} wire type ${wireType}`);
    return [fieldNo, wireType];
  }

  /** Skips one value of `wireType` and returns its bytes (a group up to its end tag, which must match `fieldNo`). */
  skip(wireType: WireType, fieldNo: number, depth = this.budget()): Uint8Array {
    const start = this.pos;
    switch (wireType) {
      case WireType.Varint:
        this.varint64();
        break;
      case WireType.Bit64:
        this.pos = this.advance(8);
        break;
      case WireType.Bit32:
        this.pos = this.advance(4);
        break;
      case WireType.LengthDelimited: {
        const length = this.uint32();
        this.pos = this.advance(length);
        break;
      }
      case WireType.StartGroup:
        if (depth <= 0) throw new Error("maximum recursion depth reached");
        for (;;) {
          const [no, type] = this.tag();
          if (type === WireType.EndGroup) {
            if (no !== fieldNo) throw new Error("invalid end group tag");
            break;
          }
          this.skip(type, no, depth - 1);
        }
        break;
      default:
        throw new Error(`cant skip wire type ${wireType}`);
    }
    return this.buf.subarray(start, this.pos);
  }

  /** The position `count` bytes on, checked against the end. */
  private advance(count: number): number {
    const end = this.pos + count;
    if (end > this.len) throw new RangeError("premature EOF");
    return end;
  }

  private dataView(): DataView {
    this.view ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    return this.view;
  }

  /** Reads a varint of up to 64 bits into `lo` and `hi`. */
  private varint64(): void {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      const byte = buf[pos++]!;
      lo |= (byte & 0x7f) << shift;
      if (byte < 0x80) return this.done(pos, lo, hi);
    }
    const middle = buf[pos++]!;
    lo |= (middle & 0x0f) << 28;
    hi = (middle & 0x70) >> 4;
    if (middle < 0x80) return this.done(pos, lo, hi);
    for (let shift = 3; shift <= 31; shift += 7) {
      const byte = buf[pos++]!;
      hi |= (byte & 0x7f) << shift;
      if (byte < 0x80) return this.done(pos, lo, hi);
    }
    throw new Error("invalid varint");
  }

  private done(pos: number, lo: number, hi: number): void {
    if (pos > this.len) throw new RangeError("premature EOF");
    this.pos = pos;
    this.lo = lo;
    this.hi = hi;
  }
}
