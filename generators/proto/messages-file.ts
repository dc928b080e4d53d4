/**
 * The declarations of one `<file>_pb.ts` in protoc-gen-es v2's shape, as its template's context
 * (templates/proto/messages.ts.hbs writes the statements): the embedded file descriptor, then for
 * every message, enum, extension and service (in `nestedTypes` order) its type(s) and its
 * `GenMessage` / `GenEnum` / `GenExtension` / `GenService` constant, with names and types printed
 * here through the file's builder. All runtime behaviour (binary, JSON, equality) lives in
 * @bufbuild/protobuf and is driven by the descriptor, so generated code holds no per-message functions.
 */
import type { DescEnum, DescExtension, DescField, DescFile, DescMessage, DescOneof, DescService } from '@bufbuild/protobuf';
import { embedFileDesc, pathInFileDesc } from '@bufbuild/protobuf/codegenv2';
import { nestedTypes } from '@bufbuild/protobuf/reflect';
import { isWrapperDesc } from '@bufbuild/protobuf/wkt';
import { propertyKey, stringLiteral } from '../core/builder/names.js';
import { elementDoc, schemaDoc } from './messages-docs.js';
import { fieldJsonType, fieldType, type References } from './messages-types.js';
import { extensionName, fileConstName, jsonTypeName, messageTypeName, schemaName, serviceConstName } from './names.js';
import type { DeclarationContext, MemberContext } from './template-context.js';

export interface MessageOptions {
  /**
   * Also declare each message's and enum's proto3 JSON type (`TaskJson`) and pass it to
   * `GenMessage`/`GenEnum`, so `toJson`/`fromJson` are typed: protoc-gen-es's `json_types=true`,
   * off by default as there.
   */
  jsonTypes: boolean;
}

/** The declarations of the module for `refs.file`, in protoc-gen-es's order; the template prints them. */
export function fileDeclarations(refs: References, options: MessageOptions): DeclarationContext[] {
  const file = refs.file;
  const { jsonTypes } = options;
  const declarations = [fileConstant(file, refs)];
  for (const desc of nestedTypes(file)) {
    switch (desc.kind) {
      case 'message':
        declarations.push(
          messageShape(desc, refs),
          ...(jsonTypes ? [messageJsonShape(desc, refs)] : []),
          messageSchema(desc, refs, jsonTypes),
        );
        break;
      case 'enum':
        declarations.push(enumShape(desc), ...(jsonTypes ? [enumJsonShape(desc)] : []), enumSchema(desc, refs, jsonTypes));
        break;
      case 'extension':
        declarations.push(extension(desc, refs));
        break;
      case 'service':
        declarations.push(service(desc, refs));
        break;
    }
  }
  return declarations;
}

const none = { constant: undefined, alias: undefined, object: undefined, enum: undefined };

function constant(doc: string, name: string, type: string, init: string): DeclarationContext {
  return { ...none, constant: { doc, name, type, init } };
}

function alias(doc: string, name: string, type: string): DeclarationContext {
  return { ...none, alias: { doc, name, type } };
}

/** `messageDesc(file_x, 0, 1)`: the runtime looks the element up by its path in the file. */
function descCall(fn: string, desc: DescMessage | DescEnum | DescExtension | DescService, refs: References): string {
  return `${refs.runtimeValue(fn)}(${[fileConstName(refs.file), ...pathInFileDesc(desc)].join(', ')})`;
}

/**
 * The file descriptor as protoc-gen-es embeds it (`embedFileDesc`: no source info, no dependency
 * names, default JSON names cleared); `fileDesc` restores the dependencies from the imports.
 */
function fileConstant(file: DescFile, refs: References): DeclarationContext {
  const base64 = stringLiteral(embedFileDesc(file.proto).base64());
  const deps = file.dependencies.map((dep) => refs.fileValue(dep, fileConstName(dep)));
  const args = deps.length ? `${base64}, [${deps.join(', ')}]` : base64;
  return constant(
    schemaDoc(file),
    fileConstName(file),
    refs.runtimeType('GenFile', '@bufbuild/protobuf/codegenv2'),
    `${refs.runtimeValue('fileDesc')}(${args})`,
  );
}

function messageShape(message: DescMessage, refs: References): DeclarationContext {
  const base = `${refs.runtimeType('Message')}<${stringLiteral(message.typeName)}>`;
  if (message.members.length === 0) return alias(elementDoc(message), messageTypeName(message), base);
  const members = message.members.map((member) => memberShape(member, refs));
  return { ...none, object: { doc: elementDoc(message), name: messageTypeName(message), base: `${base} & `, members } };
}

function memberShape(member: DescField | DescOneof, refs: References): MemberContext {
  if (member.kind === 'field') {
    const { type, optional } = fieldType(member, refs);
    return { doc: elementDoc(member, '  '), key: propertyKey(member.localName), optional, type: optional ? `${type} | undefined` : type };
  }
  const cases = member.fields.map(
    (field) =>
      `{\n${elementDoc(field, '    ')}    value: ${fieldType(field, refs).type};\n    case: ${stringLiteral(field.localName)};\n  }`,
  );
  const type = `${cases.join(' | ')} | { case: undefined; value?: undefined }`;
  return { doc: elementDoc(member, '  '), key: propertyKey(member.localName), optional: false, type };
}

/** The message's proto3 JSON form; well-known types have their own (RFC 3339 strings, etc.). */
function messageJsonShape(message: DescMessage, refs: References): DeclarationContext {
  const doc = elementDoc(message);
  const name = jsonTypeName(message);
  switch (message.typeName) {
    case 'google.protobuf.Any':
      return {
        ...none,
        object: { doc, name, base: '', members: [{ doc: '', key: propertyKey('@type'), optional: true, type: 'string' }] },
      };
    case 'google.protobuf.Timestamp':
    case 'google.protobuf.Duration':
    case 'google.protobuf.FieldMask':
      return alias(doc, name, 'string');
    case 'google.protobuf.Struct':
      return alias(doc, name, refs.runtimeType('JsonObject'));
    case 'google.protobuf.Value':
      return alias(doc, name, refs.runtimeType('JsonValue'));
    case 'google.protobuf.ListValue':
      return alias(doc, name, `${refs.runtimeType('JsonValue')}[]`);
    case 'google.protobuf.Empty':
      return alias(doc, name, 'Record<string, never>');
  }
  if (isWrapperDesc(message)) return alias(doc, name, fieldJsonType(message.fields[0], refs));
  if (message.fields.length === 0) return alias(doc, name, '{}');
  const members = message.fields.map((field) => {
    return { doc: elementDoc(field, '  '), key: propertyKey(field.jsonName), optional: true, type: fieldJsonType(field, refs) };
  });
  return { ...none, object: { doc, name, base: '', members } };
}

function messageSchema(message: DescMessage, refs: References, jsonTypes: boolean): DeclarationContext {
  const json = jsonTypes ? `, { jsonType: ${jsonTypeName(message)} }` : '';
  const type = `${refs.runtimeType('GenMessage', '@bufbuild/protobuf/codegenv2')}<${messageTypeName(message)}${json}>`;
  return constant(schemaDoc(message, schemaName(message)), schemaName(message), type, descCall('messageDesc', message, refs));
}

function enumShape(desc: DescEnum): DeclarationContext {
  const values = desc.values.map((value) => ({ doc: elementDoc(value, '  '), key: propertyKey(value.localName), number: value.number }));
  return { ...none, enum: { doc: elementDoc(desc), name: messageTypeName(desc), values } };
}

function enumJsonShape(desc: DescEnum): DeclarationContext {
  const values = desc.typeName === 'google.protobuf.NullValue' ? 'null' : desc.values.map((value) => stringLiteral(value.name)).join(' | ');
  return alias(elementDoc(desc), jsonTypeName(desc), values);
}

function enumSchema(desc: DescEnum, refs: References, jsonTypes: boolean): DeclarationContext {
  const json = jsonTypes ? `, ${jsonTypeName(desc)}` : '';
  const type = `${refs.runtimeType('GenEnum', '@bufbuild/protobuf/codegenv2')}<${messageTypeName(desc)}${json}>`;
  return constant(schemaDoc(desc), schemaName(desc), type, descCall('enumDesc', desc, refs));
}

function extension(desc: DescExtension, refs: References): DeclarationContext {
  const type = `${refs.runtimeType('GenExtension', '@bufbuild/protobuf/codegenv2')}<${refs.shape(desc.extendee)}, ${fieldType(desc, refs).type}>`;
  return constant(elementDoc(desc), extensionName(desc), type, descCall('extDesc', desc, refs));
}

function service(desc: DescService, refs: References): DeclarationContext {
  const methods = desc.methods.map((method) =>
    [
      `${elementDoc(method, '  ')}  ${propertyKey(method.localName)}: {`,
      `    methodKind: ${stringLiteral(method.methodKind)};`,
      `    input: typeof ${refs.schemaType(method.input)};`,
      `    output: typeof ${refs.schemaType(method.output)};`,
      '  };',
    ].join('\n'),
  );
  const type = `${refs.runtimeType('GenService', '@bufbuild/protobuf/codegenv2')}<{\n${methods.join('\n\n')}\n}>`;
  return constant(elementDoc(desc), serviceConstName(desc), type, descCall('serviceDesc', desc, refs));
}
