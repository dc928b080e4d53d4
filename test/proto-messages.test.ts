/**
 * Generated proto messages (`<file>_pb.ts` on @bufbuild/protobuf), end to end: generated through the
 * real pipeline for a fixture with every field kind and every well-known type, for names that clash
 * with TypeScript and the runtime, and for schemas/proto's tasks.proto; type-checked under strict
 * with both compilers (with typed user code that must and must not compile); then imported and
 * run. Binary and JSON round trips must decode back equal, JSON must follow the proto3 JSON mapping
 * exactly, binary is cross-checked with two independent implementations (protoc's text format
 * encoder/decoder and protobufjs), unknown fields survive, and the embedded descriptors equal the
 * loader's. The corpus protos generate and type-check too.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, createRegistry, equals, fromBinary, fromJson, fromJsonString, toBinary, toJson, toJsonString } from '@bufbuild/protobuf';
import type { DescEnum, DescFile, DescMessage, DescService, JsonObject, JsonValue, Message } from '@bufbuild/protobuf';
import { file_google_protobuf_duration, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import type { ApiConfig } from '../generators/core/config/config.js';
import { generate } from '../generators/core/pipeline/generate.js';
import type { GeneratedFile } from '../generators/core/pipeline/output.js';
import { loadProto } from '../generators/proto/load.js';
import { fileConstName, messageTypeName, pbModule, pbModulePath, schemaName, serviceConstName } from '../generators/proto/names.js';
import { ROOT } from './support/cli.js';
import { anyTypes, transpileFolder, writeFiles } from './support/client-generate.js';
import { nestedFields, nestedValues } from './support/proto-nesting.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

const FIXTURES = 'test/fixtures/proto-messages';
const KINDS = join(ROOT, FIXTURES, 'acme/kinds/v1/kinds.proto');
const NAMES = join(ROOT, FIXTURES, 'acme/kinds/v1/names.proto');
const TASKS = join(ROOT, 'schemas/proto/acme/tasks/v1/tasks.proto');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'protobuf');
const PROTOC = join(ROOT, 'node_modules/.bin/protoc');

function protoApi(
  name: string,
  inputs: string[],
  includePaths: string[],
  output: string,
  options: { jsonTypes?: boolean } = {},
): ApiConfig {
  // An ApiConfig's paths are absolute (core/config/config.ts resolves them against the config's folder).
  return {
    name,
    inputs,
    documents: [],
    style: 'proto',
    output,
    emit: ['types'],
    options: { includePaths: includePaths.map((path) => resolve(ROOT, path)), ...options },
    root: ROOT,
  };
}

function protoFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.proto'))
    .map((file) => join(dir, file))
    .sort();
}

// Typed code a user writes against the generated modules: it must compile, and each
// `@ts-expect-error` line must be an error (else tsc reports the unused directive).
const USAGE = `import { create, toJson, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { TaskSchema, TaskService, TaskStatus, type Task, type TaskJson } from "./acme/tasks/v1/tasks_pb.js";
import { Color, Kinds_Nested_Level, KindsSchema, WellKnownSchema } from "./acme/kinds/v1/kinds_pb.js";
import { Keyword, MessageSchema, Names, type Object$ } from "./acme/kinds/v1/names_pb.js";

export function usage(): unknown[] {
  const task: Task = create(TaskSchema, { id: "t1", status: TaskStatus.TODO, estimateMinutes: 5n, due: { case: "dueTime", value: timestampFromDate(new Date(0)) } });
  let seconds = 0n;
  if (task.due.case === "dueTime") seconds = task.due.value.seconds;
  const json: TaskJson = toJson(TaskSchema, task);
  const estimate: string | undefined = json.estimateMinutes;
  const kinds = create(KindsSchema, { fEnum: Color.RED, fMessage: { level: Kinds_Nested_Level.HIGH }, mBoolEnum: { true: Color.GREEN } });
  const optional: number | undefined = kinds.oInt32;
  const unwrapped: number | undefined = create(WellKnownSchema).int32Value;
  const struct: JsonObject | undefined = create(WellKnownSchema, { struct: { a: [1, "b"] } }).struct;
  const kind: "server_streaming" = TaskService.method.listTasks.methodKind;
  const echo: "unary" = Names.method.echo.methodKind;
  const object: Object$ | undefined = undefined;
  const message = create(MessageSchema, { constructor$: "c", valueOf$: "1" });
  // @ts-expect-error int64 fields are bigint
  create(TaskSchema, { estimateMinutes: 5 });
  // @ts-expect-error a oneof case must be one of its fields
  const due: Task["due"] = { case: "dueAt", value: undefined };
  // @ts-expect-error enum fields take the enum
  create(TaskSchema, { status: "TODO" });
  // @ts-expect-error not a method of the service
  void TaskService.method.removeTask;
  return [seconds, estimate, optional, unwrapped, struct, kind, echo, object, message, due, Keyword.KEYWORD_DELETE];
}
`;

interface Module {
  [name: string]: unknown;
}

async function importModule(folder: string, path: string): Promise<Module> {
  return (await import(pathToFileURL(join(folder, path.replace(/\.ts$/, '.js'))).href)) as Module;
}

const schema = (module: Module, name: string) => module[name] as DescMessage;

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, '.vitest-tmp', 'proto-messages-'));

describe('names follow protobuf-es', () => {
  const { registry } = loadProto([TASKS, NAMES], { includePaths: [join(ROOT, 'schemas/proto'), join(ROOT, FIXTURES)] });
  const tasks = registry.getFile('acme/tasks/v1/tasks.proto')!;
  const names = registry.getFile('acme/kinds/v1/names.proto')!;

  it('names messages, nested types, schemas, services and files', () => {
    expect(fileConstName(tasks)).toBe('file_acme_tasks_v1_tasks');
    expect(messageTypeName(registry.getMessage('acme.tasks.v1.Task')!)).toBe('Task');
    expect(messageTypeName(registry.getMessage('acme.tasks.v1.Task.Comment')!)).toBe('Task_Comment');
    expect(schemaName(registry.getMessage('acme.tasks.v1.Task.Comment')!)).toBe('Task_CommentSchema');
    expect(schemaName(registry.getEnum('acme.tasks.v1.TaskEvent.Kind')!)).toBe('TaskEvent_KindSchema');
    expect(serviceConstName(registry.getService('acme.tasks.v1.TaskService')!)).toBe('TaskService');
    expect(pbModulePath('acme/tasks/v1/tasks.proto')).toBe('acme/tasks/v1/tasks_pb.js');
  });

  it('escapes reserved words and resolves clashes as protobuf-es does, and imports from the right module', () => {
    expect(messageTypeName(registry.getMessage('acme.kinds.v1.Object')!)).toBe('Object$');
    expect(messageTypeName(registry.getMessage('acme.kinds.v1.Message')!)).toBe('Message');
    const timestampWkt = registry.getMessage('google.protobuf.Timestamp')!;
    expect(messageTypeName(timestampWkt)).toBe('Timestamp');
    expect(pbModule(timestampWkt.file, new Set())).toBe('@bufbuild/protobuf/wkt');
    expect(pbModule(timestampWkt.file, new Set([timestampWkt.file.proto.name]))).toBe('./google/protobuf/timestamp_pb');
    expect(pbModule(tasks, new Set([tasks.proto.name]))).toBe('./acme/tasks/v1/tasks_pb');
    expect(fileConstName(names)).toBe('file_acme_kinds_v1_names');
  });
});

describe('generated messages (jsonTypes: true)', async () => {
  const [{ files }] = await generate([protoApi('messages', [KINDS, NAMES, TASKS], [FIXTURES, 'schemas/proto'], OUT, { jsonTypes: true })]);
  writeFiles(OUT, files);
  writeFileSync(join(OUT, 'usage.ts'), USAGE);
  transpileFolder(OUT);
  const kindsModule = await importModule(OUT, 'acme/kinds/v1/kinds_pb.ts');
  const namesModule = await importModule(OUT, 'acme/kinds/v1/names_pb.ts');
  const tasksModule = await importModule(OUT, 'acme/tasks/v1/tasks_pb.ts');
  const Kinds = schema(kindsModule, 'KindsSchema');
  const Nested = schema(kindsModule, 'Kinds_NestedSchema');
  const WellKnown = schema(kindsModule, 'WellKnownSchema');
  const registry = createRegistry(kindsModule.file_acme_kinds_v1_kinds as DescFile, file_google_protobuf_duration);
  const kindsType = protobuf.loadSync(KINDS).lookupType('acme.kinds.v1.Kinds');

  it('writes one _pb.ts, one _codec.ts and one _json.ts per .proto file with messages (imports included), each starting with the header', () => {
    // tasks.proto imports google/api/annotations.proto (its google.api.http rules), which imports http.proto.
    // Sorted by path; annotations.proto declares only extensions, so it has no codecs; the runtime is what the codecs import.
    expect(files.map((file) => file.path)).toEqual([
      'acme/kinds/v1/kinds_codec.ts',
      'acme/kinds/v1/kinds_json.ts',
      'acme/kinds/v1/kinds_pb.ts',
      'acme/kinds/v1/names_codec.ts',
      'acme/kinds/v1/names_json.ts',
      'acme/kinds/v1/names_pb.ts',
      'acme/tasks/v1/tasks_codec.ts',
      'acme/tasks/v1/tasks_json.ts',
      'acme/tasks/v1/tasks_pb.ts',
      'google/api/annotations_pb.ts',
      'google/api/http_codec.ts',
      'google/api/http_json.ts',
      'google/api/http_pb.ts',
      'runtime/proto-codec.ts',
      'runtime/proto-json.ts',
      'runtime/proto-reader.ts',
      'runtime/proto-writer.ts',
    ]);
    // The header names each file as the user sees it: relative to the config's folder.
    const shown = (path: string) =>
      (/^(acme\/tasks|google)\//.test(path) ? `schemas/proto/${path}` : `${FIXTURES}/${path}`).replace(/_(pb|codec|json)\.ts$/, '.proto');
    for (const file of files.filter((each) => !each.path.startsWith('runtime/')))
      expect(file.content.split('\n')[0]).toBe(
        `// Generated by codegen from ${shown(file.path)}. Do not edit: change the schema and run \`npx codegen\`.`,
      );
  });

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`type-checks under strict with ${name}, with typed user code`, () => {
      const result = typecheck(OUT, compiler, 'browser');
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 120_000);
  }

  it('declares the JSON types and types the schemas with them, as protoc-gen-es with json_types=true', () => {
    const tasks = files.find((file) => file.path.endsWith('tasks_pb.ts'))!.content;
    expect(tasks).toContain('export type TaskJson = {');
    expect(tasks).toContain(
      'export type TaskStatusJson = "TASK_STATUS_UNSPECIFIED" | "TASK_STATUS_TODO" | "TASK_STATUS_IN_PROGRESS" | "TASK_STATUS_DONE";',
    );
    expect(tasks).toContain(
      'export const TaskSchema: GenMessage<Task, { jsonType: TaskJson }> = /*@__PURE__*/\n  messageDesc(file_acme_tasks_v1_tasks, 0);',
    );
    expect(tasks).toContain(
      'export const TaskStatusSchema: GenEnum<TaskStatus, TaskStatusJson> = /*@__PURE__*/\n  enumDesc(file_acme_tasks_v1_tasks, 0);',
    );
    expect(tasks).toMatch(/^ {2}type TimestampJson,$/m);
  });

  it("keeps the .proto file's leading comments (syntax, then package) below the header, as protoc-gen-es does", () => {
    const tasks = files.find((file) => file.path.endsWith('tasks_pb.ts'))!.content;
    const source = readFileSync(TASKS, 'utf8');
    const leading = source.slice(0, source.indexOf('syntax = ')).trimEnd();
    expect(leading).toMatch(/^\/\/ The Tasks API over gRPC/);
    expect(
      tasks
        .split('\n')
        .slice(1, 1 + 2 + leading.split('\n').length)
        .join('\n'),
    ).toBe(`\n${leading}\n`);
    expect(tasks).toContain(`${leading}\n\nimport type { Message } from "@bufbuild/protobuf";`);
  });

  it('has no `any`, and comments cannot break out of JSDoc', () => {
    for (const file of files) expect(anyTypes(file.content), file.path).toEqual([]);
    const names = files.find((file) => file.path.endsWith('names_pb.ts'))!.content;
    expect(names).toContain(' * Line comment that tries to end the JSDoc: *\\/ export const x = 1; /*');
    expect(names).not.toMatch(/^export const x/m);
    expect(kindsModule.x).toBeUndefined();
    expect(namesModule.x).toBeUndefined();
  });

  it('carries comments, declarations and @deprecated into JSDoc', () => {
    const tasks = files.find((file) => file.path.endsWith('tasks_pb.ts'))!.content;
    expect(tasks).toContain(
      '/**\n * A unit of work.\n *\n * @generated from message acme.tasks.v1.Task\n */\nexport type Task = Message<"acme.tasks.v1.Task"> & {',
    );
    expect(tasks).toContain(
      '  /**\n   * Who does it; unset while unassigned.\n   *\n   * @generated from field: optional string assignee_id = 5;\n   */\n  assigneeId?: string | undefined;',
    );
    expect(tasks).toContain(
      '  /**\n   * Not set; never stored.\n   *\n   * @generated from enum value: TASK_STATUS_UNSPECIFIED = 0;\n   */\n  UNSPECIFIED = 0,',
    );
    const kinds = files.find((file) => file.path.endsWith('kinds_pb.ts'))!.content;
    expect(kinds).toContain(
      '  /**\n   * @generated from field: int32 old_field = 71 [deprecated = true];\n   * @deprecated\n   */\n  oldField: number;',
    );
    expect(kinds).toContain('@generated from field: string renamed = 70 [json_name = "customName"];');
    const names = files.find((file) => file.path.endsWith('names_pb.ts'))!.content;
    // A deprecated message deprecates what is nested in it.
    expect(names).toMatch(/@generated from message acme\.kinds\.v1\.Legacy\.Inner\n \* @deprecated\n \*\/\nexport type Legacy_Inner =/);
  });

  it('names enum values without their prefix, as the runtime does, and keeps names that cannot be stripped', () => {
    const TaskStatus = tasksModule.TaskStatus as Record<string, number>;
    expect(TaskStatus.TODO).toBe(1);
    expect(TaskStatus.IN_PROGRESS).toBe(2);
    expect(TaskStatus[2]).toBe('IN_PROGRESS');
    const Keyword = namesModule.Keyword as Record<string, number>;
    // `1ST` cannot be an identifier, so no value of the enum loses its prefix.
    expect(Keyword.KEYWORD_DELETE).toBe(1);
    const Color = kindsModule.Color as Record<string, number>;
    expect(Color.INFRARED).toBe(-1);
    for (const [module, enumSchema, tsEnum] of [
      [tasksModule, 'TaskStatusSchema', TaskStatus],
      [namesModule, 'KeywordSchema', Keyword],
    ] as const) {
      for (const value of (module[enumSchema] as DescEnum).values) expect(tsEnum[value.localName]).toBe(value.number);
    }
  });

  it('declares every field under the name the runtime uses', () => {
    const message = create(schema(namesModule, 'MessageSchema'), { constructor$: 'c', toString$: 't', valueOf$: '12345678901234567890' });
    const json = toJson(schema(namesModule, 'MessageSchema'), message);
    expect(json).toEqual({ constructor: 'c', toString: 't', valueOf: '12345678901234567890' });
    const renamed = Kinds.fields.find((field) => field.name === 'renamed')!;
    expect([renamed.localName, renamed.jsonName]).toEqual(['renamed', 'customName']);
  });

  it("embeds descriptors equal to the loader's, without source info", () => {
    const loaded = loadProto([KINDS, NAMES, TASKS], {
      includePaths: [join(ROOT, FIXTURES), join(ROOT, 'schemas/proto')],
      sourceInfo: false,
    });
    for (const [module, name] of [
      [kindsModule, 'acme/kinds/v1/kinds.proto'],
      [namesModule, 'acme/kinds/v1/names.proto'],
      [tasksModule, 'acme/tasks/v1/tasks.proto'],
    ] as const) {
      const embedded = (Object.values(module).find((value) => (value as DescFile | undefined)?.kind === 'file') as DescFile).proto;
      const expected = loaded.set.file.find((file) => file.name === name)!;
      expect(equals(FileDescriptorProtoSchema, embedded, expected), name).toBe(true);
      expect(
        Buffer.from(toBinary(FileDescriptorProtoSchema, embedded)).equals(Buffer.from(toBinary(FileDescriptorProtoSchema, expected))),
        name,
      ).toBe(true);
    }
  });

  // One message with every field kind set, most to extreme values, optional fields to their zero
  // value (explicit presence must survive), and an int64 in the oneof.
  const kindsInit = {
    fDouble: 1.5,
    fFloat: -2.25,
    fInt32: -123,
    fInt64: -9223372036854775808n,
    fUint32: 4294967295,
    fUint64: 18446744073709551615n,
    fSint32: -2147483648,
    fSint64: -1234567890123n,
    fFixed32: 4294967295,
    fFixed64: 18446744073709551615n,
    fSfixed32: -5,
    fSfixed64: -9007199254740993n,
    fBool: true,
    fString: 'héllo ✓ 😀',
    fBytes: new Uint8Array([0, 1, 2, 255, 254]),
    fEnum: 1,
    fMessage: { label: 'n', level: 1, child: { label: 'c' } },
    oInt32: 0,
    oInt64: 0n,
    oString: '',
    oBytes: new Uint8Array(),
    oBool: false,
    oEnum: 0,
    oMessage: {},
    rDouble: [0, 1e300, Infinity, -Infinity],
    rInt32: [1, -1, 0, 2147483647],
    rInt64: [0n, -1n, 9223372036854775807n],
    rUint64: [0n, 18446744073709551615n],
    rSint32: [-1, 1],
    rFixed32: [1, 2],
    rSfixed64: [-1n],
    rBool: [true, false],
    rString: ['a', ''],
    rBytes: [new Uint8Array([1]), new Uint8Array()],
    rEnum: [2, -1, 1],
    rMessage: [{ label: 'a' }, {}],
    rUnpacked: [1, 2, 3],
    mStringString: { a: 'b', '': 'empty key' },
    mInt32Int64: { [-1]: 5n, 7: -9n },
    mInt64String: { '-9223372036854775808': 'min' },
    mUint32Bytes: { 4294967295: new Uint8Array([9]) },
    mBoolEnum: { true: 1, false: 2 },
    mStringMessage: { k: { label: 'v' } },
    mSint64Double: { '-3': 0.5 },
    mFixed32Bool: { 1: true },
    choice: { case: 'cInt64', value: -42n },
    renamed: 'r',
    oldField: 7,
  };
  const kindsJson: JsonObject = {
    fDouble: 1.5,
    fFloat: -2.25,
    fInt32: -123,
    fInt64: '-9223372036854775808',
    fUint32: 4294967295,
    fUint64: '18446744073709551615',
    fSint32: -2147483648,
    fSint64: '-1234567890123',
    fFixed32: 4294967295,
    fFixed64: '18446744073709551615',
    fSfixed32: -5,
    fSfixed64: '-9007199254740993',
    fBool: true,
    fString: 'héllo ✓ 😀',
    fBytes: 'AAEC//4=',
    fEnum: 'COLOR_RED',
    fMessage: { label: 'n', level: 'LEVEL_HIGH', child: { label: 'c' } },
    oInt32: 0,
    oInt64: '0',
    oString: '',
    oBytes: '',
    oBool: false,
    oEnum: 'COLOR_UNSPECIFIED',
    oMessage: {},
    rDouble: [0, 1e300, 'Infinity', '-Infinity'],
    rInt32: [1, -1, 0, 2147483647],
    rInt64: ['0', '-1', '9223372036854775807'],
    rUint64: ['0', '18446744073709551615'],
    rSint32: [-1, 1],
    rFixed32: [1, 2],
    rSfixed64: ['-1'],
    rBool: [true, false],
    rString: ['a', ''],
    rBytes: ['AQ==', ''],
    rEnum: ['COLOR_GREEN', 'COLOR_INFRARED', 'COLOR_RED'],
    rMessage: [{ label: 'a' }, {}],
    rUnpacked: [1, 2, 3],
    mStringString: { a: 'b', '': 'empty key' },
    mInt32Int64: { '-1': '5', 7: '-9' },
    mInt64String: { '-9223372036854775808': 'min' },
    mUint32Bytes: { 4294967295: 'CQ==' },
    mBoolEnum: { true: 'COLOR_RED', false: 'COLOR_GREEN' },
    mStringMessage: { k: { label: 'v' } },
    mSint64Double: { '-3': 0.5 },
    mFixed32Bool: { 1: true },
    cInt64: '-42',
    customName: 'r',
    oldField: 7,
  };
  // The same message in protobuf text format, for protoc.
  const kindsText = `
    f_double: 1.5 f_float: -2.25 f_int32: -123 f_int64: -9223372036854775808 f_uint32: 4294967295 f_uint64: 18446744073709551615
    f_sint32: -2147483648 f_sint64: -1234567890123 f_fixed32: 4294967295 f_fixed64: 18446744073709551615 f_sfixed32: -5
    f_sfixed64: -9007199254740993 f_bool: true f_string: "h\\303\\251llo \\342\\234\\223 \\360\\237\\230\\200" f_bytes: "\\000\\001\\002\\377\\376" f_enum: COLOR_RED
    f_message { label: "n" level: LEVEL_HIGH child { label: "c" } }
    o_int32: 0 o_int64: 0 o_string: "" o_bytes: "" o_bool: false o_enum: COLOR_UNSPECIFIED o_message {}
    r_double: [0, 1e300, inf, -inf] r_int32: [1, -1, 0, 2147483647] r_int64: [0, -1, 9223372036854775807]
    r_uint64: [0, 18446744073709551615] r_sint32: [-1, 1] r_fixed32: [1, 2] r_sfixed64: [-1] r_bool: [true, false]
    r_string: ["a", ""] r_bytes: ["\\001", ""] r_enum: [COLOR_GREEN, COLOR_INFRARED, COLOR_RED] r_message: [{ label: "a" }, {}]
    r_unpacked: [1, 2, 3]
    m_string_string { key: "a" value: "b" } m_string_string { key: "" value: "empty key" }
    m_int32_int64 { key: -1 value: 5 } m_int32_int64 { key: 7 value: -9 } m_int64_string { key: -9223372036854775808 value: "min" }
    m_uint32_bytes { key: 4294967295 value: "\\t" } m_bool_enum { key: true value: COLOR_RED } m_bool_enum { key: false value: COLOR_GREEN }
    m_string_message { key: "k" value { label: "v" } } m_sint64_double { key: -3 value: 0.5 } m_fixed32_bool { key: 1 value: true }
    c_int64: -42 renamed: "r" old_field: 7`;

  const protoc = (mode: 'encode' | 'decode', type: string, input: string | Uint8Array): Buffer =>
    // stderr is kept from the test output: protoc warns about the deprecated field in the text.
    execFileSync(PROTOC, [`-I${join(ROOT, FIXTURES)}`, `--${mode}=${type}`, 'acme/kinds/v1/kinds.proto'], {
      cwd: join(ROOT, FIXTURES),
      input,
      stdio: ['pipe', 'pipe', 'pipe'],
    });

  it('round-trips every field kind through binary and JSON', () => {
    const message = create(Kinds, kindsInit);
    expect(equals(Kinds, fromBinary(Kinds, toBinary(Kinds, message)), message)).toBe(true);
    expect(equals(Kinds, fromJson(Kinds, toJson(Kinds, message)), message)).toBe(true);
    expect(equals(Kinds, fromJsonString(Kinds, toJsonString(Kinds, message)), message)).toBe(true);
    // Presence of optional zero values survives both encodings.
    const decoded = fromBinary(Kinds, toBinary(Kinds, message)) as Message & { oInt32?: number; oMessage?: object; fInt64: bigint };
    expect(decoded.oInt32).toBe(0);
    expect(decoded.oMessage).toBeDefined();
    expect(decoded.fInt64).toBe(-9223372036854775808n);
    // Each oneof case, one at a time.
    for (const choice of [
      { case: 'cString', value: 'x' },
      { case: 'cMessage', value: create(Nested, { label: 'm' }) },
      { case: 'cEnum', value: 2 },
      { case: 'cBytes', value: new Uint8Array([7]) },
      { case: undefined },
    ]) {
      const one = create(Kinds, { choice } as never);
      expect(equals(Kinds, fromBinary(Kinds, toBinary(Kinds, one)), one), String(choice.case)).toBe(true);
      expect(equals(Kinds, fromJson(Kinds, toJson(Kinds, one)), one), String(choice.case)).toBe(true);
    }
  });

  it('writes the proto3 JSON mapping: int64 as strings, bytes as base64, enums by name, json_name', () => {
    expect(toJson(Kinds, create(Kinds, kindsInit))).toEqual(kindsJson);
    expect(equals(Kinds, fromJson(Kinds, kindsJson), create(Kinds, kindsInit))).toBe(true);
    // NaN travels as a string; an empty message is `{}`.
    expect(toJson(Kinds, create(Kinds, { rDouble: [Number.NaN] }))).toEqual({ rDouble: ['NaN'] });
    expect(toJson(Kinds, create(Kinds))).toEqual({});
  });

  it('writes the JSON of every well-known type as the mapping specifies', () => {
    const init = {
      timestamp: { seconds: 1714979289n, nanos: 123000000 },
      duration: { seconds: 1n, nanos: 500000000 },
      any: { typeUrl: 'type.googleapis.com/acme.kinds.v1.Kinds.Nested', value: toBinary(Nested, create(Nested, { label: 'in any' })) },
      // Struct fields are plain JSON objects in protobuf-es.
      struct: { a: 1, b: [true, null, 's'], c: { d: 1.5 } },
      value: { kind: { case: 'stringValue', value: 'text' } },
      listValue: { values: [{ kind: { case: 'numberValue', value: 1 } }, { kind: { case: 'stringValue', value: 'two' } }] },
      empty: {},
      fieldMask: { paths: ['a', 'b_c'] },
      doubleValue: 1.5,
      floatValue: 0.25,
      int64Value: -5n,
      uint64Value: 18446744073709551615n,
      int32Value: 0,
      uint32Value: 7,
      boolValue: false,
      stringValue: '',
      bytesValue: new Uint8Array([1, 2]),
      timestamps: [{ seconds: 0n }, { seconds: 1714979289n, nanos: 1000 }],
      values: { k: { kind: { case: 'numberValue', value: 1 } } },
      wrapped: { case: 'oneInt32Value', value: { value: 3 } },
    };
    const json: JsonObject = {
      timestamp: '2024-05-06T07:08:09.123Z',
      duration: '1.500s',
      any: { '@type': 'type.googleapis.com/acme.kinds.v1.Kinds.Nested', label: 'in any' },
      struct: { a: 1, b: [true, null, 's'], c: { d: 1.5 } },
      value: 'text',
      listValue: [1, 'two'],
      empty: {},
      fieldMask: 'a,bC',
      doubleValue: 1.5,
      floatValue: 0.25,
      int64Value: '-5',
      uint64Value: '18446744073709551615',
      int32Value: 0,
      uint32Value: 7,
      boolValue: false,
      stringValue: '',
      bytesValue: 'AQI=',
      timestamps: ['1970-01-01T00:00:00Z', '2024-05-06T07:08:09.000001Z'],
      values: { k: 1 },
      oneInt32Value: 3,
    };
    const message = create(WellKnown, init as never);
    expect(toJson(WellKnown, message, { registry })).toEqual(json);
    expect(equals(WellKnown, fromJson(WellKnown, json, { registry }), message)).toBe(true);
    expect(equals(WellKnown, fromBinary(WellKnown, toBinary(WellKnown, message)), message)).toBe(true);
    // Inputs the mapping also accepts.
    const lenient = fromJson(WellKnown, { duration: '1.5s', timestamp: '2024-05-06T09:08:09.123+02:00' }) as Message & {
      duration?: { seconds: bigint; nanos: number };
      timestamp?: { seconds: bigint };
    };
    expect(lenient.duration).toMatchObject({ seconds: 1n, nanos: 500000000 });
    expect(lenient.timestamp?.seconds).toBe(1714979289n);
    // An Any holding a well-known type nests its JSON under "value"; NullValue is JSON null.
    const anyDuration = create(WellKnown, {
      any: { typeUrl: 'type.googleapis.com/google.protobuf.Duration', value: new Uint8Array([8, 2]) },
      nullValue: 0,
    } as never);
    expect(toJson(WellKnown, anyDuration, { registry, alwaysEmitImplicit: true })).toMatchObject({
      any: { '@type': 'type.googleapis.com/google.protobuf.Duration', value: '2s' },
      nullValue: null,
    });
  });

  it("encodes as protoc does: protoc reads our bytes, we read protoc's", () => {
    const message = create(Kinds, kindsInit);
    const protocBytes = protoc('encode', 'acme.kinds.v1.Kinds', kindsText);
    expect(equals(Kinds, fromBinary(Kinds, protocBytes), message)).toBe(true);
    // protoc prints map entries sorted, so the two texts are equal only if every field is.
    const ours = protoc('decode', 'acme.kinds.v1.Kinds', toBinary(Kinds, message)).toString();
    expect(ours).toBe(protoc('decode', 'acme.kinds.v1.Kinds', protocBytes).toString());
    expect(ours).toContain('f_uint64: 18446744073709551615');
    // Without maps (whose order on the wire is free), the bytes are identical.
    const noMaps = create(Kinds, {
      ...kindsInit,
      ...Object.fromEntries(
        Object.keys(kindsInit)
          .filter((key) => key.startsWith('m'))
          .map((key) => [key, {}]),
      ),
    });
    const noMapsText = kindsText.replace(/m_\w+ \{ key: [^{}]*(\{[^{}]*\})?[^{}]*\}/g, '');
    expect(Buffer.from(toBinary(Kinds, noMaps)).equals(protoc('encode', 'acme.kinds.v1.Kinds', noMapsText))).toBe(true);
  });

  it('encodes as protobufjs does: protobufjs decodes our bytes to the same values and back', () => {
    const message = create(Kinds, kindsInit);
    const bytes = toBinary(Kinds, message);
    const decoded = kindsType.decode(bytes);
    expect(kindsType.verify(decoded)).toBeNull();
    const object = kindsType.toObject(decoded, { longs: String, enums: String, bytes: String, oneofs: true });
    expect(object).toMatchObject({
      fInt64: '-9223372036854775808',
      fUint64: '18446744073709551615',
      fSfixed64: '-9007199254740993',
      fSint64: '-1234567890123',
      fBytes: 'AAEC//4=',
      fEnum: 'COLOR_RED',
      fString: 'héllo ✓ 😀',
      fMessage: { label: 'n', level: 'LEVEL_HIGH', child: { label: 'c' } },
      rEnum: ['COLOR_GREEN', 'COLOR_INFRARED', 'COLOR_RED'],
      rUnpacked: [1, 2, 3],
      rDouble: [0, 1e300, Infinity, -Infinity],
      mStringString: { a: 'b', '': 'empty key' },
      mStringMessage: { k: { label: 'v' } },
      choice: 'cInt64',
      cInt64: '-42',
      renamed: 'r',
      oInt32: 0,
      oString: '',
    });
    // protobufjs's own encoding of what it decoded reads back equal here.
    expect(equals(Kinds, fromBinary(Kinds, kindsType.encode(decoded).finish()), message)).toBe(true);
  });

  it('keeps unknown fields through decode and encode', () => {
    const Original = schema(kindsModule, 'OriginalSchema');
    const Evolved = schema(kindsModule, 'EvolvedSchema');
    const evolved = create(Evolved, {
      name: 'n',
      count: -3n,
      big: 18446744073709551615n,
      nested: { label: 'x' },
      small: 5,
      packed: [-1, 2],
    });
    const original = fromBinary(Original, toBinary(Evolved, evolved));
    expect(original.$unknown?.map((field) => field.no)).toEqual([2, 3, 4, 5, 6]);
    expect(equals(Evolved, fromBinary(Evolved, toBinary(Original, original)), evolved)).toBe(true);
    // protoc sees them too.
    expect(protoc('decode', 'acme.kinds.v1.Original', toBinary(Original, original)).toString()).toMatch(
      /^name: "n"\n2: 18446744073709551613\n3: 0xffffffffffffffff\n4 \{/,
    );
  });

  it('has generated binary codecs that give the bytes and values of toBinary/fromBinary, unknown fields included', async () => {
    const codecs = await importModule(OUT, 'acme/kinds/v1/kinds_codec.ts');
    type Codec = { schema: DescMessage; encode(message: Message): Uint8Array; decode(bytes: Uint8Array): Message };
    const codec = (name: string) => codecs[name] as Codec;
    const cases: Array<[Codec, Message]> = [
      [codec('KindsCodec'), create(Kinds, kindsInit)],
      [codec('KindsCodec'), create(Kinds)],
      [
        codec('WellKnownCodec'),
        fromJson(
          WellKnown,
          {
            timestamp: '2024-05-06T07:08:09.123Z',
            duration: '1.500s',
            any: { '@type': 'type.googleapis.com/acme.kinds.v1.Kinds.Nested', label: 'in any' },
            struct: { a: 1, b: [true, null, 's'], c: { d: 1.5 } },
            value: 'text',
            listValue: [1, 'two'],
            empty: {},
            fieldMask: 'a,bC',
            int64Value: '-5',
            uint64Value: '18446744073709551615',
            int32Value: 0,
            boolValue: false,
            stringValue: '',
            bytesValue: 'AQI=',
            timestamps: ['1970-01-01T00:00:00Z'],
            values: { k: 1 },
            oneInt32Value: 3,
          },
          { registry },
        ),
      ],
      ...[
        { case: 'cString', value: 'x' },
        { case: 'cMessage', value: create(Nested, { label: 'm' }) },
        { case: 'cEnum', value: 2 },
        { case: 'cBytes', value: new Uint8Array([7]) },
      ].map((choice): [Codec, Message] => [codec('KindsCodec'), create(Kinds, { choice } as never)]),
    ];
    for (const [{ schema: type, encode, decode }, message] of cases) {
      const bytes = toBinary(type, message);
      expect(encode(message), type.typeName).toEqual(bytes);
      expect(decode(bytes), type.typeName).toEqual(fromBinary(type, bytes));
      expect(equals(type, decode(bytes), message)).toBe(true);
    }
    // Unknown fields: kept by decode, written back by encode (Original knows only field 1 of Evolved).
    const Original = schema(kindsModule, 'OriginalSchema');
    const Evolved = schema(kindsModule, 'EvolvedSchema');
    const evolvedBytes = toBinary(Evolved, create(Evolved, { name: 'n', count: -3n, nested: { label: 'x' }, packed: [-1, 2] }));
    const original = codec('OriginalCodec').decode(evolvedBytes);
    expect(original).toEqual(fromBinary(Original, evolvedBytes));
    expect(codec('OriginalCodec').encode(original)).toEqual(toBinary(Original, original));
    // Truncated input and invalid UTF-8 in a proto3 string fail as fromBinary fails.
    const full = toBinary(Kinds, create(Kinds, kindsInit));
    expect(() => codec('KindsCodec').decode(full.subarray(0, full.length - 1))).toThrow();
    expect(() => fromBinary(Kinds, full.subarray(0, full.length - 1))).toThrow();
    const badString = new Uint8Array([0x0a, 2, 0xc3, 0x28]);
    expect(() => codec('OriginalCodec').decode(badString)).toThrow();
    expect(() => fromBinary(Original, badString)).toThrow();
  });

  it('has generated JSON codecs that give the JSON and values of toJson/fromJson, and the errors', async () => {
    const codecs = await importModule(OUT, 'acme/kinds/v1/kinds_json.ts');
    type JsonCodec = {
      schema: DescMessage;
      toJson(message: Message, options?: object): JsonValue;
      fromJson(json: JsonValue, options?: object): Message;
      fromJsonString(json: string, options?: object): Message;
    };
    const writeKinds = codecs.writeKindsJson as (message: Message, registry: undefined) => JsonValue;
    const readKinds = codecs.readKindsJson as (json: JsonValue, depth: number) => Message;
    const kinds = codecs.KindsJsonCodec as JsonCodec;
    const messages = [
      create(Kinds, kindsInit),
      create(Kinds),
      ...[
        { case: 'cString', value: 'x' },
        { case: 'cMessage', value: create(Nested, { label: 'm' }) },
        { case: 'cEnum', value: 2 },
        { case: 'cBytes', value: new Uint8Array([7]) },
      ].map((choice) => create(Kinds, { choice } as never)),
    ];
    for (const message of messages) {
      const json = toJson(Kinds, message);
      // The generated code itself answers (it throws where it leaves input to reflection).
      expect(writeKinds(message, undefined)).toEqual(json);
      expect(readKinds(json, 1)).toEqual(fromJson(Kinds, json));
      expect(kinds.toJson(message)).toEqual(json);
      expect(kinds.fromJsonString(JSON.stringify(json))).toEqual(fromJson(Kinds, json));
      // Options the generated code does not take go to reflection.
      for (const options of [{ alwaysEmitImplicit: true }, { enumAsInteger: true }, { useProtoFieldName: true }])
        expect(kinds.toJson(message, options)).toEqual(toJson(Kinds, message, options));
      const protoNames = toJson(Kinds, message, { useProtoFieldName: true });
      expect(kinds.fromJson(protoNames)).toEqual(fromJson(Kinds, protoNames));
    }
    // Well-known types, Any among them (reflection, with the registry).
    const wellKnown = codecs.WellKnownJsonCodec as JsonCodec;
    const wellKnownJson = {
      timestamp: '2024-05-06T07:08:09.123Z',
      duration: '1.500s',
      any: { '@type': 'type.googleapis.com/acme.kinds.v1.Kinds.Nested', label: 'in any' },
      struct: { a: 1, b: [true, null, 's'], c: { d: 1.5 } },
      value: 'text',
      listValue: [1, 'two'],
      empty: {},
      fieldMask: 'a,bC',
      int64Value: '-5',
      uint64Value: '18446744073709551615',
      int32Value: 0,
      boolValue: false,
      stringValue: '',
      bytesValue: 'AQI=',
      timestamps: ['1970-01-01T00:00:00Z'],
      values: { k: 1 },
      oneInt32Value: 3,
    };
    const message = fromJson(WellKnown, wellKnownJson, { registry });
    expect(wellKnown.fromJson(wellKnownJson, { registry })).toEqual(message);
    expect(wellKnown.toJson(message, { registry })).toEqual(toJson(WellKnown, message, { registry }));
    const { any: _, ...withoutAny } = wellKnownJson;
    expect(wellKnown.fromJson(withoutAny)).toEqual(fromJson(WellKnown, withoutAny));
    // Bad input fails with reflection's own error.
    const failure = (read: () => unknown) => {
      try {
        read();
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    };
    for (const text of [
      '{"fInt32":1.5}',
      '{"unknownKey":1}',
      '{"fInt32":1,"fInt32":2}',
      '{"fString":"\\ud800"}',
      '{"fInt64":"1x"}',
      '[]',
      '{',
    ])
      expect(
        failure(() => kinds.fromJsonString(text)),
        text,
      ).toBe(failure(() => fromJsonString(Kinds, text)));
  });

  it('stops decoding 100 messages deep, as fromBinary and fromJson do: 100k nested Values end in an error, not a stack overflow', async () => {
    const codecs = await importModule(OUT, 'acme/kinds/v1/kinds_codec.ts');
    const { ProtoReader } = await importModule(OUT, 'runtime/proto-reader.ts');
    const { decode } = codecs.WellKnownCodec as { decode(bytes: Uint8Array): Message };
    const VALUE_FIELD = (5 << 3) | 2; // WellKnown.value
    // WellKnown is depth 1: 99 nested Values and ListValues reach 100; one more is refused.
    const deepest = nestedValues(99, VALUE_FIELD);
    expect(decode(deepest)).toEqual(fromBinary(WellKnown, deepest));
    const huge = nestedValues(100_000, VALUE_FIELD);
    expect(huge.length).toBeLessThan(500_000);
    for (const bytes of [nestedValues(100, VALUE_FIELD), huge]) {
      expect(() => decode(bytes)).toThrow('maximum recursion depth of 100 reached');
      // Reflection, the codecs' fallback, refuses it too.
      expect(() => fromBinary(WellKnown, bytes)).toThrow('maximum recursion depth of 100 reached');
    }
    // Through Struct: Value.struct_value, then a Struct.fields entry whose value is a Value again.
    const STRUCT_CHAIN = [(5 << 3) | 2, (1 << 3) | 2, (2 << 3) | 2];
    const structs = nestedFields(150_000, (level) => (level === 0 ? VALUE_FIELD : STRUCT_CHAIN[(level - 1) % 3]!));
    expect(() => decode(structs)).toThrow('maximum recursion depth of 100 reached');
    expect(() => fromBinary(WellKnown, structs)).toThrow('maximum recursion depth of 100 reached');
    // The limit is the reader's: a smaller one refuses sooner.
    const readWellKnown = codecs.readWellKnown as (reader: unknown, end: number) => Message;
    expect(() =>
      readWellKnown(new (ProtoReader as new (bytes: Uint8Array, limit: number) => unknown)(deepest, 10), deepest.length),
    ).toThrow('maximum recursion depth of 10 reached');
    // JSON is protobuf-es's fromJson, which counts nesting the same way.
    const json = `{"value":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(() => fromJsonString(WellKnown, json)).toThrow('maximum recursion depth of 100 reached');
    const jsonCodecs = await importModule(OUT, 'acme/kinds/v1/kinds_json.ts');
    const wellKnownJson = jsonCodecs.WellKnownJsonCodec as { fromJsonString(json: string): Message };
    expect(() => wellKnownJson.fromJsonString(json)).toThrow('maximum recursion depth of 100 reached');
    const shallow = `{"value":${'['.repeat(50)}${']'.repeat(50)}}`;
    expect(toJsonString(WellKnown, fromJsonString(WellKnown, shallow))).toBe(shallow);
  });

  it('describes services for the runtime, with WKT and cross-file messages', () => {
    const Names = namesModule.Names as DescService;
    expect(Names.methods.map((method) => [method.localName, method.methodKind, method.input.typeName, method.output.typeName])).toEqual([
      ['echo', 'unary', 'acme.kinds.v1.Message', 'acme.kinds.v1.Object'],
      ['stream', 'bidi_streaming', 'acme.kinds.v1.Kinds', 'google.protobuf.Timestamp'],
    ]);
    const TaskService = tasksModule.TaskService as DescService;
    expect(TaskService.methods.map((method) => method.methodKind)).toEqual([
      'unary',
      'unary',
      'unary',
      'unary',
      'server_streaming',
      'unary',
      'client_streaming',
      'bidi_streaming',
    ]);
  });
});

describe('jsonTypes off (the default, as protoc-gen-es without json_types)', async () => {
  const folder = mkdtempSync(join(ROOT, '.vitest-tmp', 'proto-messages-plain-'));
  const [{ files }] = await generate([protoApi('plain', [KINDS, NAMES, TASKS], [FIXTURES, 'schemas/proto'], folder)]);
  writeFiles(folder, files);
  writeFileSync(
    join(folder, 'usage.ts'),
    [
      'import { create, toJson, type JsonValue } from "@bufbuild/protobuf";',
      'import { TaskSchema, TaskStatusSchema } from "./acme/tasks/v1/tasks_pb.js";',
      '// Without JSON types, toJson answers the untyped JsonValue.',
      'export const json: JsonValue = toJson(TaskSchema, create(TaskSchema));',
      'export const status = TaskStatusSchema.values.length;',
      '',
    ].join('\n'),
  );

  it('writes no *Json types and types the schemas by their message and enum only', () => {
    for (const file of files.filter((each) => each.path.endsWith('_pb.ts'))) {
      expect(file.content, file.path).not.toMatch(/^export type \w+Json\b/m);
      expect(file.content, file.path).not.toMatch(/jsonType|\w+Json,$/m);
    }
    const tasks = files.find((file) => file.path.endsWith('tasks_pb.ts'))!.content;
    expect(tasks).toContain('export const TaskSchema: GenMessage<Task> = /*@__PURE__*/\n  messageDesc(file_acme_tasks_v1_tasks, 0);');
    expect(tasks).toContain('export const TaskStatusSchema: GenEnum<TaskStatus> = /*@__PURE__*/\n  enumDesc(file_acme_tasks_v1_tasks, 0);');
    // Only what the message types use is imported from the well-known types (and their files, for `fileDesc`).
    const wkt = /^import \{\n([^}]*)\} from "@bufbuild\/protobuf\/wkt";$/m.exec(tasks)?.[1];
    expect(wkt?.match(/type \w+/g)).toEqual(['type Duration', 'type EmptySchema', 'type FieldMask', 'type Timestamp']);
  });

  it('type-checks under strict with both compilers, with user code', () => {
    for (const [name, compiler] of Object.entries(COMPILERS)) {
      expect(typecheck(folder, compiler, 'browser').output, name).toBe('');
    }
  }, 120_000);

  it('keeps a license (detached comments before syntax) and the package comments in the header; a line break in them cannot make code', async () => {
    const input = join(folder, 'license');
    mkdirSync(input, { recursive: true });
    writeFileSync(
      join(input, 'licensed.proto'),
      [
        '// Copyright 2026 Acme Inc.',
        '// SPDX-License-Identifier: Apache-2.0',
        '',
        '/* A block comment, detached too. */',
        '',
        '// What the file is.',
        'syntax = "proto3";',
        '',
        '// About the package.\u2028export const injected = 1;',
        'package acme.licensed.v1;',
        '',
        'message Thing {',
        '  string id = 1;',
        '}',
        '',
      ].join('\n'),
    );
    const [{ files: licensed }] = await generate([
      protoApi('licensed', [join(input, 'licensed.proto')], [relative(ROOT, input)], join(folder, 'licensed-out')),
    ]);
    const content = licensed.find((file) => file.path.endsWith('_pb.ts'))!.content;
    const header = content.slice(0, content.indexOf('import '));
    expect(header.split('\n').slice(1)).toEqual([
      '',
      '// Copyright 2026 Acme Inc.',
      '// SPDX-License-Identifier: Apache-2.0',
      '',
      '// A block comment, detached too. ',
      '',
      '// What the file is.',
      '',
      '// About the package.',
      '//export const injected = 1;',
      '',
      '',
    ]);
    expect(content).not.toMatch(/^export const injected/m);
  });
});

describe("corpus: protos written by others (and the loader's fixtures) generate and type-check", async () => {
  const sets = [
    { name: 'grpc-proto', include: join(CORPUS, 'grpc-proto') },
    { name: 'grpc-examples', include: join(CORPUS, 'grpc-examples') },
    // The loader's fixtures: custom options (extensions of descriptor.proto), `import public`,
    // `import weak`, keywords as field names, non-ASCII comments.
    {
      name: 'loader-fixtures',
      include: join(ROOT, 'test/fixtures/proto/good'),
      files: protoFiles(join(ROOT, 'test/fixtures/proto/good')).filter(
        (f) => !f.startsWith(join(ROOT, 'test/fixtures/proto/good/options/')),
      ),
    },
    // good/options is an include root of its own (google/api annotations, options of every kind).
    { name: 'option-fixtures', include: join(ROOT, 'test/fixtures/proto/good/options') },
  ];
  const out = mkdtempSync(join(ROOT, '.vitest-tmp', 'proto-corpus-'));
  const outputs = await generate(
    sets.map((set) => protoApi(set.name, set.files ?? protoFiles(set.include), [relative(ROOT, set.include)], join(out, set.name))),
  );
  const generated: Array<{ folder: string; files: GeneratedFile[] }> = outputs.map(({ folder, files }) => ({ folder, files }));
  for (const { folder, files } of generated) writeFiles(folder, files);

  it('generates one module per file, the corpus copies of well-known types included', () => {
    for (const [index, set] of sets.entries()) {
      const expected = (set.files ?? protoFiles(set.include)).map((file) =>
        pbModulePath(relative(set.include, file).split('\\').join('/')).replace(/\.js$/, '.ts'),
      );
      const modules = generated[index].files.map((file) => file.path).filter((path) => path.endsWith('_pb.ts'));
      expect(modules.sort()).toEqual(expected.sort());
    }
  });

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`type-checks under strict with ${name}`, () => {
      const result = typecheck(out, compiler, 'browser');
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 180_000);
  }

  it('loads at run time: every schema resolves, and a health check request round-trips', async () => {
    transpileFolder(out);
    let count = 0;
    for (const { folder, files } of generated) {
      for (const file of files) {
        const module = await importModule(folder, file.path);
        for (const [key, value] of Object.entries(module)) {
          if (key.endsWith('Schema') && (value as DescMessage).kind === 'message') {
            expect(create(value as DescMessage).$typeName).toBe((value as DescMessage).typeName);
            count++;
          }
        }
      }
    }
    expect(count).toBeGreaterThan(50);
    const health = await importModule(join(out, 'grpc-proto'), 'grpc/health/v1/health_pb.ts');
    const Request = schema(health, 'HealthCheckRequestSchema');
    const request = create(Request, { service: 'acme.tasks.v1.TaskService' });
    expect(toJson(Request, fromBinary(Request, toBinary(Request, request)))).toEqual({ service: 'acme.tasks.v1.TaskService' });
    expect(statSync(join(out, 'grpc-proto', 'grpc/health/v1/health_pb.js')).isFile()).toBe(true);
    expect(readFileSync(join(out, 'grpc-proto', 'grpc/channelz/v1/channelz_pb.ts'), 'utf8')).toContain(
      'from "../../../google/protobuf/any_pb.js"',
    );
  });
});
