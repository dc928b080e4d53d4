/**
 * Hostile protobuf input: messages nested `levels` deep, built in one pass (lengths worked out from
 * the innermost message outwards), so 100k levels cost a few hundred KB and no quadratic copying.
 */

/**
 * `levels` length-delimited fields, each inside the one before, the innermost empty. `tagAt(level)`
 * is the one-byte tag of the field at `level` (0 is the outermost, a field of the top-level message).
 */
export function nestedFields(levels: number, tagAt: (level: number) => number): Uint8Array {
  const lengths = new Array<number>(levels);
  let inner = 0;
  for (let level = levels - 1; level >= 0; level--) {
    lengths[level] = inner;
    inner += 1 + varintSize(inner);
  }
  const bytes = new Uint8Array(inner);
  let pos = 0;
  for (let level = 0; level < levels; level++) {
    bytes[pos++] = tagAt(level);
    for (let value = lengths[level]!; ; value >>>= 7) {
      if (value < 0x80) {
        bytes[pos++] = value;
        break;
      }
      bytes[pos++] = (value & 0x7f) | 0x80;
    }
  }
  return bytes;
}

/**
 * `google.protobuf.Value` holding a list holding a value… : the field `tag` (a `Value` field of the
 * top-level message) then `levels - 1` alternating `Value.list_value` (6) and `ListValue.values` (1).
 * The top-level message plus `levels` nested messages.
 */
export function nestedValues(levels: number, tag: number): Uint8Array {
  return nestedFields(levels, (level) => (level === 0 ? tag : level % 2 === 1 ? LIST_VALUE : VALUES));
}

const LIST_VALUE = (6 << 3) | 2;
const VALUES = (1 << 3) | 2;

function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value >>>= 7;
    size++;
  }
  return size;
}
