/**
 * The declarations of one `<file>_pb.ts` in protoc-gen-es v2's shape: the embedded file
 * descriptor, then for every message, enum, extension and service (in `nestedTypes` order) its
 * type(s) and its `GenMessage` / `GenEnum` / `GenExtension` / `GenService` constant. All runtime
 * behaviour (binary, JSON, equality) lives in @bufbuild/protobuf and is driven by the descriptor,
 * so generated code holds no per-message functions.
 */
import type { DescEnum, DescExtension, DescField, DescFile, DescMessage, DescOneof, DescService } from '@bufbuild/protobuf';
import { embedFileDesc, pathInFileDesc } from '@bufbuild/protobuf/codegenv2';
import { nestedTypes } from '@bufbuild/protobuf/reflect';
import { isWrapperDesc } from '@bufbuild/protobuf/wkt';
import { propertyKey, stringLiteral } from '../core/builder/names.js';
import { elementDoc, schemaDoc } from './messages-docs.js';
import { fieldJsonType, fieldType, type References } from './messages-types.js';
import { extensionName, fileConstName, jsonTypeName, messageTypeName, schemaName, serviceConstName } from './names.js';

const PURE = '/*@__PURE__*/';

export interface MessageOptions {
  /**
   * Also declare each message's and enum's proto3 JSON type (`TaskJson`) and pass it to
   * `GenMessage`/`GenEnum`, so `toJson`/`fromJson` are typed: protoc-gen-es's `json_types=true`,
   * off by default as there.
   */
  jsonTypes: boolean;
}

/** Everything after the imports of the module for `refs.file`. */
export function fileDeclarations(refs: References, options: MessageOptions): string {
  const file = refs.file;
  const { jsonTypes } = options;
  const blocks = [fileConstant(file, refs)];
  for (const desc of nestedTypes(file)) {
    switch (desc.kind) {
      case 'message':
        blocks.push(messageShape(desc, refs), ...(jsonTypes ? [messageJsonShape(desc, refs)] : []), messageSchema(desc, refs, jsonTypes));
        break;
      case 'enum':
        blocks.push(enumShape(desc), ...(jsonTypes ? [enumJsonShape(desc)] : []), enumSchema(desc, refs, jsonTypes));
        break;
      case 'extension':
        blocks.push(extension(desc, refs));
        break;
      case 'service':
        blocks.push(service(desc, refs));
        break;
    }
  }
  return blocks.join('\n\n');
}

/** `messageDesc(file_x, 0, 1)`: the runtime looks the element up by its path in the file. */
function descCall(fn: string, desc: DescMessage | DescEnum | DescExtension | DescService, refs: References): string {
  return `${refs.runtimeValue(fn)}(${[fileConstName(refs.file), ...pathInFileDesc(desc)].join(', ')})`;
}

/**
 * The file descriptor as protoc-gen-es embeds it (`embedFileDesc`: no source info, no dependency
 * names, default JSON names cleared); `fileDesc` restores the dependencies from the imports.
 */
function fileConstant(file: DescFile, refs: References): string {
  const base64 = stringLiteral(embedFileDesc(file.proto).base64());
  const deps = file.dependencies.map((dep) => refs.fileValue(dep, fileConstName(dep)));
  const args = deps.length ? `${base64}, [${deps.join(', ')}]` : base64;
  return `${schemaDoc(file)}export const ${fileConstName(file)}: ${refs.runtimeType('GenFile', '@bufbuild/protobuf/codegenv2')} = ${PURE}\n  ${refs.runtimeValue('fileDesc')}(${args});`;
}

function messageShape(message: DescMessage, refs: References): string {
  const head = `${elementDoc(message)}export type ${messageTypeName(message)} = ${refs.runtimeType('Message')}<${stringLiteral(message.typeName)}>`;
  if (message.members.length === 0) return `${head};`;
  return `${head} & {\n${message.members.map((member) => memberShape(member, refs)).join('\n\n')}\n};`;
}

function memberShape(member: DescField | DescOneof, refs: References): string {
  if (member.kind === 'field') {
    const { type, optional } = fieldType(member, refs);
    return `${elementDoc(member, '  ')}  ${propertyKey(member.localName)}${optional ? '?' : ''}: ${type}${optional ? ' | undefined' : ''};`;
  }
  const cases = member.fields.map((field) => `{\n${elementDoc(field, '    ')}    value: ${fieldType(field, refs).type};\n    case: ${stringLiteral(field.localName)};\n  }`);
  return `${elementDoc(member, '  ')}  ${propertyKey(member.localName)}: ${cases.join(' | ')} | { case: undefined; value?: undefined };`;
}

/** The message's proto3 JSON form; well-known types have their own (RFC 3339 strings, etc.). */
function messageJsonShape(message: DescMessage, refs: References): string {
  const head = `${elementDoc(message)}export type ${jsonTypeName(message)} = `;
  switch (message.typeName) {
    case 'google.protobuf.Any':
      return `${head}{\n  "@type"?: string;\n};`;
    case 'google.protobuf.Timestamp':
    case 'google.protobuf.Duration':
    case 'google.protobuf.FieldMask':
      return `${head}string;`;
    case 'google.protobuf.Struct':
      return `${head}${refs.runtimeType('JsonObject')};`;
    case 'google.protobuf.Value':
      return `${head}${refs.runtimeType('JsonValue')};`;
    case 'google.protobuf.ListValue':
      return `${head}${refs.runtimeType('JsonValue')}[];`;
    case 'google.protobuf.Empty':
      return `${head}Record<string, never>;`;
  }
  if (isWrapperDesc(message)) return `${head}${fieldJsonType(message.fields[0], refs)};`;
  if (message.fields.length === 0) return `${head}{};`;
  const members = message.fields.map((field) => `${elementDoc(field, '  ')}  ${propertyKey(field.jsonName)}?: ${fieldJsonType(field, refs)};`);
  return `${head}{\n${members.join('\n\n')}\n};`;
}

function messageSchema(message: DescMessage, refs: References, jsonTypes: boolean): string {
  const json = jsonTypes ? `, { jsonType: ${jsonTypeName(message)} }` : '';
  const type = `${refs.runtimeType('GenMessage', '@bufbuild/protobuf/codegenv2')}<${messageTypeName(message)}${json}>`;
  return `${schemaDoc(message, schemaName(message))}export const ${schemaName(message)}: ${type} = ${PURE}\n  ${descCall('messageDesc', message, refs)};`;
}

function enumShape(desc: DescEnum): string {
  const values = desc.values.map((value) => `${elementDoc(value, '  ')}  ${propertyKey(value.localName)} = ${value.number},`);
  return `${elementDoc(desc)}export enum ${messageTypeName(desc)} {\n${values.join('\n\n')}\n}`;
}

function enumJsonShape(desc: DescEnum): string {
  const values = desc.typeName === 'google.protobuf.NullValue' ? 'null' : desc.values.map((value) => stringLiteral(value.name)).join(' | ');
  return `${elementDoc(desc)}export type ${jsonTypeName(desc)} = ${values};`;
}

function enumSchema(desc: DescEnum, refs: References, jsonTypes: boolean): string {
  const json = jsonTypes ? `, ${jsonTypeName(desc)}` : '';
  const type = `${refs.runtimeType('GenEnum', '@bufbuild/protobuf/codegenv2')}<${messageTypeName(desc)}${json}>`;
  return `${schemaDoc(desc)}export const ${schemaName(desc)}: ${type} = ${PURE}\n  ${descCall('enumDesc', desc, refs)};`;
}

function extension(desc: DescExtension, refs: References): string {
  const type = `${refs.runtimeType('GenExtension', '@bufbuild/protobuf/codegenv2')}<${refs.shape(desc.extendee)}, ${fieldType(desc, refs).type}>`;
  return `${elementDoc(desc)}export const ${extensionName(desc)}: ${type} = ${PURE}\n  ${descCall('extDesc', desc, refs)};`;
}

function service(desc: DescService, refs: References): string {
  const methods = desc.methods.map((method) => [
    `${elementDoc(method, '  ')}  ${propertyKey(method.localName)}: {`,
    `    methodKind: ${stringLiteral(method.methodKind)};`,
    `    input: typeof ${refs.schemaType(method.input)};`,
    `    output: typeof ${refs.schemaType(method.output)};`,
    '  };',
  ].join('\n'));
  const type = `${refs.runtimeType('GenService', '@bufbuild/protobuf/codegenv2')}<{\n${methods.join('\n\n')}\n}>`;
  return `${elementDoc(desc)}export const ${serviceConstName(desc)}: ${type} = ${PURE}\n  ${descCall('serviceDesc', desc, refs)};`;
}
