/**
 * Option interpretation, after protoc's OptionInterpreter: each `name = value` the parser kept is
 * set on its options message (FileOptions, FieldOptions...), and its `source_code_info` location
 * moves from the uninterpreted path (..., 999, i) to the option's field path, as protoc rewrites it.
 *
 * Every kind of option protoc accepts: builtin ones (`deprecated`, `go_package`, `features.x`...),
 * custom options `(pkg.ext)` of any type, sub-field paths `(foo).bar.(baz) = 1`, aggregate values
 * in text format (options-text-format.ts), repeated options (each statement appends) and message
 * options given in pieces (merged). Values are encoded as protoc writes them (option-values.ts):
 * extensions end up as the options message's unknown fields, in field-number order.
 */
import { mergeFromBinary, ScalarType } from '@bufbuild/protobuf';
import type { Message } from '@bufbuild/protobuf';
import { Edition, FieldOptions_OptionTargetType } from '@bufbuild/protobuf/wkt';
import type { FieldDescriptorProto, SourceCodeInfo_Location } from '@bufbuild/protobuf/wkt';
import { OPTIONS_SCHEMA } from './parse.js';
import type { OptionsKind, OptionValue, PendingOption, Pos } from './parse.js';
import { OptionTypes, UnresolvedOptionType } from './option-types.js';
import type { OptionField, OptionMessageType } from './option-types.js';
import { MessageValue, stringOf } from './option-values.js';
import type { FieldValue } from './option-values.js';
import { missingRequired, parseTextFormat, TextFormatError } from './options-text-format.js';
import type { TextFormatScope } from './options-text-format.js';
import { checkFieldFeatures, checkFieldOptions, checkLiteImports } from './option-checks.js';
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
  extensionRange: 'google.protobuf.ExtensionRangeOptions',
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
  extensionRange: 'extension range',
};

const INT32_MIN = -2147483648n;
const INT32_MAX = 2147483647n;
const UINT32_MAX = 4294967295n;
const INT64_MIN = -9223372036854775808n;
const INT64_MAX = 9223372036854775807n;
const UINT64_MAX = 18446744073709551615n;

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

/** Converts a statement's value to a scalar of the given type, or says why it cannot. */
function scalarValue(type: ScalarType, value: OptionValue, name: string): Scalar | { error: string } {
  const int = (min: bigint, max: bigint, word: string): bigint | { error: string } => {
    // An unsigned option takes no sign at all, so `-0` is refused as protoc refuses it.
    if (value.kind !== 'positive' && (value.kind !== 'negative' || min === 0n))
      return { error: `value must be an integer${min === 0n ? ' from 0' : ''} for ${word} option "${name}"` };
    if (value.value < min || value.value > max) return { error: `value out of range for ${word} option "${name}"` };
    return value.value;
  };
  const small = (v: bigint | { error: string }) => (typeof v === 'bigint' ? Number(v) : v);
  switch (type) {
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return small(int(INT32_MIN, INT32_MAX, 'int32'));
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return small(int(0n, UINT32_MAX, 'uint32'));
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return int(INT64_MIN, INT64_MAX, 'int64');
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return int(0n, UINT64_MAX, 'uint64');
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      if (value.kind === 'double') return value.value;
      if (value.kind === 'positive' || value.kind === 'negative') return Number(value.value);
      if (value.kind === 'identifier' && (value.value === 'inf' || value.value === 'nan')) return value.value === 'inf' ? Infinity : NaN;
      return { error: `value must be a number for ${type === ScalarType.FLOAT ? 'float' : 'double'} option "${name}"` };
    case ScalarType.BOOL:
      if (value.kind === 'identifier' && (value.value === 'true' || value.value === 'false')) return value.value === 'true';
      return { error: `value must be "true" or "false" for boolean option "${name}"` };
    case ScalarType.STRING:
      if (value.kind === 'string') return value.value;
      return { error: `value must be quoted string for string option "${name}"` };
    case ScalarType.BYTES:
      if (value.kind === 'string') return new Uint8Array(value.bytes);
      return { error: `value must be quoted string for bytes option "${name}"` };
  }
}

/** What the options of one file are being interpreted with. */
interface Context {
  file: LinkFile;
  linker: Linker;
  types: OptionTypes;
  /** The interpreted value of each options message (and its kind), by the message it ends up in. */
  values: Map<Message, { kind: OptionsKind; value: MessageValue }>;
  /** Source path of each interpreted option → the field path protoc moves its location to. */
  rewrites: Map<string, number[]>;
  /** How many values each repeated option path has received, for the location's index. */
  repeatedCounts: Map<string, number>;
  /** The first option that set each field of an options message: where incomplete values are reported. */
  setters: Map<MessageValue, Map<number, PendingOption>>;
}

/** Reported once per option; the option is then skipped. */
class OptionProblem extends Error {
  constructor(
    message: string,
    readonly at: Pos,
    readonly hint: string,
  ) {
    super(message);
  }
}

/**
 * Applies every pending option of `file`; moves their source locations to the interpreted paths.
 * As protoc: builtin options first (so `features` and `packed` are known when custom option values
 * are encoded), then custom ones; each options message gets the encoding of its values merged in.
 */
export function interpretOptions(file: LinkFile, linker: Linker): void {
  const ctx: Context = {
    file,
    linker,
    types: new OptionTypes(linker),
    values: new Map(),
    rewrites: new Map(),
    repeatedCounts: new Map(),
    setters: new Map(),
  };
  for (const custom of [false, true]) {
    ctx.values.clear();
    for (const option of file.options) {
      if (option.parts[0].isExtension !== custom) continue;
      try {
        interpretOption(ctx, option);
      } catch (cause) {
        if (cause instanceof UnresolvedOptionType) continue;
        if (!(cause instanceof OptionProblem || cause instanceof TextFormatError)) throw cause;
        const message =
          cause instanceof TextFormatError ? `error in the value of option "${optionName(option)}": ${cause.message}` : cause.message;
        linker.problem(file, cause.at, message, cause.hint);
      }
    }
    for (const [options, { kind, value }] of ctx.values) {
      checkComplete(ctx, value);
      mergeFromBinary(OPTIONS_SCHEMA[kind], options, value.encode());
    }
  }
  checkFieldOptions(file, linker);
  checkLiteImports(file, linker);
  checkFieldFeatures(file, linker, ctx.types);
  file.locations = rewriteLocations(file.locations, ctx.rewrites);
}

function optionName(option: PendingOption, count = option.parts.length): string {
  return option.parts
    .slice(0, count)
    .map((p) => (p.isExtension ? `(${p.name})` : p.name))
    .join('.');
}

function interpretOption(ctx: Context, option: PendingOption): void {
  const options = option.owner.options!;
  const rootName = OPTIONS_MESSAGE[option.kind];
  const root = ctx.types.message(rootName);
  if (!root) throw new Error(`${rootName} is not loaded`);
  let target = ctx.values.get(options)?.value;
  if (!target) {
    target = new MessageValue(root);
    ctx.values.set(options, { kind: option.kind, value: target });
  }
  const setters = ctx.setters.get(target) ?? new Map<number, PendingOption>();
  ctx.setters.set(target, setters);
  const fullName = optionName(option);
  const path = option.path.slice(0, -2);
  let type = root;
  let field: OptionField | undefined;
  /** Each field of the name with the message it belongs to, for the target and edition checks. */
  const steps: [OptionField, OptionMessageType][] = [];
  option.parts.forEach((part, i) => {
    if (field) {
      // The previous part was a step into a submessage.
      const step = field;
      const stepName = optionName(option, i);
      if (step.kind !== 'message')
        throw new OptionProblem(
          `option "${stepName}" is an atomic type, not a message`,
          part.pos,
          `"${stepName}" has no fields; set it with ${stepName} = value`,
        );
      if (step.repeated)
        throw new OptionProblem(
          `option field "${stepName}" is a repeated message; repeated message options must be initialized using an aggregate value`,
          option.parts[0].pos,
          `write ${stepName} = { ... } once per element`,
        );
      target = target!.child(step);
      type = step.message();
    }
    field = i === 0 ? rootField(ctx, option, root) : subField(ctx, option, i, type);
    if (i === 0 && !setters.has(field.number)) setters.set(field.number, option);
    steps.push([field, type]);
    path.push(field.number);
  });
  const leaf = field!;
  if (!leaf.repeated && target.has(leaf)) {
    throw new OptionProblem(
      `option "${fullName}" was already set`,
      option.parts[0].pos,
      'set each option once (a message option may be set in pieces, each field once)',
    );
  }
  const value = optionValue(ctx, option, leaf, fullName);
  steps.forEach(([step, container], i) => checkUse(ctx, option, step, container, i === steps.length - 1 ? value : undefined));
  if (value instanceof MessageValue) checkValueUse(ctx, option, value);
  target.add(leaf, value);
  if (leaf.repeated) {
    const key = path.join(',');
    const count = ctx.repeatedCounts.get(key) ?? 0;
    ctx.repeatedCounts.set(key, count + 1);
    path.push(count);
  }
  ctx.rewrites.set(option.path.join(','), path);
}

/**
 * Required fields of message options set in pieces (`(foo).a = 1;` without the required `b`) are
 * reported here; protoc 36 aborts on them when it re-parses the options.
 */
function checkComplete(ctx: Context, value: MessageValue): void {
  for (const { field, values } of value.fields.values()) {
    if (field.kind !== 'message') continue;
    for (const v of values) {
      const missing = missingRequired(v as MessageValue, ctx.types, '');
      const option = ctx.setters.get(value)?.get(field.number);
      if (missing.length === 0 || !option) continue;
      const name = field.isExtension ? `(${option.parts[0].name})` : field.name;
      ctx.linker.problem(
        ctx.file,
        option.parts[0].pos,
        `option "${name}" is missing required fields: ${missing.join(', ')}`,
        `set them too, e.g. option ${name}.${missing[0]} = ...;`,
      );
    }
  }
}

/** What protoc calls each kind of element in "cannot be set on an entity of type" errors. */
const TARGET: Record<OptionsKind, { type: FieldOptions_OptionTargetType; word: string }> = {
  file: { type: FieldOptions_OptionTargetType.TARGET_TYPE_FILE, word: 'file' },
  extensionRange: { type: FieldOptions_OptionTargetType.TARGET_TYPE_EXTENSION_RANGE, word: 'extension range' },
  message: { type: FieldOptions_OptionTargetType.TARGET_TYPE_MESSAGE, word: 'message' },
  field: { type: FieldOptions_OptionTargetType.TARGET_TYPE_FIELD, word: 'field' },
  oneof: { type: FieldOptions_OptionTargetType.TARGET_TYPE_ONEOF, word: 'oneof' },
  enum: { type: FieldOptions_OptionTargetType.TARGET_TYPE_ENUM, word: 'enum' },
  enumValue: { type: FieldOptions_OptionTargetType.TARGET_TYPE_ENUM_ENTRY, word: 'enum entry' },
  service: { type: FieldOptions_OptionTargetType.TARGET_TYPE_SERVICE, word: 'service' },
  method: { type: FieldOptions_OptionTargetType.TARGET_TYPE_METHOD, word: 'method' },
};

function editionName(edition: number): string {
  return (Edition[edition] ?? String(edition)).replace(/^EDITION_/, '');
}

/**
 * protoc's checks on each option field used: its `targets` must include this kind of element, and
 * a feature (a field with `feature_support`) must exist in the file's edition and not be UNKNOWN.
 */
function checkUse(ctx: Context, option: PendingOption, field: OptionField, container: OptionMessageType, value?: FieldValue): void {
  const at = option.parts[0].pos;
  const fieldOptions = field.proto.options;
  const full = `${container.fullName}.${field.proto.name}`;
  const target = TARGET[option.kind];
  if (fieldOptions && fieldOptions.targets.length > 0 && !fieldOptions.targets.includes(target.type)) {
    const allowed = fieldOptions.targets.map((t) => Object.values(TARGET).find((x) => x.type === t)?.word ?? String(t)).join(', ');
    throw new OptionProblem(
      `option ${field.isExtension ? field.name : full} cannot be set on an entity of type \`${target.word}\``,
      at,
      `its targets are: ${allowed}`,
    );
  }
  const support = fieldOptions?.featureSupport ?? featureSupportFallback(container, field);
  if (support) {
    const syntax = ctx.file.proto.syntax;
    const edition = syntax === 'editions' ? ctx.file.proto.edition : syntax === 'proto3' ? Edition.EDITION_PROTO3 : Edition.EDITION_PROTO2;
    if (support.editionIntroduced > edition) {
      throw new OptionProblem(
        `${full} wasn't introduced until edition ${editionName(support.editionIntroduced)} and can't be used in edition ${editionName(edition)}`,
        at,
        `remove it, or move the file to edition = "${editionName(support.editionIntroduced)}";`,
      );
    }
    if (support.editionRemoved !== 0 && support.editionRemoved <= edition) {
      const why = support.removalError ? `: ${support.removalError}` : '';
      throw new OptionProblem(`${full} has been removed in edition ${editionName(support.editionRemoved)}${why}`, at, 'remove the option');
    }
  }
  if (container.fullName === 'google.protobuf.FeatureSet' && field.kind === 'enum' && value === 0) {
    const zero = field.enumType().proto.value.find((v) => v.number === 0)?.name ?? '0';
    throw new OptionProblem(
      `feature field \`${field.proto.name}\` must resolve to a known value, found ${zero}`,
      option.valuePos,
      `pick one of ${field
        .enumType()
        .proto.value.filter((v) => v.number !== 0)
        .map((v) => v.name)
        .join(', ')}`,
    );
  }
}

interface Support {
  editionIntroduced: Edition;
  editionRemoved: Edition;
  removalError: string;
}

/**
 * `feature_support` of descriptor.proto's fields in protoc 36: the copy embedded in
 * @bufbuild/protobuf, used when no loaded file declares the options messages, drops it.
 */
const SUPPORT: Record<string, Partial<Support>> = {
  'google.protobuf.FeatureSet.enforce_naming_style': { editionIntroduced: Edition.EDITION_2024 },
  'google.protobuf.FeatureSet.default_symbol_visibility': { editionIntroduced: Edition.EDITION_2024 },
  'google.protobuf.FeatureSet.enforce_proto_limits': { editionIntroduced: Edition.EDITION_2026 },
  'google.protobuf.FileOptions.java_multiple_files': {
    editionRemoved: Edition.EDITION_2024,
    removalError:
      'This behavior is enabled by default in editions 2024 and above. To disable it, you can set `features.(pb.java).nest_in_file_class = YES` on individual messages, enums, or services.',
  },
  'google.protobuf.FileOptions.cc_enable_arenas': {
    editionRemoved: Edition.EDITION_2026,
    removalError:
      'cc_enable_arenas is enabled by default in every edition and overrides are ignored.This option is removed in editions 2026 and above.',
  },
};

function featureSupportFallback(container: OptionMessageType, field: OptionField): Support | undefined {
  if (field.isExtension || !container.fullName.startsWith('google.protobuf.')) return undefined;
  const known = SUPPORT[`${container.fullName}.${field.proto.name}`];
  if (!known && container.fullName !== 'google.protobuf.FeatureSet') return undefined;
  const introduced = container.fullName === 'google.protobuf.FeatureSet' ? Edition.EDITION_2023 : Edition.EDITION_PROTO2;
  return { editionIntroduced: introduced, editionRemoved: Edition.EDITION_UNKNOWN, removalError: '', ...known };
}

/** checkUse for every field set inside an aggregate value. */
function checkValueUse(ctx: Context, option: PendingOption, value: MessageValue): void {
  for (const { field, values } of value.fields.values()) {
    for (const v of values) {
      checkUse(ctx, option, field, value.type, v);
      if (v instanceof MessageValue) checkValueUse(ctx, option, v);
    }
  }
}

/** The first part of an option name: a field of the options message, or a custom option. */
function rootField(ctx: Context, option: PendingOption, root: OptionMessageType): OptionField {
  const first = option.parts[0];
  const kindWord = KIND_WORD[option.kind];
  if (!first.isExtension) {
    if (first.name === 'uninterpreted_option')
      throw new OptionProblem('option "uninterpreted_option" cannot be set directly', first.pos, 'remove it');
    if (option.kind === 'message' && first.name === 'map_entry')
      throw new OptionProblem('map_entry should not be set explicitly', first.pos, 'use map<KeyType, ValueType> instead');
    const proto = root.proto.field.find((f) => f.name === first.name);
    if (!proto) {
      const names = root.proto.field.map((f) => f.name).filter((n) => n !== 'uninterpreted_option');
      const close = names.find((n) => editDistance(n, first.name) <= 2);
      throw new OptionProblem(
        `"${first.name}" is not a ${kindWord} option`,
        first.pos,
        close ? `did you mean "${close}"?` : `${kindWord} options are ${names.join(', ')}; custom options are written (package.name)`,
      );
    }
    if (first.name === 'features' && ctx.file.proto.syntax !== 'editions') {
      throw new OptionProblem(
        'features are only valid under editions',
        first.pos,
        'remove the option, or migrate the file to edition = "2023";',
      );
    }
    return ctx.types.field(root, proto);
  }
  const found = ctx.linker.lookup(first.name, option.scope, ctx.file, false);
  const sym = found.sym;
  if (!sym) {
    const hint = found.hidden?.sym
      ? `it is defined in "${found.hidden.sym.file.proto.name}"; import that file`
      : `declare it with extend ${root.fullName} { ... } and import the file that does`;
    throw new OptionProblem(`option "(${first.name})" unknown: no extension named "${first.name}" is visible here`, first.pos, hint);
  }
  if (sym.kind !== 'extension')
    throw new OptionProblem(
      `option "(${first.name})" is not an extension: "${first.name}" is a ${sym.kind}`,
      first.pos,
      'custom options name an extension of an *Options message',
    );
  const ext = sym.desc as FieldDescriptorProto;
  if (ext.extendee !== `.${root.fullName}`) {
    throw new OptionProblem(
      `option "(${first.name})" is an extension of "${ext.extendee.slice(1)}", not of "${root.fullName}"`,
      first.pos,
      `it cannot be used on a ${kindWord}`,
    );
  }
  return ctx.types.extension(ext, found.fullName!, sym.file);
}

/** Part `i` (> 0) of an option name: a field or extension of the message the previous part names. */
function subField(ctx: Context, option: PendingOption, i: number, type: OptionMessageType): OptionField {
  const part = option.parts[i];
  const name = optionName(option, i + 1);
  if (!part.isExtension) {
    const proto = type.proto.field.find((f) => f.name === part.name);
    if (!proto) {
      const close = type.proto.field.map((f) => f.name).find((n) => editDistance(n, part.name) <= 2);
      throw new OptionProblem(
        `option "${name}" unknown: message "${type.fullName}" has no field named "${part.name}"`,
        part.pos,
        close ? `did you mean "${close}"?` : `its fields are ${type.proto.field.map((f) => f.name).join(', ') || '(none)'}`,
      );
    }
    return ctx.types.field(type, proto);
  }
  const found = ctx.linker.lookup(part.name, option.scope, ctx.file, false);
  const ext = found.sym?.kind === 'extension' ? (found.sym.desc as FieldDescriptorProto) : undefined;
  if (!found.sym || !ext || ext.extendee !== `.${type.fullName}`) {
    throw new OptionProblem(
      `option field "${name}" is not a field or extension of message "${type.proto.name}"`,
      part.pos,
      found.sym
        ? `"${part.name}" does not extend ${type.fullName}`
        : `no extension named "${part.name}" is visible here; import the file that declares it`,
    );
  }
  return ctx.types.extension(ext, found.fullName!, found.sym.file);
}

/** The value of `option name = value`, converted to the leaf field's type. */
function optionValue(ctx: Context, option: PendingOption, field: OptionField, fullName: string): MessageValue | Scalar {
  const value = option.value;
  const last = option.parts[option.parts.length - 1];
  const shortName = field.isExtension ? `(${last.name})` : last.name;
  if (field.kind === 'message') {
    if (value.kind !== 'aggregate') {
      throw new OptionProblem(
        `option "${fullName}" is a message: set it with ${shortName} = { <text format> }, or its fields with ${shortName}.field = value`,
        option.valuePos,
        `the value given is ${describe(value)}`,
      );
    }
    const lastToken = value.tokens[value.tokens.length - 1];
    const end = lastToken ? { line: lastToken.line, charColumn: lastToken.charColumn } : option.valuePos;
    return parseTextFormat(value.tokens, field.message(), textFormatScope(ctx), end);
  }
  if (field.kind === 'enum') {
    const enumType = field.enumType();
    const found = value.kind === 'identifier' ? enumType.proto.value.find((e) => e.name === value.value) : undefined;
    if (found) return found.number;
    const message =
      value.kind === 'identifier'
        ? `enum type "${enumType.fullName}" has no value named "${value.value}" for option "${fullName}"`
        : `value must be an identifier for enum-valued option "${fullName}"`;
    throw new OptionProblem(message, option.valuePos, `its values are ${enumType.proto.value.map((v) => v.name).join(', ')}`);
  }
  if (field.scalar === ScalarType.STRING && field.kind === 'scalar' && value.kind === 'string') {
    const text = stringOf(value.bytes, field);
    if (typeof text === 'object' && 'error' in text)
      throw new OptionProblem(
        `value of string option "${fullName}" is not valid UTF-8`,
        option.valuePos,
        'use a bytes option for raw bytes; protoc aborts on this value',
      );
    return text;
  }
  const scalar = scalarValue(field.scalar, value, fullName);
  if (typeof scalar === 'object' && 'error' in scalar)
    throw new OptionProblem(scalar.error, option.valuePos, `the value given is ${describe(value)}`);
  return scalar;
}

/** Extensions inside `[...]` of an aggregate: looked up from the message's scope, as protoc does. */
function textFormatScope(ctx: Context): TextFormatScope {
  return {
    types: ctx.types,
    findExtension(name, type) {
      const found = ctx.linker.lookup(name, type.fullName, ctx.file, false);
      const ext = found.sym?.kind === 'extension' ? (found.sym.desc as FieldDescriptorProto) : undefined;
      if (!found.sym || !ext || ext.extendee !== `.${type.fullName}`)
        return `extension "${name}" is not defined or is not an extension of "${type.fullName}"`;
      return ctx.types.extension(ext, found.fullName!, found.sym.file);
    },
  };
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
