/**
 * `codegen diff` for Protocol Buffers: both versions are loaded with protoc-exact descriptors
 * (proto/load.ts), then packages, messages, fields (by number, as the wire knows them), enums,
 * services and rpcs are compared. Each change names buf breaking's categories it falls under (FILE,
 * PACKAGE, WIRE_JSON, WIRE) and is located with `source_code_info`. Versioning (§9.4): elements
 * are matched by their name inside the package, so `acme.tasks.v1` → `acme.tasks.v2` compares
 * the same messages, and breaking changes that come with a new package version are `versioned`.
 */
import type {
  DescriptorProto,
  EnumDescriptorProto,
  FieldDescriptorProto,
  FileDescriptorProto,
  ServiceDescriptorProto,
} from '@bufbuild/protobuf/wkt';
import { isFieldSet, type DescField } from '@bufbuild/protobuf';
import {
  FieldDescriptorProtoSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FeatureSet_FieldPresence,
  FieldOptions_JSType,
} from '@bufbuild/protobuf/wkt';
import type { SourceLocation } from '../core/diagnostics.js';
import { httpRulesOf, type HttpBinding } from '../proto/http-rules.js';
import { loadProto, type LoadedProto } from '../proto/load.js';
import type { Change, ChangeClass, DiffResult, SideRoots } from './changes.js';

export interface ProtoDiffOptions {
  /** protoc's `-I` for each side; default: each input's folder. */
  oldIncludePaths?: string[];
  newIncludePaths?: string[];
  /** The folder each side's paths are shown from (a `git:REF` side lives in a temporary folder). */
  roots?: SideRoots;
}

/** A named element with where it is written. */
interface Placed<T> {
  value: T;
  file: FileDescriptorProto;
  path: number[];
  /** Name inside the package, e.g. `Task.Labels`. */
  name: string;
}

interface Side {
  loaded: LoadedProto;
  packages: Set<string>;
  messages: Map<string, Placed<DescriptorProto>>;
  enums: Map<string, Placed<EnumDescriptorProto>>;
  services: Map<string, Placed<ServiceDescriptorProto>>;
  /** Extension fields, by name inside the package (`Task.note` when declared inside a message). */
  extensions: Map<string, Placed<FieldDescriptorProto>>;
}

const ALL = ['FILE', 'PACKAGE', 'WIRE_JSON', 'WIRE'];
const SOURCE = ['FILE', 'PACKAGE'];
const JSON_AND_SOURCE = ['FILE', 'PACKAGE', 'WIRE_JSON'];

export function diffProto(oldFiles: string[], newFiles: string[], options: ProtoDiffOptions = {}): DiffResult {
  const before = index(
    loadProto(oldFiles, { includePaths: options.oldIncludePaths, displayRoot: options.roots?.old, readRoots: options.roots?.oldRead }),
  );
  const after = index(
    loadProto(newFiles, { includePaths: options.newIncludePaths, displayRoot: options.roots?.new, readRoots: options.roots?.newRead }),
  );
  return { style: 'proto', changes: compareSides(before, after) };
}

function index(loaded: LoadedProto): Side {
  const side: Side = { loaded, packages: new Set(), messages: new Map(), enums: new Map(), services: new Map(), extensions: new Map() };
  const asked = new Set(loaded.files);
  for (const file of loaded.set.file) {
    // The files asked for, not what they import (well-known types, google/api): those are not the API's.
    if (!asked.has(file.name)) continue;
    side.packages.add(file.package);
    const addMessage = (message: DescriptorProto, path: number[], prefix: string) => {
      const name = `${prefix}${message.name}`;
      side.messages.set(name, { value: message, file, path, name });
      message.nestedType.forEach((nested, i) => addMessage(nested, [...path, 3, i], `${name}.`));
      message.enumType.forEach((nested, i) =>
        side.enums.set(`${name}.${nested.name}`, { value: nested, file, path: [...path, 4, i], name: `${name}.${nested.name}` }),
      );
      message.extension.forEach((value, i) =>
        side.extensions.set(`${name}.${value.name}`, { value, file, path: [...path, 6, i], name: `${name}.${value.name}` }),
      );
    };
    file.messageType.forEach((message, i) => addMessage(message, [4, i], ''));
    file.enumType.forEach((value, i) => side.enums.set(value.name, { value, file, path: [5, i], name: value.name }));
    file.service.forEach((value, i) => side.services.set(value.name, { value, file, path: [6, i], name: value.name }));
    file.extension.forEach((value, i) => side.extensions.set(value.name, { value, file, path: [7, i], name: value.name }));
  }
  return side;
}

function locate(side: Side, file: FileDescriptorProto, path: number[]): SourceLocation {
  const found = file.sourceCodeInfo?.location.find((l) => l.path.length === path.length && l.path.every((p, i) => p === path[i]));
  const display = side.loaded.displayNames.get(file.name) ?? file.name;
  return found
    ? { file: display, line: (found.span[0] ?? 0) + 1, column: (found.span[1] ?? 0) + 1 }
    : { file: display, line: 1, column: 1 };
}

const VERSION = /(^|\.)v\d+(?:(?:alpha|beta|test|p\d+)\w*)?$/;

function compareSides(before: Side, after: Side): Change[] {
  const changes: Change[] = [];
  const push = (
    kind: string,
    cls: ChangeClass,
    categories: string[],
    message: string,
    wire: string,
    code: string,
    location: SourceLocation,
  ) => {
    changes.push({ kind, class: cls, categories, message, wire, code, location });
  };
  const oldPackages = [...before.packages].sort();
  const newPackages = [...after.packages].sort();
  const versionOf = (packages: string[]) => packages.map((p) => VERSION.exec(p)?.[0] ?? '').join(',');
  const packageMoved = oldPackages.join(',') !== newPackages.join(',');
  if (packageMoved) {
    const first = after.loaded.set.file.find((f) => after.packages.has(f.package));
    push(
      'package-changed',
      'breaking',
      SOURCE,
      `package changed from ${oldPackages.join(', ')} to ${newPackages.join(', ')}`,
      'old clients call /<old package>.<Service>/<Method> and get UNIMPLEMENTED',
      'every generated import path and type name changes',
      first ? locate(after, first, [2]) : { file: '', line: 1, column: 1 },
    );
  }

  for (const [name, old] of before.messages) {
    const now = after.messages.get(name);
    if (!now) {
      push(
        'message-removed',
        'breaking',
        SOURCE,
        `message ${name} removed`,
        'unchanged for the fields still sent inside other messages, but nothing can name it',
        `the generated ${name.replace(/\./g, '_')} type and schema are gone; code using them no longer compiles`,
        locate(before, old.file, old.path),
      );
      continue;
    }
    // A file move that comes with the package's new version is that version's, not a move.
    if (old.file.name !== now.file.name && old.file.package === now.file.package) {
      push(
        'message-moved-file',
        'dangerous',
        ['FILE'],
        `message ${name} moved from ${old.file.name} to ${now.file.name}`,
        'unchanged',
        `the generated type is imported from another _pb.ts file`,
        locate(after, now.file, now.path),
      );
    }
    compareMessage(old, now, before, after, push);
  }
  for (const [name, now] of after.messages) {
    if (!before.messages.has(name))
      push('message-added', 'safe', [], `message ${name} added`, 'unchanged', 'a new generated type', locate(after, now.file, now.path));
  }

  for (const [name, old] of before.enums) {
    const now = after.enums.get(name);
    if (!now) {
      push(
        'enum-removed',
        'breaking',
        SOURCE,
        `enum ${name} removed`,
        'fields of it still on the wire are read as plain numbers',
        'the generated enum is gone; code naming it no longer compiles',
        locate(before, old.file, old.path),
      );
      continue;
    }
    compareEnum(old, now, before, after, push);
  }

  for (const [name, old] of before.services) {
    const now = after.services.get(name);
    if (!now) {
      push(
        'service-removed',
        'breaking',
        SOURCE,
        `service ${name} removed`,
        'old clients get UNIMPLEMENTED for every method',
        'the generated client and server interface are gone',
        locate(before, old.file, old.path),
      );
      continue;
    }
    compareService(old, now, before, after, push);
  }

  compareExtensions(before, after, push);

  // §9.4: a breaking change is allowed only in a new package version.
  const versioned = packageMoved && versionOf(oldPackages) !== versionOf(newPackages) && newPackages.every((p) => VERSION.test(p));
  if (versioned) for (const change of changes) if (change.class === 'breaking') change.versioned = true;
  return changes;
}

type Push = (
  kind: string,
  cls: ChangeClass,
  categories: string[],
  message: string,
  wire: string,
  code: string,
  location: SourceLocation,
) => void;

const TYPE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(FieldDescriptorProto_Type)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => [v as number, k.replace(/^TYPE_/, '').toLowerCase()]),
);

function typeOf(field: FieldDescriptorProto): string {
  return field.typeName ? field.typeName.replace(/^\./, '') : (TYPE_NAMES[field.type] ?? String(field.type));
}

/** Wire-compatible scalar groups (protobuf's language guide, "Updating a message type"). */
const WIRE_GROUPS: string[][] = [
  ['int32', 'uint32', 'int64', 'uint64', 'bool', 'enum'],
  ['sint32', 'sint64'],
  ['fixed32', 'sfixed32'],
  ['fixed64', 'sfixed64'],
  ['string', 'bytes'],
];

function wireCompatible(a: FieldDescriptorProto, b: FieldDescriptorProto): boolean {
  const kindOf = (f: FieldDescriptorProto) => (f.type === FieldDescriptorProto_Type.ENUM ? 'enum' : (TYPE_NAMES[f.type] ?? ''));
  const ka = kindOf(a);
  const kb = kindOf(b);
  return WIRE_GROUPS.some((group) => group.includes(ka) && group.includes(kb));
}

/**
 * With the resolved descriptor, presence decides too: editions write `required` and `optional` as
 * `field_presence`, so a file moved to editions with the same behaviour keeps its cardinalities.
 */
function cardinality(field: FieldDescriptorProto, resolved?: DescField): string {
  if (field.label === FieldDescriptorProto_Label.REPEATED) return 'repeated';
  if (field.label === FieldDescriptorProto_Label.REQUIRED || resolved?.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED)
    return 'required';
  if (field.proto3Optional) return 'optional';
  const scalar = resolved?.fieldKind === 'scalar' || resolved?.fieldKind === 'enum';
  return scalar && resolved.presence === FeatureSet_FieldPresence.EXPLICIT && !resolved.oneof ? 'optional' : 'singular';
}

function packageOf(file: FileDescriptorProto, typeName: string): string {
  const prefix = file.package ? `${file.package}.` : '';
  return typeName.startsWith(prefix) ? typeName.slice(prefix.length) : typeName;
}

function compareMessage(old: Placed<DescriptorProto>, now: Placed<DescriptorProto>, before: Side, after: Side, push: Push): void {
  const oldFields = new Map(old.value.field.map((f, i) => [f.number, { f, i }]));
  const newFields = new Map(now.value.field.map((f, i) => [f.number, { f, i }]));
  const reservedNumber = (message: DescriptorProto, n: number) => message.reservedRange.some((r) => n >= r.start && n < r.end);
  const at = (side: Side, placed: Placed<DescriptorProto>, i: number) => locate(side, placed.file, [...placed.path, 2, i]);
  for (const [number, { f, i }] of oldFields) {
    const twin = newFields.get(number);
    const label = `${old.name}.${f.name} = ${number}`;
    if (!twin) {
      const moved = now.value.field.find((g) => g.name === f.name);
      if (moved) {
        push(
          'field-number-changed',
          'breaking',
          ALL,
          `field ${old.name}.${f.name} renumbered ${number} → ${moved.number}`,
          'old peers write and read the field under the old number: the value is lost or misread',
          'the generated type is unchanged; the binary encoding is not',
          at(after, now, now.value.field.indexOf(moved)),
        );
      } else if (reservedNumber(now.value, number)) {
        push(
          'field-removed-reserved',
          'breaking',
          now.value.reservedName.includes(f.name) ? SOURCE : JSON_AND_SOURCE,
          `field ${label} removed (number reserved)`,
          'old peers still send it; new ones skip it as unknown',
          'the generated type loses it; code using it no longer compiles',
          at(before, old, i),
        );
      } else {
        push(
          'field-removed',
          'breaking',
          ALL,
          `field ${label} removed without reserving its number`,
          `old peers still send number ${number}; a later field may reuse it and be misread`,
          'the generated type loses it; code using it no longer compiles',
          at(before, old, i),
        );
      }
      continue;
    }
    const where = at(after, now, twin.i);
    if (twin.f.name !== f.name) {
      // A new name and a new type on an old number is another field taking the number, not a rename.
      const reused =
        old.value.field.some((g) => g.name === twin.f.name) || packageOf(old.file, typeOf(f)) !== packageOf(now.file, typeOf(twin.f));
      push(
        reused ? 'field-number-reused' : 'field-renamed',
        'breaking',
        JSON_AND_SOURCE,
        reused
          ? `field number ${number} of ${old.name} reused: ${f.name} removed, ${twin.f.name} takes its number`
          : `field ${number} of ${old.name} renamed ${f.name} → ${twin.f.name}`,
        'binary unchanged; the JSON key changes, so JSON (and Connect JSON) peers lose the value',
        'the generated property is renamed; code using the old name no longer compiles',
        where,
      );
    } else if (twin.f.jsonName !== f.jsonName) {
      push(
        'field-json-name-changed',
        'breaking',
        JSON_AND_SOURCE,
        `field ${label}: json_name ${f.jsonName} → ${twin.f.jsonName}`,
        'JSON peers use the old key and lose the value',
        'the generated JSON key changes',
        where,
      );
    }
    if (packageOf(old.file, typeOf(f)) !== packageOf(now.file, typeOf(twin.f))) {
      const compatible = !f.typeName && !twin.f.typeName ? wireCompatible(f, twin.f) : false;
      push(
        'field-type-changed',
        'breaking',
        compatible ? JSON_AND_SOURCE : ALL,
        `field ${label}: type ${packageOf(old.file, typeOf(f))} → ${packageOf(now.file, typeOf(twin.f))}`,
        compatible
          ? 'binary-compatible (same wire type, values may be truncated); the JSON form changes'
          : 'old peers decode the bytes as the old type: garbage or a parse error',
        'the generated property type changes; code using it no longer compiles',
        where,
      );
    }
    const resolved = [fieldOf(before, old, number), fieldOf(after, now, number)] as const;
    const was = cardinality(f, resolved[0]);
    const is = cardinality(twin.f, resolved[1]);
    if (was !== is) {
      const wireOk = (was === 'optional' && is === 'singular') || (was === 'singular' && is === 'optional');
      push(
        'field-cardinality-changed',
        'breaking',
        wireOk ? SOURCE : ALL,
        `field ${label}: ${was} → ${is}`,
        wireOk
          ? 'unchanged on the wire except presence of default values'
          : 'old peers read a repeated field as one value (the last) or the reverse',
        'the generated property changes (optional ↔ required, T ↔ T[])',
        where,
      );
    }
    // descriptor.proto is proto2: an unset oneof_index reads 0, so presence is asked for.
    const oneofOf = (message: DescriptorProto, field: FieldDescriptorProto) =>
      isFieldSet(field, FieldDescriptorProtoSchema.field.oneofIndex) && !field.proto3Optional
        ? message.oneofDecl[field.oneofIndex]?.name
        : undefined;
    const sameOneof = oneofOf(old.value, f) === oneofOf(now.value, twin.f);
    if (!sameOneof) {
      push(
        'field-oneof-changed',
        'breaking',
        ALL,
        `field ${label}: oneof ${oneofOf(old.value, f) ?? 'none'} → ${oneofOf(now.value, twin.f) ?? 'none'}`,
        'setting one member now clears the others (or no longer does)',
        'the generated property moves in or out of a oneof union',
        where,
      );
    }
    // Only when nothing above already tells the change (a oneof member, for one, has explicit presence).
    if (resolved[0] && resolved[1] && sameOneof && was === is && typeOf(f) === typeOf(twin.f)) {
      compareEncoding(label, resolved[0], resolved[1], where, push);
      compareValueOptions(label, f, twin.f, where, push);
    }
  }
  for (const [number, { f, i }] of newFields) {
    if (oldFields.has(number)) continue;
    if (old.value.field.some((g) => g.name === f.name)) continue; // reported as renumbered
    push(
      'field-added',
      'safe',
      [],
      `field ${now.name}.${f.name} = ${number} added`,
      'old peers skip it as unknown',
      'the generated type gains it',
      at(after, now, i),
    );
  }
  for (const range of old.value.reservedRange) {
    if (!now.value.reservedRange.some((r) => r.start <= range.start && r.end >= range.end)) {
      push(
        'reserved-range-removed',
        'breaking',
        ALL,
        `${old.name}: reserved ${range.start === range.end - 1 ? range.start : `${range.start} to ${range.end - 1}`} removed`,
        'the freed numbers may be reused and misread by old peers',
        'unchanged',
        locate(after, now.file, now.path),
      );
    }
  }
  for (const name of old.value.reservedName) {
    if (!now.value.reservedName.includes(name))
      push(
        'reserved-name-removed',
        'breaking',
        JSON_AND_SOURCE,
        `${old.name}: reserved name "${name}" removed`,
        'the freed JSON key may be reused and misread by old JSON peers',
        'unchanged',
        locate(after, now.file, now.path),
      );
  }
}

/** The descriptor with features resolved (file → message → field) by protobuf-es, for the field numbered `number`. */
function fieldOf(side: Side, message: Placed<DescriptorProto>, number: number): DescField | undefined {
  return side.loaded.registry.getMessage(fullName(message))?.fields.find((field) => field.number === number);
}

function fullName(placed: Placed<unknown>): string {
  return placed.file.package ? `${placed.file.package}.${placed.name}` : placed.name;
}

/**
 * Options and editions features that change how one field is encoded, on a field whose type and
 * label stay: `packed` / `repeated_field_encoding`, `utf8_validation`,
 * `message_encoding` (delimited). Resolved, so a proto3 file moved to editions with the same
 * behaviour shows no change.
 */
function compareEncoding(label: string, old: DescField, now: DescField, where: SourceLocation, push: Push): void {
  if (old.fieldKind === 'list' && now.fieldKind === 'list' && old.packed !== now.packed) {
    const mode = (packed: boolean) => (packed ? 'packed' : 'expanded');
    push(
      'field-packed-changed',
      'safe',
      [],
      `field ${label}: repeated encoding ${mode(old.packed)} → ${mode(now.packed)}`,
      'unchanged for conformant peers: parsers read both packed and expanded forms (protobuf ≥ 2.3)',
      'unchanged',
      where,
    );
  }
  // Resolved on every field, but only strings are validated.
  if (old.proto.type === FieldDescriptorProto_Type.STRING && old.utf8Validation !== now.utf8Validation) {
    push(
      'field-utf8-validation-changed',
      'breaking',
      ALL,
      `field ${label}: utf8_validation ${old.utf8Validation ? 'VERIFY' : 'NONE'} → ${now.utf8Validation ? 'VERIFY' : 'NONE'}`,
      'invalid UTF-8 one side accepts makes the other side fail to parse the message',
      'unchanged',
      where,
    );
  }
  if (old.fieldKind === 'message' && now.fieldKind === 'message' && old.delimitedEncoding !== now.delimitedEncoding) {
    const mode = (delimited: boolean) => (delimited ? 'delimited' : 'length-prefixed');
    push(
      'field-message-encoding-changed',
      'breaking',
      ALL,
      `field ${label}: message encoding ${mode(old.delimitedEncoding)} → ${mode(now.delimitedEncoding)}`,
      'another wire type (group vs length-prefixed): old peers skip or fail on the field',
      'unchanged',
      where,
    );
  }
}

/** Options that change the value read or the generated type, not the bytes: `default`, `jstype`. */
function compareValueOptions(label: string, old: FieldDescriptorProto, now: FieldDescriptorProto, where: SourceLocation, push: Push): void {
  const defaultOf = (f: FieldDescriptorProto) =>
    isFieldSet(f, FieldDescriptorProtoSchema.field.defaultValue) ? JSON.stringify(f.defaultValue) : 'none';
  if (defaultOf(old) !== defaultOf(now))
    push(
      'field-default-changed',
      'breaking',
      ALL,
      `field ${label}: default ${defaultOf(old)} → ${defaultOf(now)}`,
      'bytes unchanged; a field not sent reads as a different value on old and new peers',
      'the generated default changes',
      where,
    );
  const jstype = (f: FieldDescriptorProto) => FieldOptions_JSType[f.options?.jstype ?? FieldOptions_JSType.JS_NORMAL];
  if (jstype(old) !== jstype(now))
    push(
      'field-jstype-changed',
      'breaking',
      SOURCE,
      `field ${label}: jstype ${jstype(old)} → ${jstype(now)}`,
      'unchanged',
      'the generated property changes between bigint and string; code using it no longer compiles',
      where,
    );
}

function compareEnum(old: Placed<EnumDescriptorProto>, now: Placed<EnumDescriptorProto>, before: Side, after: Side, push: Push): void {
  const at = (side: Side, placed: Placed<EnumDescriptorProto>, i: number) => locate(side, placed.file, [...placed.path, 2, i]);
  const wasOpen = before.loaded.registry.getEnum(fullName(old))?.open;
  const isOpen = after.loaded.registry.getEnum(fullName(now))?.open;
  if (wasOpen !== undefined && isOpen !== undefined && wasOpen !== isOpen) {
    const kind = (open: boolean) => (open ? 'open' : 'closed');
    push(
      'enum-type-changed',
      'breaking',
      SOURCE,
      `enum ${old.name}: ${kind(wasOpen)} → ${kind(isOpen)}`,
      'bytes unchanged; an unknown value lands in the field (open) or in unknown fields (closed), so peers disagree on what was received',
      'the generated field accepts any number (open) or only the listed values (closed)',
      locate(after, now.file, now.path),
    );
  }
  old.value.value.forEach((value, i) => {
    const j = now.value.value.findIndex((v) => v.number === value.number);
    const twin = now.value.value[j];
    if (twin === undefined) {
      const reserved = now.value.reservedRange.some((r) => value.number >= r.start && value.number <= r.end);
      push(
        reserved ? 'enum-value-removed-reserved' : 'enum-value-removed',
        'breaking',
        reserved ? SOURCE : ALL,
        `enum value ${old.name}.${value.name} = ${value.number} removed${reserved ? ' (number reserved)' : ''}`,
        'old peers still send it; new ones read an unknown number (JSON: a parse error)',
        'the generated enum loses it; code naming it no longer compiles',
        at(before, old, i),
      );
    } else if (twin.name !== value.name) {
      push(
        'enum-value-renamed',
        'breaking',
        JSON_AND_SOURCE,
        `enum value ${value.number} of ${old.name} renamed ${value.name} → ${twin.name}`,
        'binary unchanged; JSON carries the name, so JSON peers fail to parse it',
        'the generated enum member is renamed',
        at(after, now, j),
      );
    }
  });
  now.value.value.forEach((value, i) => {
    if (old.value.value.some((v) => v.number === value.number)) return;
    push(
      'enum-value-added',
      'dangerous',
      [],
      `enum value ${now.name}.${value.name} = ${value.number} added`,
      'old peers receive a number they do not know (JSON: a name they cannot parse)',
      'the generated enum gains it; exhaustive switches no longer compile',
      at(after, now, i),
    );
  });
}

function compareService(
  old: Placed<ServiceDescriptorProto>,
  now: Placed<ServiceDescriptorProto>,
  before: Side,
  after: Side,
  push: Push,
): void {
  const oldRoutes = routesOf(before, old);
  const newRoutes = routesOf(after, now);
  old.value.method.forEach((method, i) => {
    const j = now.value.method.findIndex((m) => m.name === method.name);
    const twin = now.value.method[j];
    const name = `${old.name}.${method.name}`;
    if (twin === undefined) {
      push(
        'rpc-removed',
        'breaking',
        SOURCE,
        `rpc ${name} removed`,
        'old clients get UNIMPLEMENTED',
        'the generated client method and handler are gone',
        locate(before, old.file, [...old.path, 2, i]),
      );
      return;
    }
    const where = locate(after, now.file, [...now.path, 2, j]);
    const rel = (file: FileDescriptorProto, type: string) => packageOf(file, type.replace(/^\./, ''));
    if (rel(old.file, method.inputType) !== rel(now.file, twin.inputType)) {
      push(
        'rpc-request-type-changed',
        'breaking',
        ALL,
        `rpc ${name}: request ${rel(old.file, method.inputType)} → ${rel(now.file, twin.inputType)}`,
        'old clients send the old message; the server misreads it',
        'the generated client method takes another type',
        where,
      );
    }
    if (rel(old.file, method.outputType) !== rel(now.file, twin.outputType)) {
      push(
        'rpc-response-type-changed',
        'breaking',
        ALL,
        `rpc ${name}: response ${rel(old.file, method.outputType)} → ${rel(now.file, twin.outputType)}`,
        'old clients decode the answer as the old message',
        'the generated client method returns another type',
        where,
      );
    }
    if (
      Boolean(method.clientStreaming) !== Boolean(twin.clientStreaming) ||
      Boolean(method.serverStreaming) !== Boolean(twin.serverStreaming)
    ) {
      const mode = (m: typeof method) =>
        m.clientStreaming ? (m.serverStreaming ? 'bidi' : 'client streaming') : m.serverStreaming ? 'server streaming' : 'unary';
      push(
        'rpc-streaming-changed',
        'breaking',
        ALL,
        `rpc ${name}: ${mode(method)} → ${mode(twin)}`,
        'old clients frame the call in the old mode and fail',
        'the generated client method changes shape (value ↔ async iterable)',
        where,
      );
    }
    const routes = [oldRoutes.get(method.name) ?? [], newRoutes.get(twin.name) ?? []];
    const gone = routes[0]!.filter((route) => !routes[1]!.includes(route));
    if (gone.length > 0) {
      push(
        'http-rule-changed',
        'breaking',
        [],
        `rpc ${name}: google.api.http ${routes[0]!.join(', ')} → ${routes[1]!.join(', ') || 'none'}`,
        `REST clients of the transcoding still call ${gone.join(', ')} and get 404 or 405`,
        'the generated REST routes and transcoding client change',
        where,
      );
    } else if (routes[1]!.length > routes[0]!.length) {
      push(
        'http-route-added',
        'safe',
        [],
        `rpc ${name}: google.api.http ${routes[1]!.filter((route) => !routes[0]!.includes(route)).join(', ')} added`,
        'old REST clients do not call it',
        'a new generated REST route',
        where,
      );
    }
  });
  now.value.method.forEach((method, j) => {
    if (!old.value.method.some((m) => m.name === method.name))
      push(
        'rpc-added',
        'safe',
        [],
        `rpc ${now.name}.${method.name} added`,
        'old clients do not call it',
        'a new generated client method; the server needs a handler',
        locate(after, now.file, [...now.path, 2, j]),
      );
  });
}

/** Each method's `google.api.http` bindings as `VERB /path (body: x)`, by method name. */
function routesOf(side: Side, service: Placed<ServiceDescriptorProto>): Map<string, string[]> {
  const desc = side.loaded.registry.getService(fullName(service));
  const routes = new Map<string, string[]>();
  if (!desc) return routes;
  const rules = httpRulesOf(side.loaded, desc);
  const show = (b: HttpBinding) =>
    `${b.method} ${b.path}${b.body ? ` (body: ${b.body})` : ''}${b.responseBody ? ` (response body: ${b.responseBody})` : ''}`;
  for (const method of desc.methods) routes.set(method.name, (rules.get(method.localName) ?? []).map(show));
  return routes;
}

/** Extensions are fields on the wire: matched by name, their number, extendee and type compared like a field's. */
function compareExtensions(before: Side, after: Side, push: Push): void {
  const rel = (placed: Placed<FieldDescriptorProto>, type: string) => packageOf(placed.file, type.replace(/^\./, ''));
  for (const [name, old] of before.extensions) {
    const now = after.extensions.get(name);
    const label = `extension ${name} = ${old.value.number} of ${rel(old, old.value.extendee)}`;
    if (!now) {
      push(
        'extension-removed',
        'breaking',
        SOURCE,
        `${label} removed`,
        `old peers still send number ${old.value.number}; new ones keep it as an unknown field, and a later extension may reuse it`,
        'the generated extension is gone; code reading it no longer compiles',
        locate(before, old.file, old.path),
      );
      continue;
    }
    const where = locate(after, now.file, now.path);
    if (now.value.number !== old.value.number)
      push(
        'extension-number-changed',
        'breaking',
        ALL,
        `${label}: number ${old.value.number} → ${now.value.number}`,
        'old peers write and read it under the old number: the value is lost or misread',
        'the generated extension is unchanged; the binary encoding is not',
        where,
      );
    if (rel(old, old.value.extendee) !== rel(now, now.value.extendee))
      push(
        'extension-extendee-changed',
        'breaking',
        ALL,
        `${label}: now extends ${rel(now, now.value.extendee)}`,
        'old peers look for it on the old message',
        'the generated extension applies to another message',
        where,
      );
    if (rel(old, typeOf(old.value)) !== rel(now, typeOf(now.value))) {
      const compatible = !old.value.typeName && !now.value.typeName && wireCompatible(old.value, now.value);
      push(
        'extension-type-changed',
        'breaking',
        compatible ? JSON_AND_SOURCE : ALL,
        `${label}: type ${rel(old, typeOf(old.value))} → ${rel(now, typeOf(now.value))}`,
        compatible
          ? 'binary-compatible (same wire type, values may be truncated); the JSON form changes'
          : 'old peers decode the bytes as the old type: garbage or a parse error',
        'the generated extension has another value type',
        where,
      );
    }
    if (cardinality(old.value) !== cardinality(now.value))
      push(
        'extension-cardinality-changed',
        'breaking',
        ALL,
        `${label}: ${cardinality(old.value)} → ${cardinality(now.value)}`,
        'old peers read a repeated value as one (the last) or the reverse',
        'the generated extension value changes (T ↔ T[])',
        where,
      );
  }
  for (const [name, now] of after.extensions)
    if (!before.extensions.has(name))
      push(
        'extension-added',
        'safe',
        [],
        `extension ${name} = ${now.value.number} of ${rel(now, now.value.extendee)} added`,
        'old peers keep it as an unknown field',
        'a new generated extension',
        locate(after, now.file, now.path),
      );
}
