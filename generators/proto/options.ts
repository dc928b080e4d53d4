/**
 * Option interpretation, after protoc's OptionInterpreter: each `name = value` the parser kept is
 * set on its options message (FileOptions, FieldOptions...), and its `source_code_info` location
 * moves from the uninterpreted path (..., 999, i) to the option's field path, as protoc rewrites it.
 *
 * Supported: every scalar and enum standard option (`deprecated`, `packed`, `go_package`,
 * `allow_alias`, ...) and custom options `(pkg.name) = value` whose extension is a scalar or enum.
 * Message-typed options (aggregate `{ ... }` values, `(foo).bar` paths, `features`) stop with an
 * error saying so: protoc encodes them through its text-format parser, which this loader lacks.
 */
import { ScalarType } from '@bufbuild/protobuf';
import type { DescField, Message } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type } from '@bufbuild/protobuf/wkt';
import type { FieldDescriptorProto, SourceCodeInfo_Location } from '@bufbuild/protobuf/wkt';
import { OPTIONS_SCHEMA } from './parse.js';
import type { OptionsKind, OptionValue, PendingOption } from './parse.js';
import { editDistance } from './resolve.js';
import type { Linker, LinkFile } from './resolve.js';

const OPTIONS_MESSAGE: Record<OptionsKind, string> = {
  file: 'google.protobuf.FileOptions',
  message: 'google.protobuf.MessageOptions',
  field: 'google.protobuf.FieldOptions',
  oneof: 'google.protobuf.OneofOptions',
  enum: 'google.protobuf.EnumOptions',
  enumValue: 'google.protobuf.EnumValueOptions',
  service: 'google.protobuf.ServiceOptions',
  method: 'google.protobuf.MethodOptions',
};

const KIND_WORD: Record<OptionsKind, string> = {
  file: 'file',
  message: 'message',
  field: 'field',
  oneof: 'oneof',
  enum: 'enum',
  enumValue: 'enum value',
  service: 'service',
  method: 'method',
};

const INT32_MIN = -2147483648n;
const INT32_MAX = 2147483647n;
const UINT32_MAX = 4294967295n;
const INT64_MIN = -9223372036854775808n;
const INT64_MAX = 9223372036854775807n;

type Scalar = number | bigint | boolean | string | Uint8Array;

function describe(value: OptionValue): string {
  switch (value.kind) {
    case 'identifier':
      return value.value;
    case 'string':
      return JSON.stringify(value.value);
    case 'aggregate':
      return `{ ${value.value} }`;
    default:
      return String(value.value);
  }
}

/** Converts an option value to a scalar of the given type, or returns the reason it cannot. */
function scalarValue(type: ScalarType, value: OptionValue, name: string): Scalar | string {
  const int = (min: bigint, max: bigint, word: string): bigint | string => {
    if (value.kind !== 'positive' && value.kind !== 'negative') return `value must be an integer for ${word} option "${name}"`;
    if (value.value < min || value.value > max) return `value out of range for ${word} option "${name}"`;
    return value.value;
  };
  switch (type) {
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32: {
      const v = int(INT32_MIN, INT32_MAX, 'int32');
      return typeof v === 'string' ? v : Number(v);
    }
    case ScalarType.UINT32:
    case ScalarType.FIXED32: {
      const v = int(0n, UINT32_MAX, 'uint32');
      return typeof v === 'string' ? v : Number(v);
    }
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return int(INT64_MIN, INT64_MAX, 'int64');
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return int(0n, 18446744073709551615n, 'uint64');
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      if (value.kind === 'double') return value.value;
      if (value.kind === 'positive' || value.kind === 'negative') return Number(value.value);
      if (value.kind === 'identifier' && (value.value === 'inf' || value.value === 'nan')) return value.value === 'inf' ? Infinity : NaN;
      return `value must be a number for ${type === ScalarType.FLOAT ? 'float' : 'double'} option "${name}"`;
    case ScalarType.BOOL:
      if (value.kind === 'identifier' && (value.value === 'true' || value.value === 'false')) return value.value === 'true';
      return `value must be "true" or "false" for boolean option "${name}"`;
    case ScalarType.STRING:
      if (value.kind === 'string') return value.value;
      return `value must be quoted string for string option "${name}"`;
    case ScalarType.BYTES:
      if (value.kind === 'string') return new Uint8Array(value.bytes);
      return `value must be quoted string for bytes option "${name}"`;
  }
}

const SCALAR_OF_TYPE: Partial<Record<FieldDescriptorProto_Type, ScalarType>> = {
  [FieldDescriptorProto_Type.DOUBLE]: ScalarType.DOUBLE,
  [FieldDescriptorProto_Type.FLOAT]: ScalarType.FLOAT,
  [FieldDescriptorProto_Type.INT64]: ScalarType.INT64,
  [FieldDescriptorProto_Type.UINT64]: ScalarType.UINT64,
  [FieldDescriptorProto_Type.INT32]: ScalarType.INT32,
  [FieldDescriptorProto_Type.FIXED64]: ScalarType.FIXED64,
  [FieldDescriptorProto_Type.FIXED32]: ScalarType.FIXED32,
  [FieldDescriptorProto_Type.BOOL]: ScalarType.BOOL,
  [FieldDescriptorProto_Type.STRING]: ScalarType.STRING,
  [FieldDescriptorProto_Type.BYTES]: ScalarType.BYTES,
  [FieldDescriptorProto_Type.UINT32]: ScalarType.UINT32,
  [FieldDescriptorProto_Type.SFIXED32]: ScalarType.SFIXED32,
  [FieldDescriptorProto_Type.SFIXED64]: ScalarType.SFIXED64,
  [FieldDescriptorProto_Type.SINT32]: ScalarType.SINT32,
  [FieldDescriptorProto_Type.SINT64]: ScalarType.SINT64,
};

/** The wire bytes of one extension value (after the tag), as protobuf-es keeps unknown fields. */
function encode(type: ScalarType, value: Scalar): { wireType: WireType; data: Uint8Array } {
  const w = new BinaryWriter();
  switch (type) {
    case ScalarType.INT32: w.int32(value as number); return { wireType: WireType.Varint, data: w.finish() };
    case ScalarType.SINT32: w.sint32(value as number); return { wireType: WireType.Varint, data: w.finish() };
    case ScalarType.UINT32: w.uint32(value as number); return { wireType: WireType.Varint, data: w.finish() };
    case ScalarType.INT64: w.int64(value as bigint); return { wireType: WireType.Varint, data: w.finish() };
    case ScalarType.SINT64: w.sint64(value as bigint); return { wireType: WireType.Varint, data: w.finish() };
    case ScalarType.UINT64: w.uint64(value as bigint); return { wireType: WireType.Varint, data: w.finish() };
    case ScalarType.BOOL: w.bool(value as boolean); return { wireType: WireType.Varint, data: w.finish() };
    case ScalarType.FIXED32: w.fixed32(value as number); return { wireType: WireType.Bit32, data: w.finish() };
    case ScalarType.SFIXED32: w.sfixed32(value as number); return { wireType: WireType.Bit32, data: w.finish() };
    case ScalarType.FLOAT: w.float(value as number); return { wireType: WireType.Bit32, data: w.finish() };
    case ScalarType.FIXED64: w.fixed64(value as bigint); return { wireType: WireType.Bit64, data: w.finish() };
    case ScalarType.SFIXED64: w.sfixed64(value as bigint); return { wireType: WireType.Bit64, data: w.finish() };
    case ScalarType.DOUBLE: w.double(value as number); return { wireType: WireType.Bit64, data: w.finish() };
    case ScalarType.STRING: w.string(value as string); return { wireType: WireType.LengthDelimited, data: w.finish() };
    case ScalarType.BYTES: w.bytes(value as Uint8Array); return { wireType: WireType.LengthDelimited, data: w.finish() };
  }
}

/** Applies every pending option of `file`; moves their source locations to the interpreted paths. */
export function interpretOptions(file: LinkFile, linker: Linker): void {
  const rewrites = new Map<string, number[]>();
  const seen = new Map<object, Set<string>>();
  const repeatedCounts = new Map<string, number>();
  const unknown = new Map<Message, { no: number; wireType: WireType; data: Uint8Array }[]>();
  const fail = (option: PendingOption, message: string, hint: string, at = option.parts[0].pos) => linker.problem(file, at, message, hint);

  for (const option of file.options) {
    const options = option.owner.options!;
    const optionsPath = option.path.slice(0, -2);
    const first = option.parts[0];
    const fullName = option.parts.map((p) => (p.isExtension ? `(${p.name})` : p.name)).join('.');
    const already = seen.get(options) ?? new Set<string>();
    seen.set(options, already);
    if (!first.isExtension) {
      if (option.parts.length > 1) {
        fail(option, `option "${fullName}" is not supported: options with sub-field paths need a message-typed option`, 'codegen reads scalar and enum options only');
        continue;
      }
      if (first.name === 'uninterpreted_option') {
        fail(option, 'option "uninterpreted_option" cannot be set directly', 'remove it');
        continue;
      }
      if (option.kind === 'message' && first.name === 'map_entry') {
        fail(option, 'map_entry should not be set explicitly', 'use map<KeyType, ValueType> instead');
        continue;
      }
      const schema = OPTIONS_SCHEMA[option.kind];
      const field = schema.fields.find((f: DescField) => f.name === first.name);
      if (!field) {
        const close = schema.fields.map((f) => f.name).find((n) => editDistance(n, first.name) <= 2);
        const known = schema.fields.filter((f) => f.fieldKind === 'scalar' || f.fieldKind === 'enum').map((f) => f.name).slice(0, 6).join(', ');
        fail(option, `"${first.name}" is not a ${KIND_WORD[option.kind]} option`, close ? `did you mean "${close}"?` : `${KIND_WORD[option.kind]} options include ${known}; custom options are written (package.name)`);
        continue;
      }
      if (already.has(first.name)) {
        fail(option, `option "${first.name}" was already set`, 'set each option once');
        continue;
      }
      already.add(first.name);
      let value: Scalar | string;
      if (field.fieldKind === 'scalar') value = scalarValue(field.scalar, option.value, first.name);
      else if (field.fieldKind === 'enum') {
        const v = option.value;
        const found = v.kind === 'identifier' ? field.enum.values.find((e) => e.name === v.value) : undefined;
        value = found ? found.number : v.kind === 'identifier'
          ? `enum type "${field.enum.typeName}" has no value named "${v.value}" for option "${first.name}"`
          : `value must be an identifier for enum-valued option "${first.name}"`;
      } else {
        fail(option, `option "${first.name}" is not supported: it is message-typed, and codegen reads scalar and enum options only`, 'remove the option; proto3 files do not need it');
        continue;
      }
      if (typeof value === 'string' && !(field.fieldKind === 'scalar' && (field.scalar === ScalarType.STRING) && option.value.kind === 'string')) {
        fail(option, value, `the value given is ${describe(option.value)}`, option.valuePos);
        continue;
      }
      (options as unknown as Record<string, unknown>)[field.localName] = value;
      rewrites.set(option.path.join(','), [...optionsPath, field.number]);
      continue;
    }

    // A custom option: an extension of the options message, found from the element's scope.
    const found = linker.lookup(first.name, option.scope, file, false);
    const sym = found.sym;
    if (!sym) {
      const hint = found.hidden?.sym
        ? `it is defined in "${found.hidden.sym.file.proto.name}"; import that file`
        : 'declare it with extend google.protobuf.' + OPTIONS_MESSAGE[option.kind].split('.').pop() + ' { ... } and import the file that does';
      fail(option, `option "(${first.name})" unknown: no extension named "${first.name}" is visible here`, hint);
      continue;
    }
    if (sym.kind !== 'extension') {
      fail(option, `option "(${first.name})" is not an extension: "${first.name}" is a ${sym.kind}`, 'custom options name an extension of an *Options message');
      continue;
    }
    const ext = sym.desc as FieldDescriptorProto;
    if (ext.extendee !== `.${OPTIONS_MESSAGE[option.kind]}`) {
      fail(option, `option "(${first.name})" is an extension of "${ext.extendee.slice(1)}", not of "${OPTIONS_MESSAGE[option.kind]}"`, `it cannot be used on a ${KIND_WORD[option.kind]}`);
      continue;
    }
    if (option.parts.length > 1 || ext.type === FieldDescriptorProto_Type.MESSAGE || option.value.kind === 'aggregate') {
      fail(option, `custom option "${fullName}" is not supported: message-typed options (aggregate values and sub-field paths) are not implemented`, 'codegen reads custom options of scalar and enum types; remove this option or make it scalar');
      continue;
    }
    const repeated = ext.label === FieldDescriptorProto_Label.REPEATED;
    if (!repeated && already.has(`(${first.name})`)) {
      fail(option, `option "(${first.name})" was already set`, 'set each option once');
      continue;
    }
    already.add(`(${first.name})`);
    let scalarType: ScalarType;
    let value: Scalar | string;
    if (ext.type === FieldDescriptorProto_Type.ENUM) {
      const target = linker.symbols.get(ext.typeName.slice(1));
      const e = target?.desc as { value: { name: string; number: number }[] } | undefined;
      const v = option.value;
      const match = v.kind === 'identifier' ? e?.value.find((x) => x.name === v.value) : undefined;
      scalarType = ScalarType.INT32;
      value = match ? match.number : `value must be a value of enum "${ext.typeName.slice(1)}" for option "(${first.name})"`;
    } else {
      scalarType = SCALAR_OF_TYPE[ext.type]!;
      value = scalarValue(scalarType, option.value, `(${first.name})`);
    }
    if (typeof value === 'string' && !(scalarType === ScalarType.STRING && option.value.kind === 'string')) {
      fail(option, value, `the value given is ${describe(option.value)}`, option.valuePos);
      continue;
    }
    const list = unknown.get(options) ?? [];
    unknown.set(options, list);
    list.push({ no: ext.number, ...encode(scalarType, value) });
    const dest = [...optionsPath, ext.number];
    if (repeated) {
      const key = `${optionsPath.join(',')}|${ext.number}`;
      const count = repeatedCounts.get(key) ?? 0;
      repeatedCounts.set(key, count + 1);
      dest.push(count);
    }
    rewrites.set(option.path.join(','), dest);
  }
  // protoc serializes extensions by field number; keep occurrence order within one number.
  for (const [options, list] of unknown) {
    const sorted = list.map((f, i) => ({ f, i })).sort((a, b) => a.f.no - b.f.no || a.i - b.i).map((x) => x.f);
    options.$unknown = [...(options.$unknown ?? []), ...sorted];
  }
  file.locations = rewriteLocations(file.locations, rewrites);
}

/** protoc's UpdateSourceCodeInfo: renames interpreted option locations and drops their children. */
function rewriteLocations(locations: SourceCodeInfo_Location[], rewrites: Map<string, number[]>): SourceCodeInfo_Location[] {
  if (rewrites.size === 0) return locations;
  const out: SourceCodeInfo_Location[] = [];
  let removing: number[] | undefined;
  for (const loc of locations) {
    if (removing) {
      const prefix = removing;
      if (loc.path.length >= prefix.length && prefix.every((p, i) => loc.path[i] === p)) continue;
      removing = undefined;
    }
    const dest = rewrites.get(loc.path.join(','));
    if (!dest) {
      out.push(loc);
      continue;
    }
    removing = [...loc.path];
    loc.path = dest;
    out.push(loc);
  }
  return out;
}
