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
import { isFieldSet } from '@bufbuild/protobuf';
import { FieldDescriptorProtoSchema, FieldDescriptorProto_Label, FieldDescriptorProto_Type } from '@bufbuild/protobuf/wkt';
import type { SourceLocation } from '../core/diagnostics.js';
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
  const side: Side = { loaded, packages: new Set(), messages: new Map(), enums: new Map(), services: new Map() };
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
    };
    file.messageType.forEach((message, i) => addMessage(message, [4, i], ''));
    file.enumType.forEach((value, i) => side.enums.set(value.name, { value, file, path: [5, i], name: value.name }));
    file.service.forEach((value, i) => side.services.set(value.name, { value, file, path: [6, i], name: value.name }));
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

function cardinality(field: FieldDescriptorProto): string {
  if (field.label === FieldDescriptorProto_Label.REPEATED) return 'repeated';
  if (field.label === FieldDescriptorProto_Label.REQUIRED) return 'required';
  return field.proto3Optional ? 'optional' : 'singular';
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
    if (cardinality(f) !== cardinality(twin.f)) {
      const wireOk =
        (cardinality(f) === 'optional' && cardinality(twin.f) === 'singular') ||
        (cardinality(f) === 'singular' && cardinality(twin.f) === 'optional');
      push(
        'field-cardinality-changed',
        'breaking',
        wireOk ? SOURCE : ALL,
        `field ${label}: ${cardinality(f)} → ${cardinality(twin.f)}`,
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
    if (oneofOf(old.value, f) !== oneofOf(now.value, twin.f)) {
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

function compareEnum(old: Placed<EnumDescriptorProto>, now: Placed<EnumDescriptorProto>, before: Side, after: Side, push: Push): void {
  const at = (side: Side, placed: Placed<EnumDescriptorProto>, i: number) => locate(side, placed.file, [...placed.path, 2, i]);
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
