/**
 * JSON codecs: one `<file>_json.ts` beside each `<file>_pb.ts`, with straight-line code per message
 * for the proto3 JSON mapping — `writeTaskJson(message, registry)` (a JSON object, fields in number
 * order under their JSON names, as protobuf-es's `toJson` writes them) and `readTaskJson(json, depth)`
 * (a `switch` on the keys, JSON and proto names) — and `TaskJsonCodec` (`toJson`/`fromJson` and their
 * string forms, runtime/proto-json.ts's `jsonCodec`). The generated code takes the forms JSON
 * usually has and throws the runtime's `FALLBACK` at anything else, after which the codec answers
 * with protobuf-es's reflection on the same input: results and errors are protobuf-es's. Well-known
 * types with a JSON form of their own are runtime functions (Timestamp, Duration, wrappers) or
 * reflection (Any, Struct, Value, ListValue, FieldMask); messages of other generated files are
 * imported from their `_json` module.
 */
import { ScalarType } from '@bufbuild/protobuf';
import type { DescEnum, DescField, DescFile, DescMessage } from '@bufbuild/protobuf';
import { isWrapperDesc } from '@bufbuild/protobuf/wkt';
import { FileBuilder, runtimeSymbol, symbol, typeSymbol } from '../core/builder/file.js';
import { indent as indentBy, objectKey, propertyAccess, stringLiteral } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { IMPLICIT, jsonStruct, LEGACY_REQUIRED, LONGS, scalarZero, unwrapped, usesPrototype, zeroCode } from './codecs.js';
import type { LoadedProto } from './load.js';
import { messageModules, perFileModule } from './messages.js';
import { messageTypeName, pbModule, schemaName } from './names.js';
import type { JsonCodecsContext } from './template-context.js';

/** `acme/tasks/v1/tasks.proto` → `./acme/tasks/v1/tasks_json`: the module of a generated file's JSON codecs. */
export function jsonCodecModule(file: DescFile): string {
  return perFileModule(file, '_json');
}

/** `TaskJsonCodec`: the exported `MessageJsonCodec` of a message. */
export function jsonCodecName(message: DescMessage): string {
  return `${messageTypeName(message)}JsonCodec`;
}

export function emitJsonCodecs(proto: LoadedProto, templates: TemplateRenderer): GeneratedFile[] {
  const { modules, generated } = messageModules(proto, '_json');
  return modules.map(({ file, messages, path, source }) => {
    const declared = messages.flatMap((message) => [
      `write${messageTypeName(message)}Json`,
      `read${messageTypeName(message)}Json`,
      jsonCodecName(message),
    ]);
    // A message type named like a global the code uses (`Map`) is imported under another name.
    const emitter = new JsonCodecFile(file, new FileBuilder(path, [...declared, ...GLOBALS]), generated);
    const codecs = messages.map((message) => emitter.exported(message));
    const enums = emitter.enumConstants();
    const context: JsonCodecsContext = { source, imports: emitter.builder.imports(), codecs, enums };
    return { path, content: templates.render('proto/json-codec.ts.hbs', context) };
  });
}

/** The globals the generated code uses. */
const GLOBALS = ['Object', 'Map', 'Set', 'ReadonlyMap', 'ReadonlySet'];

const WKT = 'google.protobuf.';
const VALUE = `${WKT}Value`;
const NULL_VALUE = `${WKT}NullValue`;
/** Well-known types with a JSON form of their own that the codecs leave to reflection. */
const REFLECTED_WKT = new Set(['Any', 'Struct', 'Value', 'ListValue', 'FieldMask'].map((name) => WKT + name));

/** A message whose JSON is not its fields: a well-known type protobuf-es writes in a form of its own. */
function customJson(message: DescMessage): boolean {
  return (
    REFLECTED_WKT.has(message.typeName) ||
    message.typeName === `${WKT}Timestamp` ||
    message.typeName === `${WKT}Duration` ||
    isWrapperDesc(message)
  );
}

/** The runtime's reader of each scalar's JSON. */
function scalarReader(scalar: ScalarType, longAsString: boolean): string {
  switch (scalar) {
    case ScalarType.STRING:
      return 'readString';
    case ScalarType.BOOL:
      return 'readBool';
    case ScalarType.BYTES:
      return 'readBytes';
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return 'readDouble';
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return 'readUint32';
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return longAsString ? 'readUint64String' : 'readUint64';
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return longAsString ? 'readInt64String' : 'readInt64';
    default:
      return 'readInt32';
  }
}

/** The runtime's reader of each map key type (keys are JSON strings; the record holds them as strings too). */
function mapKeyReader(scalar: ScalarType): string {
  switch (scalar) {
    case ScalarType.STRING:
      return 'readString';
    case ScalarType.BOOL:
      return 'mapKeyBool';
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return 'mapKeyUint32';
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return 'mapKeyUint64';
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return 'mapKeyInt64';
    default:
      return 'mapKeyInt32';
  }
}

/** What a field's values are, whatever its cardinality. */
type Element =
  | { kind: 'scalar'; scalar: ScalarType; longAsString: boolean }
  | { kind: 'enum'; desc: DescEnum }
  | { kind: 'message'; desc: DescMessage };

function elementOf(field: DescField): Element {
  switch (field.fieldKind) {
    case 'scalar':
      return { kind: 'scalar', scalar: field.scalar, longAsString: field.longAsString };
    case 'enum':
      return { kind: 'enum', desc: field.enum };
    case 'message':
      return { kind: 'message', desc: field.message };
    case 'list':
      if (field.listKind === 'scalar') return { kind: 'scalar', scalar: field.scalar, longAsString: field.longAsString };
      return field.listKind === 'enum' ? { kind: 'enum', desc: field.enum } : { kind: 'message', desc: field.message };
    case 'map':
      // protobuf-es keeps 64-bit map values as bigint whatever the jstype.
      if (field.mapKind === 'scalar') return { kind: 'scalar', scalar: field.scalar, longAsString: false };
      return field.mapKind === 'enum' ? { kind: 'enum', desc: field.enum } : { kind: 'message', desc: field.message };
  }
}

/** Whether JSON `null` is a value of this element (not "unset"): `Value` and `NullValue`. */
function nullIsValue(element: Element): boolean {
  return (
    (element.kind === 'message' && element.desc.typeName === VALUE) || (element.kind === 'enum' && element.desc.typeName === NULL_VALUE)
  );
}

/** The JSON codecs of one file. */
class JsonCodecFile {
  private readonly enums = new Map<string, string>();

  constructor(
    private readonly file: DescFile,
    readonly builder: FileBuilder,
    private readonly generated: ReadonlySet<string>,
  ) {}

  private use(name: string, from: string, type = false): string {
    return this.builder.use(type ? typeSymbol(name, from) : symbol(name, from));
  }

  private runtime(name: string): string {
    return this.builder.use(runtimeSymbol(name, 'proto-json'));
  }

  private shape(message: DescMessage): string {
    return this.use(messageTypeName(message), pbModule(message.file, this.generated), true);
  }

  private schema(message: DescMessage): string {
    return this.use(schemaName(message), pbModule(message.file, this.generated));
  }

  /** The `writeXJson`/`readXJson` of a generated message: local or imported. */
  private functions(message: DescMessage): { write: string; read: string } {
    const base = messageTypeName(message);
    if (message.file === this.file) return { write: `write${base}Json`, read: `read${base}Json` };
    const from = jsonCodecModule(message.file);
    return { write: this.use(`write${base}Json`, from), read: this.use(`read${base}Json`, from) };
  }

  /** The exported code of one message of the file. */
  exported(message: DescMessage): string {
    const name = messageTypeName(message);
    const shape = this.shape(message);
    const schema = this.schema(message);
    const codecType = `${this.runtime('MessageJsonCodec')}<${shape}>`;
    const doc = `/** \`${message.typeName}\` in the proto3 JSON mapping: the JSON and values of \`toJson\`/\`fromJson\`. */`;
    const jsonValue = this.use('JsonValue', '@bufbuild/protobuf', true);
    const registry = this.use('Registry', '@bufbuild/protobuf', true);
    const codec = `export const ${name}JsonCodec: ${codecType} = ${this.runtime('jsonCodec')}(${schema}, write${name}Json, read${name}Json);`;
    if (customJson(message)) {
      // A well-known type generated here (asked for by name): its JSON form is protobuf-es's.
      const fallback = this.runtime('fallback');
      return `/** Left to reflection: \`${message.typeName}\` has a JSON form of its own. */
export function write${name}Json(_m: ${shape}, _registry: ${registry} | undefined): ${jsonValue} {
  return ${fallback}();
}

/** Left to reflection: \`${message.typeName}\` has a JSON form of its own. */
export function read${name}Json(_json: ${jsonValue}, _depth: number): ${shape} {
  return ${fallback}();
}

${doc}
${codec}`;
    }
    return `${this.writer(message)}

${this.reader(message)}

${doc}
${codec}`;
  }

  /** The module-level constants of the enums the codecs use: names by number, numbers by name, closed enums' values. */
  enumConstants(): string[] {
    return [...this.enums.values()];
  }

  private enumConstant(desc: DescEnum, suffix: 'JSON_NAMES' | 'JSON_NUMBERS' | 'VALUES'): string {
    const name = `${desc.typeName.replace(/\./g, '_').toUpperCase()}_${suffix}`;
    if (this.enums.has(name)) return name;
    this.builder.reserve(name);
    let code: string;
    switch (suffix) {
      case 'JSON_NAMES': {
        const entries = new Map<number, string>();
        // The first name of a number (aliases share one), as protobuf-es's `value[number]`.
        for (const value of desc.values) if (!entries.has(value.number)) entries.set(value.number, value.jsonName);
        code = `const ${name}: { readonly [no: number]: string } = { ${[...entries].map(([no, json]) => `${no < 0 ? `[${no}]` : no}: ${stringLiteral(json)}`).join(', ')} };`;
        break;
      }
      case 'JSON_NUMBERS': {
        const entries = new Map<string, number>();
        for (const value of desc.values) entries.set(value.jsonName, value.number);
        for (const value of desc.values) entries.set(value.name, value.number);
        code = `const ${name}: ReadonlyMap<string, number> = new Map([${[...entries].map(([json, no]) => `[${stringLiteral(json)}, ${no}]`).join(', ')}]);`;
        break;
      }
      case 'VALUES':
        code = `const ${name}: ReadonlySet<number> = new Set([${desc.values.map((value) => value.number).join(', ')}]);`;
    }
    this.enums.set(name, code);
    return name;
  }

  // ---- writing ----

  private writer(message: DescMessage): string {
    const name = messageTypeName(message);
    const shape = this.shape(message);
    const jsonObject = this.use('JsonObject', '@bufbuild/protobuf', true);
    const registry = this.use('Registry', '@bufbuild/protobuf', true);
    const fields = message.fields.concat().sort((a, b) => a.number - b.number);
    const writes = fields.map((field) => this.writeField(field, message)).join('\n');
    return `/** The JSON of a \`${message.typeName}\`, as \`toJson\` writes it with default options. */
export function write${name}Json(m: ${shape}, registry: ${registry} | undefined): ${jsonObject} {
  // With a registry, unknown fields may be extensions, which reflection writes.
  if (registry !== undefined && m.$unknown !== undefined) ${this.runtime('fallback')}();
  const j: ${jsonObject} = {};
${indent(writes, 2)}${writes ? '\n' : ''}  return j;
}`;
  }

  private assign(field: DescField, value: string): string {
    if (field.jsonName === '__proto__') return `${this.builder.use(runtimeSymbol('setOwn', 'proto-codec'))}(j, "__proto__", ${value});`;
    return `j[${stringLiteral(field.jsonName)}] = ${value};`;
  }

  /** The JSON of one value of `element`. */
  private writeValue(element: Element, value: string): string {
    switch (element.kind) {
      case 'scalar':
        return this.writeScalar(element.scalar, value);
      case 'enum':
        if (element.desc.typeName === NULL_VALUE) return 'null';
        return `${this.enumConstant(element.desc, 'JSON_NAMES')}[${value}] ?? ${value}`;
      case 'message':
        return this.writeMessage(element.desc, value);
    }
  }

  private writeScalar(scalar: ScalarType, value: string): string {
    if (LONGS.has(scalar)) return `${value}.toString()`;
    switch (scalar) {
      case ScalarType.DOUBLE:
      case ScalarType.FLOAT:
        return `${this.runtime('doubleJson')}(${value})`;
      case ScalarType.BYTES:
        return `${this.runtime('bytesJson')}(${value})`;
      default:
        return value;
    }
  }

  private writeMessage(message: DescMessage, value: string): string {
    if (message.typeName === `${WKT}Timestamp`) return `${this.runtime('timestampJson')}(${value})`;
    if (message.typeName === `${WKT}Duration`) return `${this.runtime('durationJson')}(${value})`;
    if (isWrapperDesc(message)) {
      const field = message.fields[0]!;
      return this.writeScalar(field.scalar!, `${value}.value`);
    }
    if (REFLECTED_WKT.has(message.typeName) || !this.generated.has(message.file.proto.name) || customJson(message))
      return `${this.runtime('writeReflected')}(${this.schema(message)}, ${value}, registry)`;
    return `${this.functions(message).write}(${value}, registry)`;
  }

  private writeField(field: DescField, parent: DescMessage): string {
    const key = propertyAccess('m', field.localName);
    const element = elementOf(field);
    if (field.oneof) {
      const oneof = propertyAccess('m', field.oneof.localName);
      return `if (${oneof}.case === ${stringLiteral(field.localName)}) ${this.assign(field, this.writeElement(field, element, `${oneof}.value`))}`;
    }
    switch (field.fieldKind) {
      case 'list':
        return `if (${key}.length > 0) ${this.assign(field, this.writeList(field, element, key))}`;
      case 'map':
        return this.writeMap(field, element, key);
      case 'message': {
        const value = unwrapped(field) ? this.writeScalar(field.message.fields[0]!.scalar!, key) : this.writeElement(field, element, key);
        return `if (${key} !== undefined) ${this.assign(field, value)}${this.requiredElse(field)}`;
      }
      default: {
        const write = this.assign(field, this.writeValue(element, key));
        if (field.presence === IMPLICIT) return `if (${this.nonZero(field, key)}) ${write}`;
        const set = usesPrototype(parent)
          ? `${this.builder.use(runtimeSymbol('hasValue', 'proto-codec'))}(m, ${stringLiteral(field.localName)})`
          : `${key} !== undefined`;
        return `if (${set}) ${write}${this.requiredElse(field)}`;
      }
    }
  }

  /** A value of a field: a `Struct` field's is the `JsonObject` protobuf-es holds, written through the message. */
  private writeElement(field: DescField, element: Element, value: string): string {
    if (!jsonStruct(field)) return this.writeValue(element, value);
    const struct = `${this.builder.use(runtimeSymbol('structFromJson', 'proto-codec'))}(${value})`;
    return `${this.runtime('writeReflected')}(${this.schema(field.message!)}, ${struct}, registry)`;
  }

  private writeList(field: DescField, element: Element, key: string): string {
    if (jsonStruct(field)) return `${key}.map((v) => ${this.writeElement(field, element, 'v')})`;
    if (
      element.kind === 'scalar' &&
      !LONGS.has(element.scalar) &&
      element.scalar !== ScalarType.DOUBLE &&
      element.scalar !== ScalarType.FLOAT &&
      element.scalar !== ScalarType.BYTES
    )
      return `${key}.slice()`;
    return `${key}.map((v) => ${this.writeValue(element, 'v')})`;
  }

  private writeMap(field: DescField & { fieldKind: 'map' }, element: Element, key: string): string {
    if (element.kind === 'message' && element.desc.typeName === `${WKT}Struct`)
      return `if (${this.runtime('hasEntries')}(${key})) ${this.runtime('fallback')}();`;
    const jsonObject = this.use('JsonObject', '@bufbuild/protobuf', true);
    const copied =
      element.kind === 'scalar' &&
      !LONGS.has(element.scalar) &&
      element.scalar !== ScalarType.DOUBLE &&
      element.scalar !== ScalarType.FLOAT &&
      element.scalar !== ScalarType.BYTES;
    // A spread defines `__proto__` as an own key, as protobuf-es's `setOwn` does.
    if (copied) return `if (${this.runtime('hasEntries')}(${key})) ${this.assign(field, `{ ...${key} }`)}`;
    const setOwn = this.builder.use(runtimeSymbol('setOwn', 'proto-codec'));
    return `if (${this.runtime('hasEntries')}(${key})) {
  const o: ${jsonObject} = {};
  for (const k in ${key}) ${setOwn}(o, k, ${this.writeValue(element, `${key}[k]!`)});
  ${this.assign(field, 'o')}
}`;
  }

  /** protobuf-es's refusal to write a proto2 `required` field that is not set. */
  private requiredElse(field: DescField): string {
    return field.presence === LEGACY_REQUIRED ? ` else ${this.runtime('fallback')}();` : '';
  }

  /** When `toJson` writes an implicit-presence field: not its zero value (`-0` is written). */
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
      case ScalarType.DOUBLE:
      case ScalarType.FLOAT:
        return `!Object.is(${key}, 0)`;
      default:
        return `${key} !== 0`;
    }
  }

  // ---- reading ----

  private reader(message: DescMessage): string {
    const name = messageTypeName(message);
    const shape = this.shape(message);
    const jsonValue = this.use('JsonValue', '@bufbuild/protobuf', true);
    const cases = message.fields.map((field) => this.readCase(field)).join('\n');
    const zero = this.zeroMessage(message);
    if (cases === '')
      return `/** A \`${message.typeName}\` from its JSON at nesting depth \`d\`: an empty object (anything else is left to reflection). */
export function read${name}Json(json: ${jsonValue}, d: number): ${shape} {
  if (${this.runtime('keysOf')}(${this.runtime('readObject')}(json)).length > 0 || d > ${this.runtime('MAX_DEPTH')}) ${this.runtime('fallback')}();
  return ${zero};
}`;
    return `/** A \`${message.typeName}\` from its JSON at nesting depth \`d\`, as \`fromJson\` reads it; anything else is left to reflection. */
export function read${name}Json(json: ${jsonValue}, d: number): ${shape} {
  const o = ${this.runtime('readObject')}(json);
  if (d > ${this.runtime('MAX_DEPTH')}) ${this.runtime('fallback')}();
  const m: ${shape} = ${zero};
  for (const k of ${this.runtime('keysOf')}(o)) {
    const v = o[k]!;
    switch (k) {
${indent(cases, 6)}
      default:
        ${this.runtime('fallback')}();
    }
  }
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

  /** The expression reading one non-null value of `element` from `json` in a message at depth `d`. */
  private readValue(element: Element, json: string): string {
    switch (element.kind) {
      case 'scalar': {
        const read = this.runtime(scalarReader(element.scalar, element.longAsString));
        return element.scalar === ScalarType.FLOAT ? `${read}(${json}, true)` : `${read}(${json})`;
      }
      case 'enum': {
        const numbers = this.enumConstant(element.desc, 'JSON_NUMBERS');
        const known = element.desc.open ? '' : `, ${this.enumConstant(element.desc, 'VALUES')}`;
        return `${this.runtime('readEnum')}(${json}, ${numbers}${known})`;
      }
      case 'message':
        return this.readMessage(element.desc, json, false);
    }
  }

  /** A message value; `bare` reads a wrapper's value alone (a singular field outside a oneof). */
  private readMessage(message: DescMessage, json: string, bare: boolean): string {
    const typeName = message.typeName;
    if (typeName === `${WKT}Timestamp` || typeName === `${WKT}Duration`) {
      const read = this.runtime(typeName === `${WKT}Timestamp` ? 'readTimestamp' : 'readDuration');
      return `${this.runtime('leaf')}(d + 1, ${read}(${json}))`;
    }
    if (isWrapperDesc(message)) {
      const field = message.fields[0]!;
      const value = this.readValue({ kind: 'scalar', scalar: field.scalar!, longAsString: field.longAsString }, json);
      const read = `${this.runtime('leaf')}(d + 1, ${value})`;
      return bare ? read : `{ $typeName: ${stringLiteral(typeName)}, value: ${read} }`;
    }
    if (REFLECTED_WKT.has(typeName) || !this.generated.has(message.file.proto.name) || customJson(message))
      return `${this.runtime('readReflected')}(${this.schema(message)}, ${json}, d + 1)`;
    return `${this.functions(message).read}(${json}, d + 1)`;
  }

  private readCase(field: DescField): string {
    const labels = [...new Set([field.jsonName, field.name])].map((name) => `case ${stringLiteral(name)}:`).join('\n');
    // Both names in one object set the field twice: reflection says so.
    const twice =
      field.name === field.jsonName
        ? ''
        : `if (k === ${stringLiteral(field.name)} && Object.hasOwn(o, ${stringLiteral(field.jsonName)})) ${this.runtime('fallback')}();\n`;
    return `${labels}\n${indent(`${twice}${this.readField(field)}\nbreak;`, 2)}`;
  }

  private readField(field: DescField): string {
    const key = propertyAccess('m', field.localName);
    const element = elementOf(field);
    const fallback = `${this.runtime('fallback')}();`;
    if (element.kind === 'enum' && element.desc.typeName === NULL_VALUE) return fallback;
    if (field.oneof) {
      const oneof = propertyAccess('m', field.oneof.localName);
      const set = `${oneof} = { case: ${stringLiteral(field.localName)}, value: ${this.readElement(field, element, 'v')} };`;
      // A scalar member set to null is skipped; another member set to null clears the oneof (reflection does it).
      const guard = nullIsValue(element)
        ? `${oneof}.case !== undefined`
        : field.fieldKind === 'scalar'
          ? ''
          : `v === null || ${oneof}.case !== undefined`;
      if (guard === '') return `if (v !== null) {\n  if (${oneof}.case !== undefined) ${fallback}\n  ${set}\n}`;
      return `if (${guard}) ${fallback}\n${set}`;
    }
    switch (field.fieldKind) {
      case 'list': {
        const push = `for (const e of ${this.runtime('readArray')}(v)) ${key}.push(${this.readElement(field, element, 'e')});`;
        return `if (v !== null) ${push}`;
      }
      case 'map':
        return this.readMap(field, element, key);
      case 'message': {
        const value = unwrapped(field) ? this.readMessage(field.message, 'v', true) : this.readElement(field, element, 'v');
        return nullIsValue(element) ? `${key} = ${value};` : `if (v !== null) ${key} = ${value};`;
      }
      default:
        return `if (v !== null) ${key} = ${this.readValue(element, 'v')};`;
    }
  }

  /** A value of a field: a `Struct` field's is held as a `JsonObject`, read through the message. */
  private readElement(field: DescField, element: Element, json: string): string {
    if (!jsonStruct(field)) return this.readValue(element, json);
    return `${this.builder.use(runtimeSymbol('structToJson', 'proto-codec'))}(${this.readMessage(field.message!, json, false)})`;
  }

  private readMap(field: DescField & { fieldKind: 'map' }, element: Element, key: string): string {
    if (element.kind === 'message' && element.desc.typeName === `${WKT}Struct`) return `${this.runtime('fallback')}();`;
    const setOwn = this.builder.use(runtimeSymbol('setOwn', 'proto-codec'));
    const keyRead = `${this.runtime(mapKeyReader(field.mapKey))}(e)`;
    // Keys other than strings can name one entry twice ("1" and "01"): reflection refuses that.
    const twice = field.mapKey === ScalarType.STRING ? '' : `\n    if (Object.hasOwn(${key}, n)) ${this.runtime('fallback')}();`;
    const value = this.readValue(element, 'r[e]!');
    return `if (v !== null) {
  const r = ${this.runtime('readObject')}(v);
  for (const e of ${this.runtime('keysOf')}(r)) {
    const n = ${keyRead};${twice}
    ${setOwn}(${key}, n, ${value});
  }
}`;
  }
}

function indent(code: string, by: number): string {
  return indentBy(code, ' '.repeat(by));
}
