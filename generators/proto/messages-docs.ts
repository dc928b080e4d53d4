/**
 * JSDoc for generated proto code, as protoc-gen-es writes it: the element's leading and trailing
 * comments from `source_code_info`, then `@generated from ...` naming the proto declaration, then
 * `@deprecated` from options. The text goes through `jsDoc` (generators/core/builder/names.ts), so a
 * comment containing `*\/` cannot end the block early.
 */
import { isFieldSet, ScalarType } from '@bufbuild/protobuf';
import type { AnyDesc, DescEnum, DescEnumValue, DescExtension, DescField, DescFile, DescMessage } from '@bufbuild/protobuf';
import { parentTypes, protoCamelCase, reflect } from '@bufbuild/protobuf/reflect';
import {
  Edition,
  FeatureSetSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FieldOptions_JSType,
  FieldOptionsSchema,
} from '@bufbuild/protobuf/wkt';
import { jsDoc } from '../core/builder/names.js';

type Element = Exclude<AnyDesc, DescFile>;

/** The `source_code_info` path of an element (FileDescriptorProto field numbers and indexes). */
function sourcePath(desc: Element): number[] {
  switch (desc.kind) {
    case 'message':
      return desc.parent
        ? [...sourcePath(desc.parent), 3, desc.parent.proto.nestedType.indexOf(desc.proto)]
        : [4, desc.file.proto.messageType.indexOf(desc.proto)];
    case 'enum':
      return desc.parent
        ? [...sourcePath(desc.parent), 4, desc.parent.proto.enumType.indexOf(desc.proto)]
        : [5, desc.file.proto.enumType.indexOf(desc.proto)];
    case 'extension':
      return desc.parent
        ? [...sourcePath(desc.parent), 6, desc.parent.proto.extension.indexOf(desc.proto)]
        : [7, desc.file.proto.extension.indexOf(desc.proto)];
    case 'service':
      return [6, desc.file.proto.service.indexOf(desc.proto)];
    case 'field':
      return [...sourcePath(desc.parent), 2, desc.parent.proto.field.indexOf(desc.proto)];
    case 'oneof':
      return [...sourcePath(desc.parent), 8, desc.parent.proto.oneofDecl.indexOf(desc.proto)];
    case 'enum_value':
      return [...sourcePath(desc.parent), 2, desc.parent.proto.value.indexOf(desc.proto)];
    case 'rpc':
      return [...sourcePath(desc.parent), 2, desc.parent.proto.method.indexOf(desc.proto)];
  }
}

function fileOf(desc: Element): DescFile {
  switch (desc.kind) {
    case 'field':
    case 'oneof':
    case 'enum_value':
    case 'rpc':
      return fileOf(desc.parent);
    default:
      return desc.file;
  }
}

/** Leading and trailing comments of an element, joined by a blank line, one leading space per line removed. */
export function commentsOf(desc: Element): string {
  const path = sourcePath(desc);
  const location = fileOf(desc).proto.sourceCodeInfo?.location.find(
    (loc) => loc.path.length === path.length && loc.path.every((n, i) => n === path[i]),
  );
  if (!location) return '';
  const parts = [location.leadingComments, location.trailingComments].filter((text) => text !== '').map((text) => text.replace(/\n$/, ''));
  return parts
    .join('\n\n')
    .split('\n')
    .map((line) => (line.startsWith(' ') ? line.substring(1) : line))
    .join('\n');
}

function typeNameOf(field: DescField | DescExtension): string {
  if (field.message) return field.message.typeName;
  if (field.enum) return field.enum.typeName;
  return ScalarType[field.scalar].toLowerCase();
}

/** The edition of the file declaring a field or extension (`EDITION_PROTO2`, `EDITION_2023`...). */
function editionOf(field: DescField | DescExtension): Edition {
  return (field.kind === 'extension' ? field.file : field.parent.file).edition;
}

/**
 * The label keyword the field was declared with, as far as the descriptor tells: `required` in
 * proto2; `optional` for proto2 fields outside oneofs and proto3 `optional` fields. Editions have
 * no labels (presence is a feature).
 */
function labelKeyword(field: DescField | DescExtension): string | undefined {
  switch (editionOf(field)) {
    case Edition.EDITION_PROTO2:
      if (field.proto.label === FieldDescriptorProto_Label.REQUIRED) return 'required';
      return field.oneof ? undefined : 'optional';
    case Edition.EDITION_PROTO3:
      return field.proto.proto3Optional ? 'optional' : undefined;
    default:
      return undefined;
  }
}

/**
 * `default = -5`, `default = "abc"`: the proto2 default as protoc stores it. protoc stores a bytes
 * default C-escaped already and a string default as is, so only the latter's quotes are escaped
 * (protoc-gen-es escapes the first `"` of either, which a comparison test allows for).
 */
function defaultOption(field: DescField | DescExtension): string | undefined {
  if (!isFieldSet(field.proto, FieldDescriptorProtoSchema.field.defaultValue)) return undefined;
  const value = field.proto.defaultValue;
  switch (field.proto.type) {
    case FieldDescriptorProto_Type.STRING:
      return `default = "${value.replace(/"/g, '\\"')}"`;
    case FieldDescriptorProto_Type.BYTES:
      return `default = "${value}"`;
    default:
      return `default = ${value}`;
  }
}

/**
 * `features.field_presence = LEGACY_REQUIRED`: the edition features an element sets itself (not
 * the ones it inherits), as protoc-gen-es lists them.
 */
export function featureOptions(desc: DescFile | DescField | DescExtension | DescMessage | DescEnum): string[] {
  const features = desc.proto.options?.features;
  if (features === undefined) return [];
  const set = reflect(FeatureSetSchema, features);
  const options: string[] = [];
  for (const field of set.fields) {
    if (field.fieldKind !== 'enum' || !set.isSet(field)) continue;
    const value = field.enum.values.find((candidate) => candidate.number === set.get(field));
    if (value) options.push(`features.${field.name} = ${value.name}`);
  }
  return options;
}

/** `repeated string labels = 6`, `required int32 id = 1 [default = 5]`, as in the .proto. */
function declaration(desc: DescField | DescExtension | DescEnumValue): string {
  if (desc.kind === 'enum_value')
    return `${desc.name} = ${desc.number}${desc.proto.options?.deprecated === true ? ' [deprecated = true]' : ''}`;
  const parts: string[] = [];
  switch (desc.fieldKind) {
    case 'list':
      parts.push('repeated', typeNameOf(desc));
      break;
    case 'map':
      parts.push(`map<${ScalarType[desc.mapKey].toLowerCase()}, ${typeNameOf(desc)}>`);
      break;
    default: {
      const label = labelKeyword(desc);
      if (label) parts.push(label);
      parts.push(typeNameOf(desc));
    }
  }
  parts.push(desc.name, '=', String(desc.number));
  const options: string[] = [];
  const o = desc.proto.options;
  if (o && isFieldSet(o, FieldOptionsSchema.field.packed)) options.push(`packed = ${o.packed}`);
  const defaultValue = defaultOption(desc);
  if (defaultValue) options.push(defaultValue);
  if (desc.kind === 'field' && desc.jsonName !== protoCamelCase(desc.name)) options.push(`json_name = "${desc.jsonName}"`);
  if (o && isFieldSet(o, FieldOptionsSchema.field.jstype)) options.push(`jstype = ${FieldOptions_JSType[o.jstype]}`);
  // As written: protoc-gen-es says `deprecated = true` for `deprecated = false` too.
  if (o && isFieldSet(o, FieldOptionsSchema.field.deprecated)) options.push(`deprecated = ${o.deprecated}`);
  options.push(...featureOptions(desc));
  if (options.length) parts.push(`[${options.join(', ')}]`);
  return parts.join(' ');
}

function deprecated(desc: Element): boolean {
  switch (desc.kind) {
    case 'field':
    case 'enum_value':
    case 'rpc':
      return desc.deprecated;
    default:
      return desc.deprecated || parentTypes(desc).some((parent) => parent.deprecated);
  }
}

/** The JSDoc block of an element's declaration (type, enum, member, method), indented. */
export function elementDoc(desc: Element, indent = ''): string {
  let origin: string;
  switch (desc.kind) {
    case 'enum_value':
      origin = `@generated from enum value: ${declaration(desc)};`;
      break;
    case 'field':
      origin = `@generated from field: ${declaration(desc)};`;
      break;
    case 'extension':
      origin = `@generated from extension: ${declaration(desc)};`;
      break;
    case 'message':
    case 'enum': {
      const features = featureOptions(desc);
      origin = `@generated from ${desc.toString()}`;
      if (features.length) origin += `\n@generated with ${features.length > 1 ? 'options' : 'option'} ${features.join(', ')}`;
      break;
    }
    default:
      origin = `@generated from ${desc.toString()}`;
  }
  const comments = commentsOf(desc);
  const text = `${comments ? `${comments}\n\n` : ''}${origin}${deprecated(desc) ? '\n@deprecated' : ''}`;
  return jsDoc([text], indent);
}

/**
 * The comments protoc-gen-es copies from the `.proto` file into the generated file's preamble: the
 * detached and leading comments of the `syntax` statement (a license, a copyright, what the file
 * is), then those of the `package` statement. Each block becomes `//` lines followed by a blank
 * line, as protoplugin writes them; they follow codegen's header line, which stays first so
 * codegen recognises its own files. Every line break JavaScript knows (U+2028 included) starts a
 * new `//` line, so a comment cannot end up as code. An editions file's own features come after
 * the syntax comments as `// option ...;` lines, as protoc-gen-es lists them.
 */
export function fileComments(file: DescFile): string {
  const locations = file.proto.sourceCodeInfo?.location ?? [];
  const blocks: string[] = [];
  for (const statement of [FILE_SYNTAX, FILE_PACKAGE]) {
    const location = locations.find((candidate) => candidate.path.length === 1 && candidate.path[0] === statement);
    if (location) {
      for (const comment of [...location.leadingDetachedComments, location.leadingComments]) {
        if (comment === '') continue;
        blocks.push(
          comment
            .replace(/\n$/, '')
            .split(/\r\n|[\n\r\u2028\u2029]/)
            .map((line) => `//${line}`)
            .join('\n'),
        );
      }
    }
    // The file's own edition features (they change how every field encodes), where protoc-gen-es
    // lists them: after the syntax comments, before the package's.
    const features = statement === FILE_SYNTAX ? featureOptions(file) : [];
    if (features.length) blocks.push(features.map((option) => `// option ${option};`).join('\n'));
  }
  // After a blank line below the header; the imports follow a blank line too.
  return blocks.length ? `\n${blocks.map((block) => `${block}\n\n`).join('')}` : '';
}

/** FileDescriptorProto field numbers: `syntax` (12) and `package` (2), the paths of their statements. */
const FILE_SYNTAX = 12;
const FILE_PACKAGE = 2;

/** The JSDoc of a `*Schema` / `file_*` constant. */
export function schemaDoc(desc: DescFile | Exclude<Element, DescField | DescEnumValue>, schema?: string): string {
  const lines = [`Describes the ${desc.toString()}.`];
  if (desc.kind === 'message' && schema) lines.push(`Use \`create(${schema})\` to create a new message.`);
  if (desc.kind === 'file' ? desc.deprecated : deprecated(desc)) lines.push('@deprecated');
  return jsDoc([lines.join('\n')]);
}
