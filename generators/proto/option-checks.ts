/**
 * The rules protoc's ValidateOptions applies to interpreted builtin field options: `packed` only on
 * repeated primitive fields (and not at all under editions), `lazy` only on message fields,
 * `jstype` only on 64-bit integers, `ctype` gone from edition 2024; and a file that is not
 * `optimize_for = LITE_RUNTIME` importing one that is. Each error points at the option or import.
 */
import { isFieldSet } from '@bufbuild/protobuf';
import { Edition, FieldDescriptorProto_Label, FieldDescriptorProto_Type, FieldOptionsSchema, FileOptions_OptimizeMode } from '@bufbuild/protobuf/wkt';
import type { DescriptorProto, FieldDescriptorProto } from '@bufbuild/protobuf/wkt';
import type { Pos } from './parse.js';
import type { Linker, LinkFile } from './resolve.js';

const NOT_PACKABLE = new Set([FieldDescriptorProto_Type.STRING, FieldDescriptorProto_Type.BYTES, FieldDescriptorProto_Type.MESSAGE, FieldDescriptorProto_Type.GROUP]);
const INT64_TYPES = new Set([FieldDescriptorProto_Type.INT64, FieldDescriptorProto_Type.UINT64, FieldDescriptorProto_Type.SINT64, FieldDescriptorProto_Type.FIXED64, FieldDescriptorProto_Type.SFIXED64]);

export function checkFieldOptions(file: LinkFile, linker: Linker): void {
  const editions = file.proto.syntax === 'editions';
  /** Where `name = ...` is written on the field, else the field's name. */
  const at = (field: FieldDescriptorProto, name: string): Pos | undefined =>
    file.options.find((o) => o.owner === field && !o.parts[0].isExtension && o.parts[0].name === name)?.parts[0].pos ?? file.positions.get(field)?.name;
  const check = (field: FieldDescriptorProto) => {
    const options = field.options;
    if (!options) return;
    const repeated = field.label === FieldDescriptorProto_Label.REPEATED;
    const message = field.type === FieldDescriptorProto_Type.MESSAGE || field.type === FieldDescriptorProto_Type.GROUP;
    if (editions && isFieldSet(options, FieldOptionsSchema.field.packed)) {
      linker.problem(file, at(field, 'packed'), 'field option packed is not allowed under editions; use the repeated_field_encoding feature to control this behavior', 'write [features.repeated_field_encoding = EXPANDED] (PACKED is the default)');
    } else if (options.packed && (!repeated || NOT_PACKABLE.has(field.type))) {
      linker.problem(file, at(field, 'packed'), '[packed = true] can only be specified for repeated primitive fields', 'remove the option: strings, bytes, messages and singular fields are never packed');
    }
    if (options.lazy && !message) linker.problem(file, at(field, 'lazy'), '[lazy = true] can only be specified for submessage fields', 'remove the option');
    if (options.unverifiedLazy && !message) linker.problem(file, at(field, 'unverified_lazy'), '[unverified_lazy = true] can only be specified for submessage fields', 'remove the option');
    if (isFieldSet(options, FieldOptionsSchema.field.jstype) && !INT64_TYPES.has(field.type)) {
      linker.problem(file, at(field, 'jstype'), 'jstype is only allowed on int64, uint64, sint64, fixed64 or sfixed64 fields', 'remove the option');
    }
    if (editions && file.proto.edition >= Edition.EDITION_2024 && isFieldSet(options, FieldOptionsSchema.field.ctype)) {
      linker.problem(file, at(field, 'ctype'), 'ctype option is not allowed under edition 2024 and beyond', 'use the feature string_type = VIEW|CORD|STRING|... instead');
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
  const lite = (options: { optimizeFor?: FileOptions_OptimizeMode } | undefined) => options?.optimizeFor === FileOptions_OptimizeMode.LITE_RUNTIME;
  if (lite(file.proto.options)) return;
  file.proto.dependency.forEach((name, i) => {
    if (!lite(linker.fileNamed(name)?.proto.options)) return;
    linker.problem(file, file.importPositions[i], `files that do not use optimize_for = LITE_RUNTIME cannot import files which do use this option: this file is not lite, but it imports "${name}" which is`, 'add option optimize_for = LITE_RUNTIME; to this file too, or drop it from the imported one');
  });
}
