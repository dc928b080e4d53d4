/**
 * Binary codecs: one `<file>_codec.ts` beside each `<file>_pb.ts`, with straight-line code per
 * message — `writeTask(writer, message)` (fields in number order, then `$unknown`) and
 * `readTask(reader, end, into?)` (a `switch` on the whole tag, unknown fields kept) over
 * the runtime's `ProtoWriter` and `ProtoReader` — and `TaskCodec` (`encode`/`decode`), giving
 * the bytes and values `toBinary`/`fromBinary` give for the same `Message` objects. Well-known
 * types the file uses get private copies of their codecs (their `_pb` comes with the runtime);
 * messages of other generated files are imported from their `_codec` module. A message with what
 * the codecs leave to reflection (groups and delimited encoding, repeated or map closed enums, map
 * values of `Struct`) is encoded and decoded by protobuf-es, wherever it appears.
 */
import { ScalarType } from '@bufbuild/protobuf';
import type { DescField, DescFile, DescMessage } from '@bufbuild/protobuf';
import { isWrapperDesc } from '@bufbuild/protobuf/wkt';
import { FileBuilder, runtimeSymbol, symbol, typeSymbol } from '../core/builder/file.js';
import { indent as indentBy, objectKey, propertyAccess, stringLiteral } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { LoadedProto } from './load.js';
import { messageModules, perFileModule } from './messages.js';
import { messageTypeName, pbModule, schemaName } from './names.js';
import type { CodecsContext } from './template-context.js';

/** `acme/tasks/v1/tasks.proto` → `./acme/tasks/v1/tasks_codec`: the module of a generated file's codecs. */
export function codecModule(file: DescFile): string {
  return perFileModule(file, '_codec');
}

/** `TaskCodec`: the exported `MessageCodec` of a message. */
export function codecName(message: DescMessage): string {
  return `${messageTypeName(message)}Codec`;
}

export function emitCodecs(proto: LoadedProto, templates: TemplateRenderer): GeneratedFile[] {
  const { modules, generated } = messageModules(proto, '_codec');
  return modules.map(({ file, messages, path, source }) => {
    const declared = messages.flatMap((message) => [
      `write${messageTypeName(message)}`,
      `read${messageTypeName(message)}`,
      codecName(message),
    ]);
    const emitter = new CodecFile(file, new FileBuilder(path, declared), generated);
    const codecs = messages.map((message) => emitter.exported(message));
    const privateCodecs = emitter.privateCodecs();
    const context: CodecsContext = { source, imports: emitter.builder.imports(), codecs, privateCodecs };
    return { path, content: templates.render('proto/codec.ts.hbs', context) };
  });
}

/**
 * What the codecs leave to protobuf-es's reflection: a message with groups or delimited encoding,
 * closed enums in lists or maps (unknown values go to `$unknown` by the element), or maps of
 * `Struct`. Its codec is `toBinary`/`fromBinary`, and fields of its type in other messages are too.
 */
export function reflected(message: DescMessage): boolean {
  return message.fields.some(
    (field) =>
      ((field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message')) && field.delimitedEncoding) ||
      (field.fieldKind === 'list' && field.listKind === 'enum' && !field.enum.open) ||
      (field.fieldKind === 'map' && field.mapKind === 'enum' && !field.enum.open) ||
      (field.fieldKind === 'map' && field.mapKind === 'message' && field.message.typeName === STRUCT),
  );
}

const STRUCT = 'google.protobuf.Struct';
const VALUE = 'google.protobuf.Value';

const WIRE = { varint: 0, bit64: 1, delimited: 2, bit32: 5 } as const;

/** The `BinaryReader`/`BinaryWriter` method and wire type of each scalar. */
const SCALARS: Record<ScalarType, { method: string; wire: number }> = {
  [ScalarType.DOUBLE]: { method: 'double', wire: WIRE.bit64 },
  [ScalarType.FLOAT]: { method: 'float', wire: WIRE.bit32 },
  [ScalarType.INT64]: { method: 'int64', wire: WIRE.varint },
  [ScalarType.UINT64]: { method: 'uint64', wire: WIRE.varint },
  [ScalarType.INT32]: { method: 'int32', wire: WIRE.varint },
  [ScalarType.FIXED64]: { method: 'fixed64', wire: WIRE.bit64 },
  [ScalarType.FIXED32]: { method: 'fixed32', wire: WIRE.bit32 },
  [ScalarType.BOOL]: { method: 'bool', wire: WIRE.varint },
  [ScalarType.STRING]: { method: 'string', wire: WIRE.delimited },
  [ScalarType.BYTES]: { method: 'bytes', wire: WIRE.delimited },
  [ScalarType.UINT32]: { method: 'uint32', wire: WIRE.varint },
  [ScalarType.SFIXED32]: { method: 'sfixed32', wire: WIRE.bit32 },
  [ScalarType.SFIXED64]: { method: 'sfixed64', wire: WIRE.bit64 },
  [ScalarType.SINT32]: { method: 'sint32', wire: WIRE.varint },
  [ScalarType.SINT64]: { method: 'sint64', wire: WIRE.varint },
};

export const LONGS = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.FIXED64, ScalarType.SFIXED64, ScalarType.SINT64]);

function tag(no: number, wire: number): number {
  return ((no << 3) | wire) >>> 0;
}

/** The value protobuf-es's `create` gives a field of a zero message, as code; undefined when it leaves the key out. */
export function zeroCode(field: DescField, builder: FileBuilder): string | undefined {
  switch (field.fieldKind) {
    case 'list':
      return '[]';
    case 'map':
      return '{}';
    case 'message':
      return undefined;
    case 'enum':
      return field.presence === IMPLICIT ? String(field.enum.values[0]!.number) : undefined;
    case 'scalar':
      return field.presence === IMPLICIT ? scalarZero(field.scalar, field.longAsString, builder) : undefined;
  }
}

export function scalarZero(scalar: ScalarType, longAsString: boolean, builder: FileBuilder): string {
  if (LONGS.has(scalar)) return longAsString ? '"0"' : `${builder.use(symbol('protoInt64', '@bufbuild/protobuf'))}.zero`;
  switch (scalar) {
    case ScalarType.STRING:
      return '""';
    case ScalarType.BOOL:
      return 'false';
    case ScalarType.BYTES:
      return 'new Uint8Array(0)';
    default:
      return '0';
  }
}

/** features.field_presence IMPLICIT, as protobuf-es numbers it. */
export const IMPLICIT = 2;
/** features.field_presence LEGACY_REQUIRED. */
export const LEGACY_REQUIRED = 3;

/** The codecs of one file: exported ones for its messages, private copies for the well-known types they use. */
class CodecFile {
  private readonly privates = new Map<DescMessage, string>();
  private readonly privateOrder: DescMessage[] = [];
  private readonly closedEnums = new Map<string, string>();

  constructor(
    private readonly file: DescFile,
    readonly builder: FileBuilder,
    private readonly generated: ReadonlySet<string>,
  ) {}

  private use(name: string, from: string, type = false): string {
    return this.builder.use(type ? typeSymbol(name, from) : symbol(name, from));
  }

  private runtime(name: string): string {
    return this.builder.use(runtimeSymbol(name, 'proto-codec'));
  }

  private wire(name: 'ProtoReader' | 'ProtoWriter'): string {
    return this.builder.use(runtimeSymbol(name, name === 'ProtoReader' ? 'proto-reader' : 'proto-writer'));
  }

  private shape(message: DescMessage): string {
    return this.use(messageTypeName(message), pbModule(message.file, this.generated), true);
  }

  private schema(message: DescMessage): string {
    return this.use(schemaName(message), pbModule(message.file, this.generated));
  }

  /** The `writeX`/`readX` names of a message's codec functions in this file: local, imported, or a private copy. */
  private functions(message: DescMessage): { write: string; read: string } {
    const base = messageTypeName(message);
    if (message.file === this.file) return { write: `write${base}`, read: `read${base}` };
    if (this.generated.has(message.file.proto.name)) {
      const from = codecModule(message.file);
      return { write: this.use(`write${base}`, from), read: this.use(`read${base}`, from) };
    }
    let local = this.privates.get(message);
    if (local === undefined) {
      // `writeTimestamp`, unless the file has a name like it (its own Timestamp message): then `writeGoogle_protobuf_Timestamp`.
      const taken = this.builder.names();
      local = message.typeName.replace(/^google\.protobuf\./, '').replace(/\./g, '_');
      if (taken.has(`write${local}`) || taken.has(`read${local}`))
        local = `Google_${message.typeName.replace(/^google\./, '').replace(/\./g, '_')}`;
      this.builder.reserve(`write${local}`, `read${local}`);
      this.privates.set(message, local);
      this.privateOrder.push(message);
    }
    return { write: `write${local}`, read: `read${local}` };
  }

  /** The exported code of one message of the file. */
  exported(message: DescMessage): string {
    const name = messageTypeName(message);
    const shape = this.shape(message);
    const schema = this.schema(message);
    const codecType = `${this.use('MessageCodec', './runtime/proto-codec', true)}<${shape}>`;
    const doc = `/** \`${message.typeName}\` in the binary format: the bytes and values of \`toBinary\`/\`fromBinary\` (unknown fields kept). */`;
    if (reflected(message)) {
      const toBinary = this.use('toBinary', '@bufbuild/protobuf');
      const fromBinary = this.use('fromBinary', '@bufbuild/protobuf');
      return `${doc.replace(' */', ' Left to reflection: groups, delimited encoding or closed enums in lists and maps. */')}
export const ${name}Codec: ${codecType} = {
  schema: ${schema},
  encode: (message) => ${toBinary}(${schema}, message),
  decode: (bytes) => ${fromBinary}(${schema}, bytes),
};`;
    }
    const reader = this.wire('ProtoReader');
    const body = this.functionsOf(message, true);
    return `${body}

${doc}
export const ${name}Codec: ${codecType} = {
  schema: ${schema},
  encode: (message) => ${this.runtime('encodeWith')}(write${name}, message),
  decode: (bytes) => read${name}(new ${reader}(bytes), bytes.length),
};`;
  }

  /** The private copies, written after the file's own codecs asked for them (their own needs included). */
  privateCodecs(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.privateOrder.length; i++) out.push(this.functionsOf(this.privateOrder[i]!, false));
    const enums = [...this.closedEnums].map(([name, values]) => `const ${name} = new Set([${values}]);`);
    return [...enums, ...out];
  }

  private functionsOf(message: DescMessage, exported: boolean): string {
    const { write, read } = this.functions(message);
    const shape = this.shape(message);
    const writer = this.wire('ProtoWriter');
    const reader = this.wire('ProtoReader');
    const fields = message.fields.concat().sort((a, b) => a.number - b.number);
    const writes = fields.map((field) => this.writeField(field, message)).join('\n');
    const cases = message.fields.map((field) => this.readCases(field)).join('\n');
    const keyword = exported ? 'export function' : 'function';
    return `/** Writes the fields of the message \`${message.typeName}\`, then its unknown fields. */
${keyword} ${write}(w: ${writer}, m: ${shape}): void {
${indent(writes, 2)}${writes ? '\n' : ''}  ${this.runtime('writeUnknown')}(w, m);
}

/** Reads the fields of the message \`${message.typeName}\` up to \`end\` into \`m\`; repeated message fields merge, as in \`mergeFromBinary\`. */
${keyword} ${read}(r: ${reader}, end: number, m: ${shape} = ${this.zeroMessage(message)}): ${shape} {
  r.enter();
  while (r.pos < end) {
    const start = r.pos;
    switch (r.uint32()) {
${indent(cases, 6)}${cases ? '\n' : ''}      default:
        ${this.runtime('readUnknown')}(r, m, start);
    }
  }
  r.leave(end);
  return m;
}`;
  }

  /** A new message as `create` makes it: a literal for messages without a prototype chain. */
  private zeroMessage(message: DescMessage): string {
    if (usesPrototype(message)) return `${this.use('create', '@bufbuild/protobuf')}(${this.schema(message)})`;
    const entries = [`$typeName: ${stringLiteral(message.typeName)}`];
    for (const member of message.members) {
      if (member.kind === 'oneof') entries.push(`${objectKey(member.localName)}: { case: undefined }`);
      else {
        const zero = zeroCode(member, this.builder);
        if (zero !== undefined) entries.push(`${objectKey(member.localName)}: ${zero}`);
      }
    }
    return `{ ${entries.join(', ')} }`;
  }

  /** How a singular value of `field` is written after its tag: `.string(v)`, or a nested message. */
  private writeValue(field: DescField, value: string, no: number): string {
    const message = field.fieldKind === 'message' || field.fieldKind === 'list' || field.fieldKind === 'map' ? field.message : undefined;
    if (field.fieldKind !== 'map' && message === undefined) {
      const scalar =
        field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum') ? ScalarType.INT32 : field.scalar!;
      const { method, wire } = SCALARS[scalar];
      return `w.uint32(${tag(no, wire)}).${method}(${value});`;
    }
    return this.writeMessage(field, message!, value, no);
  }

  private writeMessage(field: DescField, message: DescMessage, value: string, no: number): string {
    const open = `w.uint32(${tag(no, WIRE.delimited)})`;
    if (reflected(message)) return `${open}.bytes(${this.use('toBinary', '@bufbuild/protobuf')}(${this.schema(message)}, ${value}));`;
    const { write } = this.functions(message);
    let local = value;
    if (jsonStruct(field)) local = `${this.runtime('structFromJson')}(${value})`;
    else if (unwrapped(field)) local = `{ $typeName: ${stringLiteral(message.typeName)}, value: ${value} }`;
    return `${open}.fork();\n${write}(w, ${local});\nw.join();`;
  }

  private writeField(field: DescField, parent: DescMessage): string {
    const key = propertyAccess('m', field.localName);
    const no = field.number;
    if (field.oneof) {
      return `if (${propertyAccess('m', field.oneof.localName)}.case === ${stringLiteral(field.localName)}) {\n${indent(this.writeValue(field, `${propertyAccess('m', field.oneof.localName)}.value`, no), 2)}\n}`;
    }
    switch (field.fieldKind) {
      case 'list': {
        const scalar = field.listKind === 'enum' ? ScalarType.INT32 : field.listKind === 'scalar' ? field.scalar : undefined;
        if (scalar !== undefined && field.packed) {
          const { method } = SCALARS[scalar];
          return `if (${key}.length > 0) {\n  w.uint32(${tag(no, WIRE.delimited)}).fork();\n  for (const v of ${key}) w.${method}(v);\n  w.join();\n}`;
        }
        const each = this.writeValue(field, 'v', no);
        return each.includes('\n') ? `for (const v of ${key}) {\n${indent(each, 2)}\n}` : `for (const v of ${key}) ${each}`;
      }
      case 'map':
        return this.writeMap(field, key);
      case 'message': {
        const write = this.writeMessage(field, field.message, key, no);
        return `if (${key} !== undefined) {\n${indent(write, 2)}\n}${this.requiredElse(field)}`;
      }
      default: {
        const write = this.writeValue(field, key, no);
        if (field.presence === IMPLICIT) return `if (${this.nonZero(field, key)}) ${write}`;
        const set = usesPrototype(parent) ? `${this.runtime('hasValue')}(m, ${stringLiteral(field.localName)})` : `${key} !== undefined`;
        return `if (${set}) ${write}${this.requiredElse(field)}`;
      }
    }
  }

  /** protobuf-es's refusal to encode a proto2 `required` field that is not set. */
  private requiredElse(field: DescField): string {
    if (field.presence !== LEGACY_REQUIRED) return '';
    return `\nelse ${this.runtime('requiredMissing')}(${stringLiteral(`${field.parent.typeName}.${field.name}`)});`;
  }

  /** The condition under which an implicit-presence scalar is written (protobuf-es's `isScalarZeroValue`, negated). */
  private nonZero(field: DescField, key: string): string {
    if (field.fieldKind === 'enum') return `${key} !== ${field.enum.values[0]!.number}`;
    if (field.fieldKind !== 'scalar') throw new Error(`${field} is not a scalar`);
    const scalar = field.scalar;
    if (LONGS.has(scalar)) return `${key} !== ${scalarZero(scalar, field.longAsString, this.builder)}`;
    switch (scalar) {
      case ScalarType.BOOL:
        return key;
      case ScalarType.STRING:
        return `${key} !== ""`;
      case ScalarType.BYTES:
        return `${key}.length > 0`;
      default:
        return `${key} !== 0`;
    }
  }

  private writeMap(field: DescField & { fieldKind: 'map' }, key: string): string {
    const keyScalar = field.mapKey;
    const { method: keyMethod, wire: keyWire } = SCALARS[keyScalar];
    const keyValue =
      keyScalar === ScalarType.BOOL ? 'k === "true"' : LONGS.has(keyScalar) || keyScalar === ScalarType.STRING ? 'k' : 'Number(k)';
    const entry = `w.uint32(${tag(field.number, WIRE.delimited)}).fork().uint32(${tag(1, keyWire)}).${keyMethod}(${keyValue})`;
    let value: string;
    switch (field.mapKind) {
      case 'message': {
        const message = field.message;
        value = reflected(message)
          ? `w.uint32(${tag(2, WIRE.delimited)}).bytes(${this.use('toBinary', '@bufbuild/protobuf')}(${this.schema(message)}, v));`
          : `w.uint32(${tag(2, WIRE.delimited)}).fork();\n${this.functions(message).write}(w, v);\nw.join();`;
        break;
      }
      case 'enum':
        value = `w.uint32(${tag(2, WIRE.varint)}).int32(v);`;
        break;
      default: {
        const { method, wire } = SCALARS[field.scalar];
        value = `w.uint32(${tag(2, wire)}).${method}(v);`;
      }
    }
    return `for (const [k, v] of Object.entries(${key})) {\n  ${entry};\n${indent(value, 2)}\n  w.join();\n}`;
  }

  /** The read expression of a scalar (`r.string(true)`, `String(r.int64())`). */
  private readScalar(scalar: ScalarType, field: DescField, longAsString: boolean): string {
    const { method } = SCALARS[scalar];
    if (scalar === ScalarType.STRING) return field.utf8Validation ? 'r.string(true)' : 'r.string()';
    // BinaryReader answers 64-bit integers as strings only where BigInt is missing, which protobuf-es's types ignore too.
    if (LONGS.has(scalar)) return longAsString ? `String(r.${method}())` : `(r.${method}() as bigint)`;
    return `r.${method}()`;
  }

  /** A message value read at the reader: generated, private, or reflected; `into` is merged. */
  private readMessage(message: DescMessage, into: string | undefined): string {
    if (reflected(message)) {
      const args = ['r', this.schema(message), ...(into ? [into] : [])];
      return `${this.runtime('readReflected')}(${args.join(', ')})`;
    }
    const args = ['r', `${this.runtime('delimitedEnd')}(r)`, ...(into ? [into] : [])];
    return `${this.functions(message).read}(${args.join(', ')})`;
  }

  private readCases(field: DescField): string {
    const key = propertyAccess('m', field.localName);
    const no = field.number;
    switch (field.fieldKind) {
      case 'list':
        return this.readList(field, key);
      case 'map':
        return this.readMap(field, key);
      case 'message': {
        const message = field.message;
        const label = `case ${tag(no, WIRE.delimited)}:`;
        if (field.oneof) {
          const oneof = `${propertyAccess('m', field.oneof.localName)}`;
          const name = stringLiteral(field.localName);
          const value = this.readMessage(message, `${oneof}.case === ${name} ? ${oneof}.value : undefined`);
          return `${label}\n  ${oneof} = { case: ${name}, value: ${value} };\n  break;`;
        }
        if (jsonStruct(field)) {
          const into = `${key} === undefined ? undefined : ${this.runtime('structFromJson')}(${key})`;
          return `${label}\n  ${key} = ${this.runtime('structToJson')}(${this.readMessage(message, into)});\n  break;`;
        }
        if (unwrapped(field)) {
          const into = `${key} === undefined ? undefined : { $typeName: ${stringLiteral(message.typeName)}, value: ${key} }`;
          return `${label}\n  ${key} = ${this.readMessage(message, into)}.value;\n  break;`;
        }
        return `${label}\n  ${key} = ${this.readMessage(message, key)};\n  break;`;
      }
      default: {
        const scalar = field.fieldKind === 'enum' ? ScalarType.INT32 : field.scalar;
        const label = `case ${tag(no, SCALARS[scalar].wire)}:`;
        const read = this.readScalar(scalar, field, field.fieldKind === 'scalar' && field.longAsString);
        const target = field.oneof ? undefined : key;
        const assign = (value: string) =>
          field.oneof
            ? `${propertyAccess('m', field.oneof.localName)} = { case: ${stringLiteral(field.localName)}, value: ${value} };`
            : `${target} = ${value};`;
        if (field.fieldKind === 'enum' && !field.enum.open) {
          const known = this.closedEnum(field);
          return `${label} {\n  const v = r.int32();\n  if (${known}.has(v)) ${assign('v')}\n  else ${this.runtime('readUnknown')}(r, m, start);\n  break;\n}`;
        }
        return `${label}\n  ${assign(read)}\n  break;`;
      }
    }
  }

  /** A module-level set of a closed enum's values: others go to the unknown fields, as protobuf-es keeps them. */
  private closedEnum(field: DescField & { fieldKind: 'enum' }): string {
    const name = `${field.enum.typeName.replace(/\./g, '_').toUpperCase()}_VALUES`;
    this.closedEnums.set(name, field.enum.values.map((value) => value.number).join(', '));
    return name;
  }

  private readList(field: DescField & { fieldKind: 'list' }, key: string): string {
    const no = field.number;
    if (field.listKind === 'message') {
      let value = this.readMessage(field.message, undefined);
      if (jsonStruct(field)) value = `${this.runtime('structToJson')}(${value})`;
      return `case ${tag(no, WIRE.delimited)}:\n  ${key}.push(${value});\n  break;`;
    }
    const scalar = field.listKind === 'enum' ? ScalarType.INT32 : field.scalar;
    const read = this.readScalar(scalar, field, field.listKind === 'scalar' && field.longAsString);
    const { wire } = SCALARS[scalar];
    const one = `case ${tag(no, wire)}:\n  ${key}.push(${read});\n  break;`;
    if (wire === WIRE.delimited) return one;
    // Packed or not, as the parser must accept both.
    const packed = `case ${tag(no, WIRE.delimited)}: {\n  const e = ${this.runtime('delimitedEnd')}(r);\n  while (r.pos < e) ${key}.push(${read});\n  ${this.runtime('checkEnd')}(r, e);\n  break;\n}`;
    return `${one}\n${packed}`;
  }

  private readMap(field: DescField & { fieldKind: 'map' }, key: string): string {
    const keyScalar = field.mapKey;
    const keyRead = this.readScalar(keyScalar, field, false);
    const keyExpr = keyScalar === ScalarType.BOOL || LONGS.has(keyScalar) ? `String(${keyRead})` : keyRead;
    const keyZero = keyScalar === ScalarType.BOOL ? '"false"' : LONGS.has(keyScalar) ? '"0"' : scalarZero(keyScalar, false, this.builder);
    let valueTag: number;
    let valueRead: string;
    let valueZero: string;
    let valueType = '';
    switch (field.mapKind) {
      case 'message': {
        valueTag = tag(2, WIRE.delimited);
        valueRead = this.readMessage(field.message, 'v');
        valueZero = 'undefined';
        valueType = `: ${this.shape(field.message)} | undefined`;
        break;
      }
      case 'enum':
        valueTag = tag(2, WIRE.varint);
        valueRead = 'r.int32()';
        valueZero = String(field.enum.values[0]!.number);
        break;
      default:
        valueTag = tag(2, SCALARS[field.scalar].wire);
        valueRead = this.readScalar(field.scalar, field, false);
        valueZero = scalarZero(field.scalar, false, this.builder);
        if (field.scalar === ScalarType.BYTES) valueType = ': Uint8Array';
    }
    const stored = field.mapKind === 'message' ? `v ?? ${this.use('create', '@bufbuild/protobuf')}(${this.schema(field.message)})` : 'v';
    return `case ${tag(field.number, WIRE.delimited)}: {
  const e = ${this.runtime('delimitedEnd')}(r);
  let k = ${keyZero};
  let v${valueType} = ${valueZero};
  while (r.pos < e) {
    const entryStart = r.pos;
    switch (r.uint32()) {
      case ${tag(1, SCALARS[keyScalar].wire)}:
        k = ${keyExpr};
        break;
      case ${valueTag}:
        v = ${valueRead};
        break;
      default:
        ${this.runtime('skipField')}(r, entryStart);
    }
  }
  ${this.runtime('checkEnd')}(r, e);
  ${this.runtime('setOwn')}(${key}, k, ${stored});
  break;
}`;
  }
}

/** A singular `Struct` field outside `Value`: protobuf-es holds it as a `JsonObject`. */
export function jsonStruct(field: DescField): boolean {
  const message = field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message') ? field.message : undefined;
  return message?.typeName === STRUCT && field.parent.typeName !== VALUE;
}

/** A singular wrapper field outside a oneof: protobuf-es holds its `value` alone. */
export function unwrapped(field: DescField): boolean {
  return field.fieldKind === 'message' && !field.oneof && isWrapperDesc(field.message);
}

/** protobuf-es's `create` puts defaults on a prototype (and presence in own properties) for these. */
export function usesPrototype(message: DescMessage): boolean {
  if (message.file.edition === 998) return true;
  if (message.file.edition === 999) return false;
  return message.fields.some((f) => f.presence !== IMPLICIT && f.fieldKind !== 'message' && !f.oneof);
}

function indent(code: string, by: number): string {
  return indentBy(code, ' '.repeat(by));
}
