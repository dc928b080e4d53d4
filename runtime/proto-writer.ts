/**
 * The binary writer of the generated codecs: @bufbuild/protobuf's `BinaryWriter` API (the methods
 * the codecs call, with its checks and bytes), writing straight into the block its result is a view
 * of. `BinaryWriter#finish` copies the message out of the writer's buffer; here small messages are
 * written into a shared 8 KiB block, as Node's `Buffer.allocUnsafe` pools them, and `finish` hands
 * out the written range as it is. A message that outgrows the block moves (once per doubling) into
 * a buffer of its own. A nested message's length is written after its body: one byte is reserved,
 * and a body of 128 bytes or more is moved along to make room (`copyWithin`), as `BinaryWriter` does.
 */
import { protoInt64 } from "@bufbuild/protobuf";

/**
 * Node's native `Buffer#utf8Write`, which works on any `Uint8Array` and, like `TextEncoder`, writes
 * U+FFFD for a lone surrogate; else `TextEncoder#encodeInto`.
 */
const utf8Write = (
  globalThis as { Buffer?: { prototype: { utf8Write?: (this: Uint8Array, text: string, offset: number, length: number) => number } } }
).Buffer?.prototype.utf8Write;
const encoder = new TextEncoder();
/** Strings up to this many UTF-16 units are tried as ASCII byte by byte first. */
const ASCII_MAX = 32;

/** The shared block small messages are written into, and how big a message may grow in it. */
const BLOCK_SIZE = 8 * 1024;

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
const UINT32_MAX = 0xffffffff;
const FLOAT32_MAX = 3.4028234663852886e38;

export class ProtoWriter {
  private buf = new Uint8Array(BLOCK_SIZE);
  /** Where the message being written starts in `buf`. */
  private start = 0;
  pos = 0;
  /** Positions of the reserved length bytes of the forks not yet joined. */
  private readonly forks: number[] = [];
  private view: DataView | undefined;

  /** The message written since the last `finish`: a view of the block, not a copy. */
  finish(): Uint8Array {
    const bytes = this.buf.subarray(this.start, this.pos);
    this.forks.length = 0;
    if (this.buf.length > BLOCK_SIZE) {
      // The message outgrew the block and now owns its buffer; the next one starts a new block.
      this.buf = new Uint8Array(BLOCK_SIZE);
      this.view = undefined;
      this.pos = 0;
    } else this.pos = (this.pos + 7) & ~7; // 8-byte aligned, as Node aligns its pool
    this.start = this.pos;
    return bytes;
  }

  /** Drops what was written since the last `finish` (after an error). */
  discard(): void {
    this.forks.length = 0;
    this.pos = this.start;
  }

  /** Starts a length-delimited value (a nested message, a packed list, a map entry); `join` ends it. */
  fork(): this {
    this.reserve(1);
    this.forks.push(this.pos);
    this.buf[this.pos++] = 0;
    return this;
  }

  /** Writes the length of the last fork's value before it. */
  join(): this {
    const length = this.pos - this.forks[this.forks.length - 1]! - 1;
    if (length < 0x80) {
      this.buf[this.forks.pop()!] = length;
      return this;
    }
    const prefix = varint32Size(length);
    this.reserve(prefix - 1); // may move the message: the fork's position is read after
    const at = this.forks.pop()!;
    const buf = this.buf;
    buf.copyWithin(at + prefix, at + 1, this.pos);
    this.pos = at;
    this.varint32(length);
    this.pos += length;
    return this;
  }

  uint32(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) throw new Error(`invalid uint32: ${value}`);
    this.reserve(5);
    return this.varint32(value);
  }

  int32(value: number): this {
    checkInt32(value);
    if (value >= 0) {
      this.reserve(5);
      return this.varint32(value);
    }
    // Negative: sign-extended to 64 bits, 10 bytes.
    this.reserve(10);
    const buf = this.buf;
    for (let i = 0; i < 9; i++) {
      buf[this.pos++] = (value & 0x7f) | 0x80;
      value >>= 7;
    }
    buf[this.pos++] = 1;
    return this;
  }

  sint32(value: number): this {
    checkInt32(value);
    this.reserve(5);
    return this.varint32(((value << 1) ^ (value >> 31)) >>> 0);
  }

  bool(value: boolean): this {
    this.reserve(1);
    this.buf[this.pos++] = value ? 1 : 0;
    return this;
  }

  int64(value: bigint | string): this {
    if (typeof value === "bigint" && value >= 0n && value <= 0x7fffffffn) {
      this.reserve(5);
      return this.varint32(Number(value));
    }
    const { lo, hi } = protoInt64.enc(value);
    return this.varint64(lo, hi);
  }

  uint64(value: bigint | string): this {
    if (typeof value === "bigint" && value >= 0n && value <= 0x7fffffffn) {
      this.reserve(5);
      return this.varint32(Number(value));
    }
    const { lo, hi } = protoInt64.uEnc(value);
    return this.varint64(lo, hi);
  }

  sint64(value: bigint | string): this {
    const { lo, hi } = protoInt64.enc(value);
    const sign = hi >> 31;
    return this.varint64((lo << 1) ^ sign, ((hi << 1) | (lo >>> 31)) ^ sign);
  }

  fixed32(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) throw new Error(`invalid uint32: ${value}`);
    this.reserve(4);
    this.dataView().setUint32(this.pos, value, true);
    this.pos += 4;
    return this;
  }

  sfixed32(value: number): this {
    checkInt32(value);
    this.reserve(4);
    this.dataView().setInt32(this.pos, value, true);
    this.pos += 4;
    return this;
  }

  fixed64(value: bigint | string): this {
    const { lo, hi } = protoInt64.uEnc(value);
    return this.fixed(lo, hi);
  }

  sfixed64(value: bigint | string): this {
    const { lo, hi } = protoInt64.enc(value);
    return this.fixed(lo, hi);
  }

  float(value: number): this {
    if (typeof value !== "number") throw new Error(`invalid float32: ${typeof value}`);
    if (Number.isFinite(value) && (value > FLOAT32_MAX || value < -FLOAT32_MAX)) throw new Error(`invalid float32: ${value}`);
    this.reserve(4);
    this.dataView().setFloat32(this.pos, value, true);
    this.pos += 4;
    return this;
  }

  double(value: number): this {
    this.reserve(8);
    this.dataView().setFloat64(this.pos, value, true);
    this.pos += 8;
    return this;
  }

  bytes(value: Uint8Array): this {
    this.reserve(5 + value.length);
    this.varint32(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  raw(value: Uint8Array): this {
    this.reserve(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  string(value: string): this {
    const units = value.length;
    // At most 3 bytes per UTF-16 unit, after a length of at most 5.
    this.reserve(5 + units * 3);
    const buf = this.buf;
    if (units <= ASCII_MAX) {
      let pos = this.pos + 1;
      let i = 0;
      for (; i < units; i++) {
        const code = value.charCodeAt(i);
        if (code > 0x7f) break;
        buf[pos++] = code;
      }
      if (i === units) {
        buf[this.pos] = units;
        this.pos = pos;
        return this;
      }
    }
    // The length goes first but is known only after encoding: guess it from the units, move the text if it was longer.
    const guess = varint32Size(units);
    const at = this.pos + guess;
    const written =
      utf8Write !== undefined ? utf8Write.call(buf, value, at, buf.length - at) : encoder.encodeInto(value, buf.subarray(at)).written;
    const prefix = varint32Size(written);
    if (prefix !== guess) buf.copyWithin(this.pos + prefix, at, at + written);
    this.varint32(written);
    this.pos += written;
    return this;
  }

  /** Makes room for `count` more bytes: a message outgrowing its block moves into a buffer of its own. */
  private reserve(count: number): void {
    if (this.pos + count <= this.buf.length) return;
    const used = this.pos - this.start;
    // A small message at the end of its block moves to a new block; a large one to a buffer of its own.
    let size = BLOCK_SIZE;
    while (size < used + count) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(this.start, this.pos));
    for (let i = 0; i < this.forks.length; i++) this.forks[i]! -= this.start;
    this.buf = grown;
    this.view = undefined;
    this.start = 0;
    this.pos = used;
  }

  /** A varint of a uint32 (room already reserved). */
  private varint32(value: number): this {
    const buf = this.buf;
    while (value > 0x7f) {
      buf[this.pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[this.pos++] = value;
    return this;
  }

  private varint64(lo: number, hi: number): this {
    this.reserve(10);
    const buf = this.buf;
    while (hi !== 0 || lo >>> 0 > 0x7f) {
      buf[this.pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[this.pos++] = lo;
    return this;
  }

  private fixed(lo: number, hi: number): this {
    this.reserve(8);
    const view = this.dataView();
    view.setInt32(this.pos, lo, true);
    view.setInt32(this.pos + 4, hi, true);
    this.pos += 8;
    return this;
  }

  private dataView(): DataView {
    this.view ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    return this.view;
  }
}

function varint32Size(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

function checkInt32(value: number): void {
  if (!Number.isInteger(value) || value > INT32_MAX || value < INT32_MIN) throw new Error(`invalid int32: ${value}`);
}
