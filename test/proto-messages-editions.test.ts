/**
 * Messages for proto2 and editions files, on the conformance suite's test protos (proto2 with
 * required fields, defaults, groups, extensions and closed enums; edition 2023 with delimited
 * encoding and features): codegen's `_pb.ts` modules must equal protoc-gen-es v2's (installed as a
 * devDependency and run through protoc) declaration for declaration, type for type and JSDoc for
 * JSDoc, with and without JSON types; they type-check under strict with typed user code; and the
 * proto2 and editions semantics hold at run time through the generated constants.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  create,
  createRegistry,
  fromBinary,
  fromJson,
  getExtension,
  hasExtension,
  isFieldSet,
  setExtension,
  toBinary,
  toJson,
} from '@bufbuild/protobuf';
import type { DescEnum, DescExtension, DescFile, DescMessage, Message, Registry } from '@bufbuild/protobuf';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedFile } from '../generators/core/pipeline/output.js';
import { ROOT } from './support/cli.js';
import { transpileFolder, writeFiles } from './support/client-generate.js';
import { normalizeModule } from './support/conformance-compare.js';
import { CONFORMANCE_PROTOS, emitFromProtoc, generateConformanceMessages, protocGenEs } from './support/conformance-protos.js';
import { CONFORMANCE_INCLUDE } from './support/conformance-runtime.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const SCRATCH = mkdtempSync(join(ROOT, '.vitest-tmp', 'proto-editions-'));
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'protobuf');
const GOOD = join(ROOT, 'test/fixtures/proto/good');

/** Our emitter's messages for protoc's descriptors of the conformance protos. */
function ourMessages(jsonTypes: boolean): GeneratedFile[] {
  return emitFromProtoc(CONFORMANCE_PROTOS, SCRATCH, { jsonTypes });
}

/** A generated module without its header line (which names the .proto as the user sees it). */
const body = (file: GeneratedFile) => file.content.substring(file.content.indexOf('\n') + 1);

/**
 * Where protoc-gen-es and we differ on purpose, in JSDoc only: it escapes just the first `"` of a
 * string or bytes default (protoplugin's `replace('"', '\\"')`, also in a bytes default that protoc
 * has C-escaped already), where we escape every quote of a string default and leave a bytes
 * default as protoc escaped it; and it writes `deprecated = true` for `deprecated = false`, where
 * we write what the .proto says. Both sides lose those differences for the comparison.
 */
function withoutKnownDifferences(source: string): string {
  return source
    .replace(/\[default = ".*"\];/g, (option) => option.replace(/\\+"/g, '"'))
    .replace(/\bdeprecated = false\b/g, 'deprecated = true');
}

/** Asserts that our emitter and protoc-gen-es write the same modules for protoc's descriptors of `protos`. */
function expectSameAsProtocGenEs(protos: string[], include: string, jsonTypes: boolean): void {
  const theirs = mkdtempSync(join(SCRATCH, 'protoc-gen-es-'));
  protocGenEs(protos, theirs, jsonTypes ? ['json_types=true'] : [], include);
  const ours = emitFromProtoc(protos, SCRATCH, { jsonTypes }, include);
  expect(ours.map((file) => file.path).sort()).toEqual(protos.map((proto) => proto.replace(/\.proto$/, '_pb.ts')).sort());
  for (const file of ours) {
    const expected = normalizeModule(withoutKnownDifferences(readFileSync(join(theirs, file.path), 'utf8')));
    const actual = normalizeModule(withoutKnownDifferences(file.content));
    expect(actual.imports, file.path).toEqual(expected.imports);
    // Compared one by one so a difference shows as one small diff.
    expect(actual.declarations.length, file.path).toBe(expected.declarations.length);
    actual.declarations.forEach((declaration, i) => expect(declaration, file.path).toBe(expected.declarations[i]));
  }
}

/** The .proto files under `folder` but not under `except`, minus copies of well-known types (which come from the runtime). */
function protosIn(folder: string, except: string[] = []): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.proto') && !file.startsWith('google/protobuf/') && !except.some((prefix) => file.startsWith(prefix)))
    .sort();
}

describe('proto2 and editions messages equal protoc-gen-es v2.17', () => {
  for (const jsonTypes of [false, true]) {
    const label = jsonTypes ? 'with JSON types (json_types=true)' : 'without JSON types';
    it(`${label}: every conformance proto, declaration by declaration`, () => {
      expectSameAsProtocGenEs(CONFORMANCE_PROTOS, CONFORMANCE_INCLUDE, jsonTypes);
    }, 60_000);
  }

  // Custom options are proto2 extensions of descriptor.proto's messages (google.api.http...).
  for (const corpus of ['googleapis-visible', 'grpc-proto', 'grpc-examples']) {
    it(`the ${corpus} corpus, with and without JSON types, declaration by declaration`, () => {
      const folder = join(CORPUS, corpus);
      for (const jsonTypes of [false, true]) expectSameAsProtocGenEs(protosIn(folder), folder, jsonTypes);
    }, 60_000);
  }

  // proto2 and editions 2023/2024 files with defaults, groups, extensions and features; custom
  // options of every type (the options fixtures are a tree of their own, googleapis' layout).
  it('the loader fixtures (proto2, editions 2023 and 2024, custom options), with and without JSON types, declaration by declaration', () => {
    for (const jsonTypes of [false, true]) {
      // Not resolution_edge.proto: for its field `_` (local name "") protoc-gen-es writes the member
      // `: string;`, which is not TypeScript; ours is `"": string;`, the property the runtime uses.
      expectSameAsProtocGenEs(protosIn(GOOD, ['options/', 'resolution_edge.proto']), GOOD, jsonTypes);
      expectSameAsProtocGenEs(protosIn(join(GOOD, 'options')), join(GOOD, 'options'), jsonTypes);
    }
  }, 120_000);

  it('the JSDoc of a field reads as its declaration: label, default, json_name, deprecated, features', () => {
    const files = ourMessages(false);
    const proto2 = files.find((file) => file.path.endsWith('test_messages_proto2_pb.ts'))!.content;
    expect(proto2).toContain('@generated from field: optional int32 optional_int32 = 1;');
    expect(proto2).toContain('@generated from field: required int32 required_int32 = 1;');
    expect(proto2).toContain('@generated from field: optional int64 default_int64 = 242 [default = -9123456789123456789];');
    expect(proto2).toContain('@generated from field: optional bytes default_bytes = 255 [default = "joshua"];');
    // A oneof member has no label.
    expect(proto2).toContain('@generated from field: uint32 oneof_uint32 = 111;');
    expect(proto2).toContain('@generated from extension: optional int32 extension_int32 = 120;');
    const edition = files.find((file) => file.path.endsWith('test_messages_edition2023_pb.ts'))!.content;
    expect(edition).toContain('@generated from field: repeated int32 packed_int32 = 75 [features.repeated_field_encoding = PACKED];');
    // A string default with every quote escaped; a bytes default as protoc C-escaped it.
    const legacy = emitFromProtoc(['p1/proto2.proto'], SCRATCH, { jsonTypes: false }, GOOD)[0]!.content;
    expect(legacy).toContain('optional string text = 24 [default = "tab\there \\"quoted\\" café A"];');
    expect(legacy).toContain(String.raw`optional bytes raw = 26 [default = "\000\001\377\n\r\t\'\"\\ \177joined"];`);
    const [p3legacy, p3editions] = ['p3/legacy.proto', 'p3/editions.proto'].map(
      (proto) =>
        emitFromProtoc([proto], SCRATCH, { jsonTypes: false }, GOOD).find((file) => file.path === proto.replace('.proto', '_pb.ts'))!
          .content,
    );
    expect(p3legacy).toContain('@generated from field: optional int32 old_score = 5 [deprecated = false];');
    expect(p3legacy).toContain('@generated from field: required acme.p3.legacy.Owner owner = 2;');
    expect(p3legacy).toContain('@generated from field: acme.p3.legacy.Account.Postal postal = 9;');
    expect(p3legacy).toContain('export const Account_referrer: GenExtension<Account, Account> =');
    expect(p3legacy).toContain('export const audit: GenExtension<Account, Audit> =');
    expect(p3editions).toContain(
      '@generated from enum acme.p3.editions.Mode\n * @generated with options features.enum_type = CLOSED, features.json_format = LEGACY_BEST_EFFORT',
    );
    expect(p3editions).toContain('@generated from field: int32 count = 2 [features.field_presence = LEGACY_REQUIRED];');
    // The file's own features, below its leading comments, as protoc-gen-es's preamble lists them.
    expect(p3editions.split('\n').slice(0, 7)).toEqual([
      expect.stringMatching(/^\/\/ Generated by codegen from /),
      '',
      '// Edition 2023 features on every level, as protoc-gen-es reports them in JSDoc.',
      '',
      '// option features.field_presence = IMPLICIT;',
      '// option features.message_encoding = DELIMITED;',
      '',
    ]);
    expect(edition).toContain(
      '// https://developers.google.com/open-source/licenses/bsd\n\n// option features.message_encoding = DELIMITED;\n\nimport ',
    );
    expect(edition).toContain(
      '@generated from field: protobuf_test_messages.editions.TestAllTypesEdition2023.NestedMessage optional_nested_message = 18 [features.message_encoding = LENGTH_PREFIXED];',
    );
  });
});

// Typed code a user writes against proto2 and edition 2023 modules: it must compile, and each
// `@ts-expect-error` line must be an error (else tsc reports the unused directive).
const USAGE = `import { create, getExtension, setExtension } from "@bufbuild/protobuf";
import { extension_int32, groupfield, TestAllTypesProto2_NestedEnum, TestAllTypesProto2Schema, TestAllRequiredTypesProto2Schema, type TestAllTypesProto2 } from "./google/protobuf/test_messages_proto2_pb.js";
import { delimited_ext, TestAllTypesEdition2023Schema } from "./google/protobuf/test_messages_edition2023_pb.js";

export function usage(): unknown[] {
  const message: TestAllTypesProto2 = create(TestAllTypesProto2Schema, { optionalInt32: 1, data: { groupInt32: 2 }, optionalNestedEnum: TestAllTypesProto2_NestedEnum.BAZ });
  setExtension(message, extension_int32, 5);
  const extension: number = getExtension(message, extension_int32);
  const group: number = getExtension(message, groupfield).groupInt32;
  const defaultInt32: number = message.defaultInt32;
  const member: number | undefined = message.data?.groupInt32;
  const required: number = create(TestAllRequiredTypesProto2Schema).requiredInt32;
  const edition = create(TestAllTypesEdition2023Schema, { delimitedField: { groupInt32: 1 } });
  const delimited: number = getExtension(edition, delimited_ext).c;
  // @ts-expect-error extension_int32 holds a number
  setExtension(message, extension_int32, "5");
  // @ts-expect-error extension_int32 extends TestAllTypesProto2, not TestAllTypesEdition2023
  getExtension(edition, extension_int32);
  // @ts-expect-error closed enums take the enum
  create(TestAllTypesProto2Schema, { optionalNestedEnum: "BAZ" });
  return [extension, group, defaultInt32, member, required, delimited];
}
`;

type Module = Record<string, unknown>;

describe('proto2 and edition 2023 messages at compile time and run time', () => {
  const out = join(SCRATCH, 'generated');
  let proto2: Module;
  let edition2023: Module;
  let proto3: Module;

  let pipeline: GeneratedFile[];
  let p3editions: Module;

  beforeAll(async () => {
    // Through codegen's whole pipeline: our loader, then the emitter.
    pipeline = await generateConformanceMessages(CONFORMANCE_PROTOS, SCRATCH);
    const fixtures = await generateConformanceMessages(['p3/editions.proto'], SCRATCH, GOOD);
    writeFiles(out, [...pipeline, ...fixtures]);
    writeFileSync(join(out, 'usage.ts'), USAGE);
    transpileFolder(out);
    const load = async (path: string) => (await import(pathToFileURL(join(out, path)).href)) as Module;
    proto2 = await load('google/protobuf/test_messages_proto2_pb.js');
    edition2023 = await load('google/protobuf/test_messages_edition2023_pb.js');
    proto3 = await load('google/protobuf/test_messages_proto3_pb.js');
    p3editions = await load('p3/editions_pb.js');
  }, 60_000);

  it("through our loader, the same modules as from protoc's descriptors (so the same as protoc-gen-es's)", () => {
    const fromProtoc = new Map(ourMessages(false).map((file) => [file.path, body(file)]));
    // The pipeline also writes the binary and JSON codecs (`_codec.ts`, `_json.ts`) and their runtime, which protoc-gen-es has no counterpart of.
    const messages = pipeline.filter((file) => file.path.endsWith('_pb.ts'));
    expect(messages.map((file) => file.path).sort()).toEqual([...fromProtoc.keys()].sort());
    for (const file of messages) expect(body(file), file.path).toBe(fromProtoc.get(file.path));
  });

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`type-checks under strict with ${name}, with typed user code`, () => {
      const result = typecheck(out, compiler, 'browser');
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 180_000);
  }

  const schema = (module: Module, name: string) => module[name] as DescMessage;

  it('proto2 defaults: read through an unset field, not serialized, and not "set"', () => {
    const all = schema(proto2, 'TestAllTypesProto2Schema');
    const message = create(all) as Message & Record<string, unknown>;
    expect(message['defaultInt32']).toBe(-123456789);
    expect(message['defaultInt64']).toBe(-9123456789123456789n);
    expect(message['defaultString']).toBe('Rosebud');
    expect(new TextDecoder().decode(message['defaultBytes'] as Uint8Array)).toBe('joshua');
    expect(isFieldSet(message, all.field['defaultInt32']!)).toBe(false);
    expect(toBinary(all, message)).toEqual(new Uint8Array());
    // Explicit presence: a field set to its zero value is still written.
    expect(toBinary(all, create(all, { optionalInt32: 0 }))).toEqual(new Uint8Array([0x08, 0x00]));
  });

  it('proto2 required fields: encoding refuses a message without them', () => {
    const required = schema(proto2, 'TestAllRequiredTypesProto2Schema');
    expect(() => toBinary(required, create(required))).toThrow(/required field not set/);
  });

  it('closed enums keep unknown values out of the field (in $unknown); open ones keep them', () => {
    const all = schema(proto2, 'TestAllTypesProto2Schema');
    // optional_nested_enum = 21, varint 7 (not a NestedEnum value)
    const bytes = new Uint8Array([0xa8, 0x01, 0x07]);
    const closed = fromBinary(all, bytes) as Message & Record<string, unknown>;
    expect(isFieldSet(closed, all.field['optionalNestedEnum']!)).toBe(false);
    expect(closed.$unknown).toEqual([{ no: 21, wireType: 0, data: new Uint8Array([0x07]) }]);
    expect(toBinary(all, closed)).toEqual(bytes);
    const open = fromBinary(schema(proto3, 'TestAllTypesProto3Schema'), bytes) as Message & Record<string, unknown>;
    expect(open['optionalNestedEnum']).toBe(7);
    expect((schema(proto2, 'TestAllTypesProto2Schema').field['optionalNestedEnum']!.enum as DescEnum).open).toBe(false);
  });

  it('groups (proto2) and delimited fields (edition 2023) are encoded as groups', () => {
    const all = schema(proto2, 'TestAllTypesProto2Schema');
    // data = 201 (start group: (201 << 3) | 3), group_int32 = 202 → 1, end group (201 << 3) | 4
    const group = toBinary(all, create(all, { data: { groupInt32: 1 } }));
    expect([...group]).toEqual([0xcb, 0x0c, 0xd0, 0x0c, 0x01, 0xcc, 0x0c]);
    const edition = schema(edition2023, 'TestAllTypesEdition2023Schema');
    const delimited = toBinary(edition, create(edition, { delimitedField: { groupInt32: 1 } }));
    expect([...delimited]).toEqual([0xd3, 0x0c, 0xd0, 0x0c, 0x01, 0xd4, 0x0c]);
    // A LENGTH_PREFIXED message field of the same file stays length-delimited.
    expect([...toBinary(edition, create(edition, { optionalNestedMessage: { a: 1 } }))]).toEqual([0x92, 0x01, 0x02, 0x08, 0x01]);
  });

  it('edition features set on the file, message and field decide presence, encoding and enum closedness', () => {
    const settings = schema(p3editions, 'SettingsSchema');
    // count is LEGACY_REQUIRED: encoding refuses a message without it.
    expect(() => toBinary(settings, create(settings))).toThrow(/required field not set/);
    // name has EXPLICIT presence (an empty string is written); plain inherits IMPLICIT from the
    // file (a zero is not); child inherits DELIMITED (a group), flat overrides LENGTH_PREFIXED.
    const message = create(settings, { count: 1, name: '', child: { count: 2 }, flat: { count: 3 } });
    expect([...toBinary(settings, message)]).toEqual([0x0a, 0x00, 0x10, 0x01, 0x1b, 0x10, 0x02, 0x1c, 0x22, 0x02, 0x10, 0x03]);
    const mode = settings.field['mode']!.enum as DescEnum;
    expect(mode.open).toBe(false);
    // mode = 6, varint 9: not a Mode, so kept as an unknown field.
    const decoded = fromBinary(settings, new Uint8Array([0x10, 0x01, 0x30, 0x09]));
    expect(isFieldSet(decoded, settings.field['mode']!)).toBe(false);
    expect(decoded.$unknown).toEqual([{ no: 6, wireType: 0, data: new Uint8Array([0x09]) }]);
  });

  it('extensions are readable and writable in binary and JSON through the generated constants', () => {
    const all = schema(proto2, 'TestAllTypesProto2Schema');
    const extension = proto2['extension_int32'] as DescExtension;
    const message = create(all);
    setExtension(message, extension, 42);
    const bytes = toBinary(all, message);
    expect([...bytes]).toEqual([0xc0, 0x07, 0x2a]);
    const decoded = fromBinary(all, bytes);
    expect(hasExtension(decoded, extension)).toBe(true);
    expect(getExtension(decoded, extension)).toBe(42);
    const json = toJson(all, decoded, { registry: fileRegistry(proto2) });
    expect(json).toEqual({ '[protobuf_test_messages.proto2.extension_int32]': 42 });
    expect(getExtension(fromJson(all, json, { registry: fileRegistry(proto2) }), extension)).toBe(42);
  });
});

/** A registry of the module's file, for extensions in JSON. */
function fileRegistry(module: Module): Registry {
  const file = Object.entries(module).find(([name]) => name.startsWith('file_'))![1] as DescFile;
  return createRegistry(file);
}
