/**
 * The rules protoc's ValidateOptions applies to interpreted builtin field options: `packed` only on
 * repeated primitive fields (and not at all under editions), `lazy` only on message fields,
 * `jstype` only on 64-bit integers, `ctype` gone from edition 2024; a file that is not
 * `optimize_for = LITE_RUNTIME` importing one that is; and protoc's ValidateFieldFeatures on the
 * `features` of editions fields. Each error points at the option or import.
 */
import { isFieldSet } from '@bufbuild/protobuf';
import {
  Edition,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldOptionsSchema,
  FileOptions_OptimizeMode,
} from '@bufbuild/protobuf/wkt';
import { FeatureSet_FieldPresence, FeatureSet_RepeatedFieldEncoding, FieldDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { DescriptorProto, FieldDescriptorProto } from '@bufbuild/protobuf/wkt';
import { inOneof, UnresolvedOptionType } from './option-types.js';
import type { OptionField, OptionTypes } from './option-types.js';
import type { Pos } from './parse.js';
import type { Linker, LinkFile } from './resolve.js';

const NOT_PACKABLE = new Set([
  FieldDescriptorProto_Type.STRING,
  FieldDescriptorProto_Type.BYTES,
  FieldDescriptorProto_Type.MESSAGE,
  FieldDescriptorProto_Type.GROUP,
]);
const INT64_TYPES = new Set([
  FieldDescriptorProto_Type.INT64,
  FieldDescriptorProto_Type.UINT64,
  FieldDescriptorProto_Type.SINT64,
  FieldDescriptorProto_Type.FIXED64,
  FieldDescriptorProto_Type.SFIXED64,
]);

export function checkFieldOptions(file: LinkFile, linker: Linker): void {
  const editions = file.proto.syntax === 'editions';
  /** Where `name = ...` is written on the field, else the field's name. */
  const at = (field: FieldDescriptorProto, name: string): Pos | undefined =>
    file.options.find((o) => o.owner === field && !o.parts[0].isExtension && o.parts[0].name === name)?.parts[0].pos ??
    file.positions.get(field)?.name;
  const check = (field: FieldDescriptorProto) => {
    const options = field.options;
    if (!options) return;
    const repeated = field.label === FieldDescriptorProto_Label.REPEATED;
    const message = field.type === FieldDescriptorProto_Type.MESSAGE || field.type === FieldDescriptorProto_Type.GROUP;
    if (editions && isFieldSet(options, FieldOptionsSchema.field.packed)) {
      linker.problem(
        file,
        at(field, 'packed'),
        'field option packed is not allowed under editions; use the repeated_field_encoding feature to control this behavior',
        'write [features.repeated_field_encoding = EXPANDED] (PACKED is the default)',
      );
    } else if (options.packed && (!repeated || NOT_PACKABLE.has(field.type))) {
      linker.problem(
        file,
        at(field, 'packed'),
        '[packed = true] can only be specified for repeated primitive fields',
        'remove the option: strings, bytes, messages and singular fields are never packed',
      );
    }
    if (options.lazy && !message)
      linker.problem(file, at(field, 'lazy'), '[lazy = true] can only be specified for submessage fields', 'remove the option');
    if (options.unverifiedLazy && !message)
      linker.problem(
        file,
        at(field, 'unverified_lazy'),
        '[unverified_lazy = true] can only be specified for submessage fields',
        'remove the option',
      );
    if (isFieldSet(options, FieldOptionsSchema.field.jstype) && !INT64_TYPES.has(field.type)) {
      linker.problem(
        file,
        at(field, 'jstype'),
        'jstype is only allowed on int64, uint64, sint64, fixed64 or sfixed64 fields',
        'remove the option',
      );
    }
    if (editions && file.proto.edition >= Edition.EDITION_2024 && isFieldSet(options, FieldOptionsSchema.field.ctype)) {
      linker.problem(
        file,
        at(field, 'ctype'),
        'ctype option is not allowed under edition 2024 and beyond',
        'use the feature string_type = VIEW|CORD|STRING|... instead',
      );
    }
  };
  const walk = (m: DescriptorProto) => {
    m.field.forEach(check);
    m.extension.forEach(check);
    m.nestedType.forEach(walk);
  };
  file.proto.messageType.forEach(walk);
  file.proto.extension.forEach(check);
}

/** protoc: a file that is not lite cannot import a lite one (the generated code could not link). */
export function checkLiteImports(file: LinkFile, linker: Linker): void {
  const lite = (options: { optimizeFor?: FileOptions_OptimizeMode } | undefined) =>
    options?.optimizeFor === FileOptions_OptimizeMode.LITE_RUNTIME;
  if (lite(file.proto.options)) return;
  file.proto.dependency.forEach((name, i) => {
    if (!lite(linker.fileNamed(name)?.proto.options)) return;
    linker.problem(
      file,
      file.importPositions[i],
      `files that do not use optimize_for = LITE_RUNTIME cannot import files which do use this option: this file is not lite, but it imports "${name}" which is`,
      'add option optimize_for = LITE_RUNTIME; to this file too, or drop it from the imported one',
    );
  });
}

/** protoc's ValidateFieldFeatures: which features each kind of field may set, and what they imply. */
export function checkFieldFeatures(file: LinkFile, linker: Linker, types: OptionTypes): void {
  if (file.proto.syntax !== 'editions') return;
  /** Where `features.<name>` (or a whole `features = {...}`) is set on `owner`, else its name. */
  const at = (owner: object, name: string): Pos | undefined =>
    file.options.find(
      (o) =>
        o.owner === owner &&
        !o.parts[0].isExtension &&
        o.parts[0].name === 'features' &&
        (o.parts.length === 1 || o.parts[1]?.name === name),
    )?.parts[0].pos ?? file.positions.get(owner)?.name;
  // field_presence targets fields and files only, so the file is the one default to check.
  if (file.proto.options?.features?.fieldPresence === FeatureSet_FieldPresence.LEGACY_REQUIRED) {
    linker.problem(
      file,
      at(file.proto, 'field_presence'),
      "required presence can't be specified by default",
      'set features.field_presence = LEGACY_REQUIRED on the fields that need it',
    );
  }
  /** Checks one field; a field whose type did not resolve has its own error already. */
  const checkSafely = (proto: FieldDescriptorProto, describe: () => OptionField, inMapEntry: boolean) => {
    try {
      check(proto, describe(), inMapEntry);
    } catch (cause) {
      if (!(cause instanceof UnresolvedOptionType)) throw cause;
    }
  };
  const check = (proto: FieldDescriptorProto, field: OptionField, inMapEntry: boolean) => {
    const positions = file.positions.get(proto);
    const isMap = field.repeated && field.kind === 'message' && field.message().proto.options?.mapEntry === true;
    if (field.implicit && isFieldSet(proto, FieldDescriptorProtoSchema.field.defaultValue)) {
      linker.problem(
        file,
        positions?.['default'] ?? positions?.name,
        "implicit presence fields can't specify defaults",
        'remove the default, or give the field explicit presence',
      );
    }
    if (field.implicit && field.kind === 'enum' && field.enumType().closed) {
      linker.problem(
        file,
        positions?.name,
        'implicit presence enum fields must always be open',
        'give the field explicit presence, or make the enum open',
      );
    }
    const own = proto.options?.features;
    if (field.isExtension && own?.fieldPresence === FeatureSet_FieldPresence.LEGACY_REQUIRED) {
      linker.problem(file, at(proto, 'field_presence'), "extensions can't be required", 'remove features.field_presence');
    }
    if (inMapEntry || !own) return;
    const problem = (name: string, message: string) =>
      linker.problem(file, at(proto, name), message, `remove features.${name} from this field`);
    if (own.fieldPresence !== 0) {
      if (inOneof(proto)) problem('field_presence', "oneof fields can't specify field presence");
      else if (field.repeated) problem('field_presence', "repeated fields can't specify field presence");
      else if (field.isExtension && own.fieldPresence !== FeatureSet_FieldPresence.LEGACY_REQUIRED)
        problem('field_presence', "extensions can't specify field presence");
      else if (field.kind === 'message' && own.fieldPresence === FeatureSet_FieldPresence.IMPLICIT)
        problem('field_presence', "message fields can't specify implicit presence");
    }
    if (!field.repeated && own.repeatedFieldEncoding !== 0)
      problem('repeated_field_encoding', 'only repeated fields can specify repeated field encoding');
    if (proto.type !== FieldDescriptorProto_Type.STRING && !isMap && own.utf8Validation !== 0)
      problem('utf8_validation', 'only string fields can specify utf8 validation');
    if (own.repeatedFieldEncoding === FeatureSet_RepeatedFieldEncoding.PACKED && (!field.repeated || NOT_PACKABLE.has(proto.type))) {
      problem('repeated_field_encoding', 'only repeated primitive fields can specify PACKED repeated field encoding');
    }
    if ((field.kind !== 'message' || isMap) && own.messageEncoding !== 0)
      problem('message_encoding', 'only message fields can specify message encoding');
  };
  const walk = (m: DescriptorProto, fullName: string) => {
    const type = types.message(fullName);
    if (type) for (const proto of m.field) checkSafely(proto, () => types.field(type, proto), m.options?.mapEntry === true);
    for (const ext of m.extension) checkSafely(ext, () => types.extension(ext, `${fullName}.${ext.name}`, file), false);
    for (const nested of m.nestedType) walk(nested, `${fullName}.${nested.name}`);
  };
  const pkg = file.proto.package;
  for (const m of file.proto.messageType) walk(m, pkg ? `${pkg}.${m.name}` : m.name);
  for (const ext of file.proto.extension) checkSafely(ext, () => types.extension(ext, pkg ? `${pkg}.${ext.name}` : ext.name, file), false);
}
