/**
 * `[default = ...]` values as protoc writes them to `default_value`: the parser stores a text
 * (integers in decimal, floats through `SimpleDtoa`, bytes C-escaped), the descriptor builder
 * parses it back and `FieldDescriptor::CopyTo` prints it again (`SimpleFtoa` for float fields).
 * These are ports of protobuf's io/strtod.cc printing and absl::CEscape.
 */
import { FieldDescriptorProto_Type } from '@bufbuild/protobuf/wkt';

/** C's `printf("%.*g", precision, value)` for a finite value. */
function formatG(value: number, precision: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponentText] = value.toExponential(precision - 1).split('e') as [string, string];
  const exponent = Number(exponentText);
  const trim = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exponent < -4 || exponent >= precision) {
    const digits = Math.abs(exponent);
    return `${trim(mantissa)}e${exponent < 0 ? '-' : '+'}${digits < 10 ? '0' : ''}${digits}`;
  }
  return trim(value.toFixed(precision - 1 - exponent));
}

/** protobuf's SimpleDtoa: 15 significant digits, or 17 when 15 do not read back the same. */
export function simpleDtoa(value: number): string {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (Number.isNaN(value)) return 'nan';
  const short = formatG(value, 15);
  return Number(short) === value ? short : formatG(value, 17);
}

const FLOAT_MIN_NORMAL = 1.1754943508222875e-38;

/** protobuf's SimpleFtoa: 6 significant digits, or 9 when 6 do not read back as the same float. */
export function simpleFtoa(value: number): string {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (Number.isNaN(value)) return 'nan';
  const short = formatG(value, 6);
  // strtof reports ERANGE for subnormal results, which makes protobuf take the long form.
  const subnormal = value !== 0 && Math.abs(value) < FLOAT_MIN_NORMAL;
  return !subnormal && Math.fround(Number(short)) === value ? short : formatG(value, 9);
}

const FLOAT_MAX = 3.4028234663852886e38;
const FLOAT_MAX_ROUNDED = 3.4028235677973366e38;

/** protobuf's SafeDoubleToFloat: out-of-range values become ±FLT_MAX or ±inf, never undefined. */
function safeDoubleToFloat(value: number): number {
  if (value > FLOAT_MAX) return value <= FLOAT_MAX_ROUNDED ? FLOAT_MAX : Infinity;
  if (value < -FLOAT_MAX) return value >= -FLOAT_MAX_ROUNDED ? -FLOAT_MAX : -Infinity;
  return Math.fround(value);
}

/** The number a default text stands for, as the descriptor builder reads it (strtod + inf/nan). */
function parseFloating(text: string): number {
  const unsigned = text.replace(/^-/, '');
  if (unsigned === 'inf') return text.startsWith('-') ? -Infinity : Infinity;
  if (unsigned === 'nan') return NaN;
  return Number(text);
}

/** absl::CEscape: C escapes for quotes, backslash and \n \r \t; other non-printable bytes in octal. */
export function cEscape(bytes: Iterable<number>): string {
  let out = '';
  for (const b of bytes) {
    if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b === 0x22) out += '\\"';
    else if (b === 0x27) out += "\\'";
    else if (b === 0x5c) out += '\\\\';
    else if (b < 0x20 || b > 0x7e) out += '\\' + b.toString(8).padStart(3, '0');
    else out += String.fromCharCode(b);
  }
  return out;
}

/**
 * The `default_value` protoc writes for a field of a scalar `type` whose parsed default text is
 * `text` (enum defaults stay the value's name, strings and bytes are already in final form).
 */
export function canonicalDefault(type: FieldDescriptorProto_Type, text: string): string {
  switch (type) {
    case FieldDescriptorProto_Type.FLOAT:
      return simpleFtoa(safeDoubleToFloat(parseFloating(text)));
    case FieldDescriptorProto_Type.DOUBLE:
      return simpleDtoa(parseFloating(text));
    case FieldDescriptorProto_Type.INT32:
    case FieldDescriptorProto_Type.INT64:
    case FieldDescriptorProto_Type.SINT32:
    case FieldDescriptorProto_Type.SINT64:
    case FieldDescriptorProto_Type.SFIXED32:
    case FieldDescriptorProto_Type.SFIXED64:
    case FieldDescriptorProto_Type.UINT32:
    case FieldDescriptorProto_Type.UINT64:
    case FieldDescriptorProto_Type.FIXED32:
    case FieldDescriptorProto_Type.FIXED64:
      return /^-?\d+$/.test(text) ? BigInt(text).toString() : text;
    default:
      return text;
  }
}
