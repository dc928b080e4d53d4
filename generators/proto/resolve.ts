/**
 * Linking, as protoc's DescriptorBuilder does it: a symbol table over every loaded file, type
 * names resolved with protoc's scoping rules to `.pkg.Msg` (and `type` set to TYPE_MESSAGE or
 * TYPE_ENUM; groups stay TYPE_GROUP), `json_name` filled in, defaults checked and printed as
 * protoc does, and the semantic checks protoc makes by syntax (duplicates, field numbers, reserved
 * numbers and names, extension ranges and numbers, map keys, enum rules, imports actually visible,
 * edition 2024 visibility and naming style). Every problem is collected with its position.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { isFieldSet } from '@bufbuild/protobuf';
import {
  Edition,
  FeatureSet_EnumType,
  FeatureSet_JsonFormat,
  FieldDescriptorProtoSchema,
  SymbolVisibility,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
} from '@bufbuild/protobuf/wkt';
import type { FeatureSet } from '@bufbuild/protobuf/wkt';
import type { DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { canonicalDefault } from './defaults.js';
import { checkNamingStyle } from './naming-style.js';
import { FIELD_NUMBER_MAX, parentScope } from './parse.js';
import type { ParsedFile, Pos } from './parse.js';

export type SymbolKind = 'package' | 'message' | 'enum' | 'enumValue' | 'field' | 'oneof' | 'service' | 'method' | 'extension';

export interface Sym {
  kind: SymbolKind;
  file: LinkFile;
  /** The descriptor it names (message, enum, field...). */
  desc?: unknown;
  pos?: Pos;
  /** Edition 2024 and later: why this message or enum is local to its file (protoc's words). */
  local?: string;
}

export interface LinkFile extends ParsedFile {
  /** Taken from an embedded descriptor: already linked, no positions. */
  prelinked?: boolean;
}

const IS_TYPE = new Set<SymbolKind>(['message', 'enum']);
const IS_AGGREGATE = new Set<SymbolKind>(['message', 'enum', 'package', 'service']);

/** protoc's ToJsonName: underscores dropped, the letter after each one upper-cased. */
export function jsonName(name: string): string {
  let result = '';
  let capitalizeNext = false;
  for (const c of name) {
    if (c === '_') capitalizeNext = true;
    else if (capitalizeNext) {
      result += c.toUpperCase();
      capitalizeNext = false;
    } else result += c;
  }
  return result;
}

const join = (scope: string, name: string) => (scope === '' ? name : `${scope}.${name}`);

const KIND_WORD: Record<SymbolKind, string> = {
  package: 'a package',
  message: 'a message',
  enum: 'an enum',
  enumValue: 'an enum value',
  field: 'a field',
  oneof: 'a oneof',
  service: 'a service',
  method: 'a method',
  extension: 'an extension',
};

export class Linker {
  readonly symbols = new Map<string, Sym>();
  readonly problems: Diagnostic[] = [];
  private readonly visible = new Map<LinkFile, Set<LinkFile>>();
  /** What types can come from: `visible` without the `import option` files. */
  private readonly typeVisible = new Map<LinkFile, Set<LinkFile>>();
  private readonly byName = new Map<string, LinkFile>();
  /** Full names (`.pkg.Enum`) of the closed enums checked so far, for proto3 users. */
  private readonly closedEnums = new Set<string>();

  constructor(private readonly files: LinkFile[]) {
    for (const file of files) this.byName.set(file.proto.name, file);
  }

  /** A loaded file by the name imports use. */
  fileNamed(name: string): LinkFile | undefined {
    return this.byName.get(name);
  }

  problem(file: LinkFile, at: Pos | undefined, message: string, hint?: string): void {
    this.problems.push({
      severity: 'error',
      message,
      hint,
      location: at ? { file: file.display, line: at.line + 1, column: at.charColumn } : undefined,
    });
  }

  link(): void {
    for (const file of this.files) this.addSymbols(file);
    for (const file of this.files) this.visible.set(file, this.visibleFiles(file));
    for (const file of this.files) this.typeVisible.set(file, this.visibleFiles(file, false));
    for (const file of this.files) if (!file.prelinked) this.resolveFile(file);
  }

  /** The file itself, its direct imports and, transitively, what they `import public`. */
  private visibleFiles(file: LinkFile, withOptionImports = true): Set<LinkFile> {
    const result = new Set<LinkFile>([file]);
    const addPublic = (dep: LinkFile) => {
      if (result.has(dep)) return;
      result.add(dep);
      for (const index of dep.proto.publicDependency) {
        const next = this.byName.get(dep.proto.dependency[index]);
        if (next) addPublic(next);
      }
    };
    // `import option` files (edition 2024) are visible to options only: they name custom options.
    for (const name of [...file.proto.dependency, ...(withOptionImports ? file.proto.optionDependency : [])]) {
      const dep = this.byName.get(name);
      if (dep) addPublic(dep);
    }
    return result;
  }

  // ---- symbol table ----------------------------------------------------------------------------

  private define(file: LinkFile, fullName: string, sym: Omit<Sym, 'file'>, scopeForMessage: string, enumValueNote = ''): void {
    const existing = this.symbols.get(fullName);
    if (existing) {
      if (existing.kind === 'package' && sym.kind === 'package') return;
      const dot = fullName.lastIndexOf('.');
      const short = fullName.slice(dot + 1);
      const message =
        dot < 0 || scopeForMessage === '' ? `"${short}" is already defined` : `"${short}" is already defined in "${scopeForMessage}"`;
      const first = existing.pos ? `${existing.file.display}:${existing.pos.line + 1}:${existing.pos.charColumn}` : existing.file.display;
      this.problem(
        file,
        sym.pos,
        message,
        `${enumValueNote}the first definition (${KIND_WORD[existing.kind]}) is at ${first}; rename one of them`,
      );
      return;
    }
    this.symbols.set(fullName, { ...sym, file });
  }

  private addSymbols(file: LinkFile): void {
    const proto = file.proto;
    const pos = (d: object, part = 'name') => file.positions.get(d)?.[part];
    if (proto.package !== '') {
      const parts = proto.package.split('.');
      for (let i = 1; i <= parts.length; i++) {
        const name = parts.slice(0, i).join('.');
        const existing = this.symbols.get(name);
        if (existing && existing.kind !== 'package') {
          this.problem(
            file,
            undefined,
            `package "${name}" conflicts with ${KIND_WORD[existing.kind]} of that name in ${existing.file.display}`,
            'rename the package or the other declaration',
          );
        } else if (!existing) this.symbols.set(name, { kind: 'package', file });
      }
    }
    const addEnum = (e: EnumDescriptorProto, scope: string) => {
      const full = join(scope, e.name);
      this.define(file, full, { kind: 'enum', desc: e, pos: pos(e), local: localReason(file, e, scope === proto.package) }, scope);
      for (const value of e.value) {
        this.define(
          file,
          join(scope, value.name),
          { kind: 'enumValue', desc: value, pos: pos(value) },
          scope,
          `enum values are siblings of their enum (C++ scoping), so "${value.name}" must be unique within "${scope || proto.package || 'the file'}", not just within "${e.name}" (prefix values with the enum name, e.g. ${screamingPrefix(e.name)}_${value.name}); `,
        );
      }
    };
    const addMessage = (m: DescriptorProto, scope: string) => {
      const full = join(scope, m.name);
      this.define(file, full, { kind: 'message', desc: m, pos: pos(m), local: localReason(file, m, scope === proto.package) }, scope);
      for (const field of m.field) this.define(file, join(full, field.name), { kind: 'field', desc: field, pos: pos(field) }, full);
      for (const oneof of m.oneofDecl) {
        // Synthetic oneofs (`_name`) are added by the parser; protoc defines them too.
        this.define(file, join(full, oneof.name), { kind: 'oneof', desc: oneof, pos: pos(oneof) }, full);
      }
      for (const nested of m.nestedType) addMessage(nested, full);
      for (const e of m.enumType) addEnum(e, full);
      for (const ext of m.extension) this.define(file, join(full, ext.name), { kind: 'extension', desc: ext, pos: pos(ext) }, full);
    };
    for (const m of proto.messageType) addMessage(m, proto.package);
    for (const e of proto.enumType) addEnum(e, proto.package);
    for (const ext of proto.extension)
      this.define(file, join(proto.package, ext.name), { kind: 'extension', desc: ext, pos: pos(ext) }, proto.package);
    for (const s of proto.service) {
      const full = join(proto.package, s.name);
      this.define(file, full, { kind: 'service', desc: s, pos: pos(s) }, proto.package);
      for (const method of s.method) this.define(file, join(full, method.name), { kind: 'method', desc: method, pos: pos(method) }, full);
    }
  }

  // ---- lookup ----------------------------------------------------------------------------------

  /** A symbol by full name, if `from` can see the file defining it. */
  private find(name: string, from: LinkFile, hidden: { sym?: Sym; name?: string }): Sym | undefined {
    const sym = this.symbols.get(name);
    if (!sym) return undefined;
    if (sym.kind === 'package') return sym;
    if (this.visible.get(from)!.has(sym.file)) return sym;
    if (!hidden.sym) {
      hidden.sym = sym;
      hidden.name = name;
    }
    return undefined;
  }

  /**
   * protoc's LookupSymbol: `.a.b` is absolute; otherwise the first part of the name is searched
   * from the innermost scope outwards and the rest is looked up inside what it found.
   */
  lookup(
    name: string,
    scope: string,
    from: LinkFile,
    typesOnly: boolean,
  ): { sym?: Sym; fullName?: string; hidden?: { sym?: Sym; name?: string }; innermost?: string } {
    const hidden: { sym?: Sym; name?: string } = {};
    if (name.startsWith('.')) {
      const sym = this.find(name.slice(1), from, hidden);
      return { sym, fullName: name.slice(1), hidden };
    }
    const dot = name.indexOf('.');
    const first = dot < 0 ? name : name.slice(0, dot);
    let scopeToTry = scope;
    for (;;) {
      const candidate = join(scopeToTry, first);
      const sym = this.find(candidate, from, hidden);
      if (sym) {
        if (first.length < name.length) {
          if (IS_AGGREGATE.has(sym.kind)) {
            const full = join(scopeToTry, name);
            const found = this.find(full, from, hidden);
            if (!found) return { hidden, innermost: full };
            return { sym: found, fullName: full, hidden };
          }
        } else if (!typesOnly || IS_TYPE.has(sym.kind)) {
          return { sym, fullName: candidate, hidden };
        }
      }
      if (scopeToTry === '') return { hidden };
      scopeToTry = parentScope(scopeToTry);
    }
  }

  /** Resolves a type reference and reports why it fails, protoc style. */
  private resolveType(
    file: LinkFile,
    name: string,
    scope: string,
    at: Pos | undefined,
    want: 'type' | 'message',
  ): { sym: Sym; fullName: string } | undefined {
    const found = this.lookup(name, scope, file, true);
    if (found.sym && found.fullName !== undefined) {
      if (want === 'message' && found.sym.kind !== 'message') {
        this.problem(file, at, `"${name}" is not a message type`, 'requests, responses and extendees must be messages');
        return undefined;
      }
      if (!IS_TYPE.has(found.sym.kind)) {
        this.problem(
          file,
          at,
          `"${name}" is not a type`,
          `it names ${KIND_WORD[found.sym.kind]}; a field type must be a message or an enum`,
        );
        return undefined;
      }
      if (!this.typeVisible.get(file)!.has(found.sym.file)) {
        this.problem(
          file,
          at,
          `"${name}" seems to be defined in "${found.sym.file.proto.name}", which is not imported by "${file.proto.name}"`,
          `import option makes only a file's options usable; add import "${found.sym.file.proto.name}"; to use its types`,
        );
        return undefined;
      }
      if (found.sym.local !== undefined && found.sym.file !== file) {
        this.problem(
          file,
          at,
          `symbol "${found.fullName}", defined in "${found.sym.file.proto.name}", is not visible from "${file.proto.name}": ${found.sym.local} and cannot be accessed outside its own file`,
          `mark it export (export message ... / export enum ...) in ${found.sym.file.proto.name}`,
        );
        return undefined;
      }
      return { sym: found.sym, fullName: found.fullName };
    }
    if (found.hidden?.sym) {
      const deps = found.hidden.sym.file;
      this.problem(
        file,
        at,
        `"${name}" seems to be defined in "${deps.proto.name}", which is not imported by "${file.proto.name}"`,
        `add import "${deps.proto.name}"; to use it here`,
      );
    } else if (found.innermost) {
      this.problem(
        file,
        at,
        `"${name}" is resolved to "${found.innermost}", which is not defined`,
        `the innermost scope is searched first in name resolution; write ".${name}" to start from the outermost scope`,
      );
    } else {
      const any = this.lookup(name, scope, file, false);
      if (any.sym && !IS_TYPE.has(any.sym.kind)) {
        this.problem(
          file,
          at,
          `"${name}" is not a type: it names ${KIND_WORD[any.sym.kind]} (${any.fullName})`,
          'a field type must be a scalar type, a message or an enum',
        );
      } else {
        this.problem(file, at, `"${name}" is not defined`, this.suggest(name, file));
      }
    }
    return undefined;
  }

  /** A close spelling among the types this file can see, or where a same-named type lives. */
  private suggest(name: string, file: LinkFile): string {
    const last = name.slice(name.lastIndexOf('.') + 1);
    let best: { full: string; distance: number } | undefined;
    for (const [full, sym] of this.symbols) {
      if (!IS_TYPE.has(sym.kind) || (sym.kind === 'message' && (sym.desc as DescriptorProto).options?.mapEntry)) continue;
      const short = full.slice(full.lastIndexOf('.') + 1);
      const visible = this.visible.get(file)!.has(sym.file);
      if (short === last && !visible) return `"${full}" is defined in "${sym.file.proto.name}"; import that file`;
      if (!visible) continue;
      const distance = editDistance(short.toLowerCase(), last.toLowerCase());
      if (distance <= Math.max(1, Math.floor(last.length / 3)) && (!best || distance < best.distance)) best = { full, distance };
    }
    if (best) return `did you mean "${best.full}"?`;
    return 'check the spelling, the package of the type and the imports';
  }

  // ---- per file --------------------------------------------------------------------------------

  private resolveFile(file: LinkFile): void {
    const proto = file.proto;
    for (const m of proto.messageType) this.resolveMessage(file, m, join(proto.package, m.name));
    for (const ext of proto.extension) this.resolveField(file, ext, proto.package);
    for (const s of proto.service) {
      const full = join(proto.package, s.name);
      for (const method of s.method) {
        const positions = file.positions.get(method) ?? {};
        const input = this.resolveType(file, method.inputType, full, positions.input, 'message');
        if (input) method.inputType = `.${input.fullName}`;
        const output = this.resolveType(file, method.outputType, full, positions.output, 'message');
        if (output) method.outputType = `.${output.fullName}`;
      }
    }
  }

  private resolveField(file: LinkFile, field: FieldDescriptorProto, scope: string): void {
    const positions = file.positions.get(field) ?? {};
    if (field.jsonName === '' && !positions.jsonName) field.jsonName = jsonName(field.name);
    if (field.extendee !== '') {
      const extendee = this.resolveType(file, field.extendee, scope, positions.extendee, 'message');
      if (extendee) field.extendee = `.${extendee.fullName}`;
    }
    let target: Sym | undefined;
    if (field.typeName !== '') {
      const isGroup = isFieldSet(field, FieldDescriptorProtoSchema.field.type) && field.type === FieldDescriptorProto_Type.GROUP;
      const resolved = this.resolveType(file, field.typeName, scope, positions.type, isGroup ? 'message' : 'type');
      if (resolved) {
        target = resolved.sym;
        field.typeName = `.${resolved.fullName}`;
        // A group keeps TYPE_GROUP; other references become a message or an enum.
        if (!isGroup) field.type = resolved.sym.kind === 'message' ? FieldDescriptorProto_Type.MESSAGE : FieldDescriptorProto_Type.ENUM;
      }
    }
    if (positions.default) this.resolveDefault(file, field, target, positions);
  }

  /** Checks `[default = ...]` against the field's type and writes it as protoc's CopyTo does. */
  private resolveDefault(file: LinkFile, field: FieldDescriptorProto, target: Sym | undefined, positions: Record<string, Pos>): void {
    const at = positions.defaultValue ?? positions.default;
    if (field.label === FieldDescriptorProto_Label.REPEATED) {
      this.problem(file, at, "repeated fields can't have default values", 'remove [default = ...]; a repeated field starts empty');
      return;
    }
    if (field.typeName === '') {
      field.defaultValue = canonicalDefault(field.type, field.defaultValue);
      return;
    }
    // An unresolved type was reported already.
    if (target === undefined) return;
    if (target.kind !== 'enum') {
      this.problem(file, at, "messages can't have default values", 'remove [default = ...]');
      return;
    }
    const e = target.desc as EnumDescriptorProto;
    if (!/^[A-Za-z_]\w*$/.test(field.defaultValue)) {
      this.problem(
        file,
        at,
        'default value for an enum field needs to be an identifier',
        `write one of ${e.value
          .map((v) => v.name)
          .slice(0, 4)
          .join(', ')}`,
      );
    } else if (!e.value.some((v) => v.name === field.defaultValue)) {
      this.problem(
        file,
        at,
        `enum type "${field.typeName.slice(1)}" has no value named "${field.defaultValue}"`,
        `write one of ${e.value
          .map((v) => v.name)
          .slice(0, 4)
          .join(', ')}`,
      );
    }
  }

  private resolveMessage(file: LinkFile, message: DescriptorProto, full: string): void {
    for (const field of message.field) this.resolveField(file, field, full);
    for (const ext of message.extension) this.resolveField(file, ext, full);
    for (const nested of message.nestedType) this.resolveMessage(file, nested, join(full, nested.name));
  }

  /** The checks that need interpreted options (allow_alias) run after the options are applied. */
  check(): void {
    // descriptor.proto's enums are closed also when it comes embedded from @bufbuild/protobuf.
    for (const file of this.files) if (file.prelinked && syntaxOf(file.proto) === 'proto2') this.addClosedEnums(file.proto);
    const extensionNumbers = new Map<string, { fullName: string }>();
    for (const file of this.files) {
      if (file.prelinked) continue;
      const proto = file.proto;
      const syntax = syntaxOf(proto);
      // proto2 enums are closed; editions enums are open unless features.enum_type says CLOSED.
      const closed = (features: FeatureSet | undefined, inherited: boolean) =>
        features?.enumType === FeatureSet_EnumType.CLOSED ? true : features?.enumType === FeatureSet_EnumType.OPEN ? false : inherited;
      const fileClosed = syntax === 'proto2' || (syntax === 'editions' && closed(proto.options?.features, false));
      // The JSON format: legacy for proto2; in editions, features.json_format down the file.
      const legacy = (features: FeatureSet | undefined, inherited: boolean) =>
        features?.jsonFormat === FeatureSet_JsonFormat.LEGACY_BEST_EFFORT
          ? true
          : features?.jsonFormat === FeatureSet_JsonFormat.ALLOW
            ? false
            : inherited;
      const fileLegacy = syntax === 'proto2' || (syntax === 'editions' && legacy(proto.options?.features, false));
      const walk = (m: DescriptorProto, full: string, enumsClosed: boolean, legacyJson: boolean) => {
        const inner = syntax === 'editions' ? closed(m.options?.features, enumsClosed) : enumsClosed;
        const innerLegacy = syntax === 'editions' ? legacy(m.options?.features, legacyJson) : legacyJson;
        for (const nested of m.nestedType) walk(nested, join(full, nested.name), inner, innerLegacy);
        for (const e of m.enumType) this.checkEnum(file, e, closed(e.options?.features, inner) && syntax !== 'proto3', join(full, e.name));
        this.checkMessage(file, m, full, syntax, innerLegacy);
        if (syntax === 'proto3') this.checkOpenEnums(file, m, full);
        this.checkExtensions(file, m.extension, full, syntax, extensionNumbers);
      };
      for (const m of proto.messageType) walk(m, join(proto.package, m.name), fileClosed, fileLegacy);
      for (const e of proto.enumType)
        this.checkEnum(file, e, closed(e.options?.features, fileClosed) && syntax !== 'proto3', join(proto.package, e.name));
      this.checkExtensions(file, proto.extension, proto.package, syntax, extensionNumbers);
      checkNamingStyle(file, (at, message, hint) => this.problem(file, at, message, hint));
    }
  }

  private addClosedEnums(proto: FileDescriptorProto): void {
    const add = (enums: EnumDescriptorProto[], scope: string) => enums.forEach((e) => this.closedEnums.add(`.${join(scope, e.name)}`));
    const walk = (m: DescriptorProto, scope: string) => {
      const full = join(scope, m.name);
      add(m.enumType, full);
      m.nestedType.forEach((n) => walk(n, full));
    };
    add(proto.enumType, proto.package);
    proto.messageType.forEach((m) => walk(m, proto.package));
  }

  /** proto3 messages can only use open enums: a closed enum's default need not be zero. */
  private checkOpenEnums(file: LinkFile, message: DescriptorProto, full: string): void {
    for (const field of message.field) {
      if (field.type !== FieldDescriptorProto_Type.ENUM || !this.closedEnums.has(field.typeName)) continue;
      this.problem(
        file,
        file.positions.get(field)?.type,
        `enum type "${field.typeName.slice(1)}" is not an open enum, but is used in "${full}" which is a proto3 message type`,
        'use an enum of a proto3 or editions file (open), or move the message to proto2 or editions',
      );
    }
  }

  private checkExtensions(
    file: LinkFile,
    extensions: FieldDescriptorProto[],
    scope: string,
    syntax: Syntax,
    numbers: Map<string, { fullName: string }>,
  ): void {
    for (const ext of extensions) {
      const positions = file.positions.get(ext) ?? {};
      if (positions.jsonName)
        this.problem(
          file,
          positions.jsonName,
          'option json_name is not allowed on extension fields',
          'remove json_name: an extension is named [full.name] in JSON',
        );
      if (syntax === 'proto3' && ext.extendee !== '' && !/^\.google\.protobuf\.\w+Options$/.test(ext.extendee)) {
        this.problem(
          file,
          positions.extendee,
          `extensions in proto3 are only allowed for defining options; "${ext.extendee.slice(1)}" is not an options message`,
          'extend google.protobuf.FieldOptions (or another *Options message) to declare a custom option',
        );
      }
      if (ext.label === FieldDescriptorProto_Label.REQUIRED) {
        this.problem(file, positions.label, `the extension ${ext.name} cannot be required`, 'make it optional');
      }
      const extendee = this.symbols.get(ext.extendee.slice(1));
      const message = extendee?.kind === 'message' ? (extendee.desc as DescriptorProto) : undefined;
      // A MessageSet's extensions are optional messages, numbered up to INT32_MAX.
      const messageSet = message?.options?.messageSetWireFormat === true;
      if (messageSet && (ext.label !== FieldDescriptorProto_Label.OPTIONAL || ext.type !== FieldDescriptorProto_Type.MESSAGE)) {
        this.problem(
          file,
          positions.type,
          'extensions of MessageSets must be optional messages',
          'declare it as optional SomeMessage name = number;',
        );
      }
      if (!this.checkNumber(file, ext, positions.number, messageSet ? 2147483646 : FIELD_NUMBER_MAX)) continue;
      if (!message) continue;
      if (!message.extensionRange.some((r) => ext.number >= r.start && ext.number < r.end)) {
        this.problem(
          file,
          positions.number,
          `"${ext.extendee.slice(1)}" does not declare ${ext.number} as an extension number`,
          `add "extensions ${ext.number};" to ${message.name}, or use a number inside its extension ranges`,
        );
        continue;
      }
      const key = `${ext.extendee}|${ext.number}`;
      const previous = numbers.get(key);
      if (previous) {
        this.problem(
          file,
          positions.number,
          `extension number ${ext.number} has already been used in "${ext.extendee.slice(1)}" by extension "${previous.fullName}"`,
          'give each extension of a message its own number',
        );
      } else numbers.set(key, { fullName: join(scope, ext.name) });
    }
  }

  private checkNumber(file: LinkFile, field: FieldDescriptorProto, at: Pos | undefined, max = FIELD_NUMBER_MAX): boolean {
    if (field.number <= 0) {
      this.problem(file, at, `field numbers must be positive integers, not ${field.number}`, 'use a number from 1 to 536870911');
      return false;
    }
    if (field.number > max) {
      this.problem(
        file,
        at,
        `field number ${field.number} is too large: field numbers cannot be greater than ${max}`,
        `use a number from 1 to ${max}`,
      );
      return false;
    }
    if (field.number >= 19000 && field.number <= 19999) {
      this.problem(
        file,
        at,
        `field number ${field.number} is in 19000 through 19999, which are reserved for the protocol buffer library implementation`,
        'pick a number outside 19000–19999',
      );
      return false;
    }
    return true;
  }

  /**
   * protoc's CheckFieldJsonNameUniqueness: default JSON names first, then custom ones; under the
   * legacy JSON format (proto2, or features.json_format = LEGACY_BEST_EFFORT) only two custom
   * names may not clash (the rest are warnings).
   */
  private checkJsonNames(file: LinkFile, message: DescriptorProto, legacyJson: boolean): void {
    const positions = (d: object) => file.positions.get(d) ?? {};
    for (const useCustom of [false, true]) {
      const seen = new Map<string, { field: FieldDescriptorProto; name: string; custom: boolean }>();
      for (const field of message.field) {
        const fallback = jsonName(field.name);
        const custom = useCustom && positions(field).jsonName !== undefined && field.jsonName !== fallback;
        const name = custom ? field.jsonName : fallback;
        if (custom && name.startsWith('[') && name.endsWith(']')) {
          this.problem(
            file,
            positions(field).name,
            `the custom JSON name of field "${field.name}" ("${name}") is invalid: JSON names may not start with '[' and end with ']'`,
            'brackets mark extensions in JSON; choose another json_name',
          );
          continue;
        }
        const match = seen.get(name);
        if (!match) {
          seen.set(name, { field, name, custom });
          continue;
        }
        if (useCustom && !custom && !match.custom) continue;
        if (legacyJson && (!custom || !match.custom)) continue;
        const word = (c: boolean) => (c ? 'custom' : 'default');
        this.problem(
          file,
          positions(field).name,
          `the ${word(custom)} JSON name of field "${field.name}" ("${name}") conflicts with the ${word(match.custom)} JSON name of field "${match.field.name}"${match.name !== name ? ` ("${match.name}")` : ''}`,
          'rename one of the fields or give it a different json_name',
        );
      }
    }
  }

  private checkMessage(file: LinkFile, message: DescriptorProto, full: string, syntax: Syntax, legacyJson = syntax === 'proto2'): void {
    const positions = (d: object) => file.positions.get(d) ?? {};
    const byNumber = new Map<number, FieldDescriptorProto>();
    // Reserved ranges must not overlap.
    const ranges = [...message.reservedRange];
    for (let i = 0; i < ranges.length; i++) {
      for (let j = 0; j < i; j++) {
        const a = ranges[i];
        const b = ranges[j];
        if (a.start < b.end && b.start < a.end) {
          const show = (r: typeof a) => (r.end - r.start === 1 ? `${r.start}` : `${r.start} to ${r.end - 1}`);
          this.problem(
            file,
            positions(a).start,
            `reserved range ${show(a)} overlaps with already-defined range ${show(b)}`,
            'merge or separate the ranges',
          );
        }
      }
    }
    this.checkExtensionRanges(file, message);
    if (message.options?.mapEntry !== true) this.checkJsonNames(file, message, legacyJson);
    const reservedNames = new Set<string>();
    for (const name of message.reservedName) {
      if (reservedNames.has(name))
        this.problem(
          file,
          positions(message)[`reservedName:${name}`],
          `field name "${name}" is reserved multiple times`,
          'reserve each name once',
        );
      reservedNames.add(name);
    }
    if (message.options?.messageSetWireFormat === true && message.field.length > 0) {
      this.problem(
        file,
        positions(message.field[0]!).name,
        'MessageSets cannot have fields, only extensions',
        'move the field into a message that extends the MessageSet',
      );
    }
    for (const field of message.field) {
      const at = positions(field);
      if (this.checkNumber(file, field, at.number)) {
        const previous = byNumber.get(field.number);
        if (previous) {
          this.problem(
            file,
            at.number,
            `field number ${field.number} has already been used in "${full}" by field "${previous.name}"`,
            'give each field of a message its own number',
          );
        } else byNumber.set(field.number, field);
        const reserved = message.reservedRange.find((r) => field.number >= r.start && field.number < r.end);
        if (reserved)
          this.problem(
            file,
            at.number,
            `field "${field.name}" uses reserved number ${field.number}`,
            'pick a number that is not reserved; reserved numbers once belonged to deleted fields',
          );
      }
      if (reservedNames.has(field.name))
        this.problem(
          file,
          at.name,
          `field name "${field.name}" is reserved`,
          'rename the field; reserved names once belonged to deleted fields',
        );
      if (field.label === FieldDescriptorProto_Label.REPEATED && field.type === FieldDescriptorProto_Type.MESSAGE) {
        // Map fields: check the key of the generated entry.
        const entry = message.nestedType.find((n) => `.${full}.${n.name}` === field.typeName && n.options?.mapEntry === true);
        if (entry) {
          const key = entry.field[0];
          const keyAt = positions(key).type;
          if (key.type === FieldDescriptorProto_Type.ENUM) {
            this.problem(file, keyAt, 'key in map fields cannot be enum types', 'use an integer or string key');
          } else if (
            key.type === FieldDescriptorProto_Type.FLOAT ||
            key.type === FieldDescriptorProto_Type.DOUBLE ||
            key.type === FieldDescriptorProto_Type.BYTES ||
            key.type === FieldDescriptorProto_Type.MESSAGE
          ) {
            this.problem(
              file,
              keyAt,
              'key in map fields cannot be float/double, bytes or message types',
              'map keys are integers, bool or string',
            );
          }
        }
      }
    }
    for (const oneof of message.oneofDecl) {
      if (!message.field.some((f) => f.oneofIndex === message.oneofDecl.indexOf(oneof))) {
        this.problem(
          file,
          positions(oneof).name,
          `oneof "${oneof.name}" must have at least one field`,
          'add a field to the oneof or remove it',
        );
      }
    }
  }

  /** protoc's checks of `extensions` ranges: ordered, apart from each other, reserved numbers and fields. */
  private checkExtensionRanges(file: LinkFile, message: DescriptorProto): void {
    const at = (range: object) => file.positions.get(range)?.start;
    const show = (r: { start: number; end: number }) => `${r.start} to ${r.end - 1}`;
    message.extensionRange.forEach((range, i) => {
      if (range.start <= 0) this.problem(file, at(range), 'extension numbers must be positive integers', 'start the range at 1 or more');
      if (range.end <= range.start)
        this.problem(
          file,
          at(range),
          'extension range end number must be greater than start number',
          `write extensions ${range.start} to ${Math.max(range.start, range.end)};`,
        );
      for (const field of message.field) {
        if (field.number >= range.start && field.number < range.end) {
          this.problem(
            file,
            at(range),
            `extension range ${show(range)} includes field "${field.name}" (${field.number})`,
            'move the field out of the range or shrink the range',
          );
        }
      }
      for (const reserved of message.reservedRange) {
        if (range.end > reserved.start && reserved.end > range.start) {
          this.problem(
            file,
            at(range),
            `extension range ${show(range)} overlaps with reserved range ${show(reserved)}`,
            'an extension range cannot include reserved numbers',
          );
        }
      }
      for (const other of message.extensionRange.slice(i + 1)) {
        if (range.end > other.start && other.end > range.start) {
          this.problem(
            file,
            at(range),
            `extension range ${show(other)} overlaps with already-defined range ${show(range)}`,
            'merge or separate the ranges',
          );
        }
      }
    });
  }

  private checkEnum(file: LinkFile, e: EnumDescriptorProto, closed: boolean, full: string): void {
    if (closed) this.closedEnums.add(`.${full}`);
    const positions = (d: object) => file.positions.get(d) ?? {};
    if (e.value.length === 0) {
      this.problem(file, positions(e).name, `enum "${e.name}" must contain at least one value`, 'add NAME_UNSPECIFIED = 0;');
      return;
    }
    if (!closed && e.value[0].number !== 0) {
      this.problem(
        file,
        positions(e.value[0]).number,
        `the first enum value must be zero in proto3 (${e.value[0].name} is ${e.value[0].number})`,
        `add ${screamingPrefix(e.name)}_UNSPECIFIED = 0; as the first value (or make the enum closed: proto2, or features.enum_type = CLOSED)`,
      );
    }
    const allowAlias = e.options?.allowAlias === true;
    if (e.options?.allowAlias === false && e.options !== undefined && Object.prototype.hasOwnProperty.call(e.options, 'allowAlias')) {
      this.problem(
        file,
        positions(e).name,
        `"${e.name}" declares 'option allow_alias = false;' which has no effect`,
        'remove the declaration',
      );
    }
    for (let i = 0; i < e.reservedRange.length; i++) {
      for (let j = 0; j < i; j++) {
        const a = e.reservedRange[i];
        const b = e.reservedRange[j];
        if (a.start <= b.end && b.start <= a.end) {
          const show = (r: typeof a) => (r.start === r.end ? `${r.start}` : `${r.start} to ${r.end}`);
          this.problem(
            file,
            positions(a).start,
            `reserved range ${show(a)} overlaps with already-defined range ${show(b)}`,
            'merge or separate the ranges',
          );
        }
      }
    }
    // proto3: names that differ only by the enum-name prefix, case or underscores clash in some languages.
    const prefix = [...e.name]
      .filter((c) => c !== '_')
      .map((c) => c.toLowerCase())
      .join('');
    const pascal = new Map<string, { name: string; number: number }>();
    for (const value of e.value) {
      const key = enumValuePascalCase(stripPrefix(value.name, prefix));
      const other = pascal.get(key);
      if (!other) pascal.set(key, value);
      else if (other.name !== value.name && other.number !== value.number) {
        this.problem(
          file,
          positions(value).name,
          `enum value name ${value.name} has the same name as ${other.name} if you ignore case and strip out the enum name prefix`,
          'rename one of them (if they are meant as aliases, give them the same number and set allow_alias)',
        );
      }
    }
    const byNumber = new Map<number, string>();
    const reservedNames = new Set(e.reservedName);
    for (const value of e.value) {
      const at = positions(value);
      const previous = byNumber.get(value.number);
      if (previous !== undefined && !allowAlias) {
        this.problem(
          file,
          at.number,
          `enum value "${value.name}" uses the same number (${value.number}) as "${previous}"`,
          'give it its own number, or add option allow_alias = true; to the enum if the alias is intended',
        );
      }
      if (previous === undefined) byNumber.set(value.number, value.name);
      const reserved = e.reservedRange.find((r) => value.number >= r.start && value.number <= r.end);
      if (reserved)
        this.problem(
          file,
          at.number,
          `enum value "${value.name}" uses reserved number ${value.number}`,
          'pick a number that is not reserved',
        );
      if (reservedNames.has(value.name)) this.problem(file, at.name, `enum value name "${value.name}" is reserved`, 'rename the value');
    }
    if (allowAlias && byNumber.size === e.value.length) {
      this.problem(
        file,
        positions(e).name,
        `"${e.name}" declares support for enum aliases but no enum values share field numbers`,
        'remove option allow_alias = true;',
      );
    }
  }
}

type Syntax = 'proto2' | 'proto3' | 'editions';

/**
 * Edition 2024's symbol visibility: `local` messages and enums, and those local by the file's
 * `features.default_symbol_visibility` (EXPORT_TOP_LEVEL by default: nested types are local).
 * Read from the still uninterpreted option, as linking runs before options are applied.
 */
function localReason(file: LinkFile, desc: DescriptorProto | EnumDescriptorProto, topLevel: boolean): string | undefined {
  const proto = file.proto;
  if (proto.syntax !== 'editions' || proto.edition < Edition.EDITION_2024) return undefined;
  if (desc.visibility === SymbolVisibility.VISIBILITY_LOCAL) return "it is explicitly marked 'local'";
  if (desc.visibility === SymbolVisibility.VISIBILITY_EXPORT) return undefined;
  const option = file.options.find(
    (o) => o.kind === 'file' && o.parts.length === 2 && o.parts[0]!.name === 'features' && o.parts[1]!.name === 'default_symbol_visibility',
  );
  const setting = option?.value.kind === 'identifier' ? option.value.value : 'EXPORT_TOP_LEVEL';
  const local = setting === 'LOCAL_ALL' || setting === 'STRICT' || (setting === 'EXPORT_TOP_LEVEL' && !topLevel);
  return local ? `it defaulted to local from file-level 'option features.default_symbol_visibility = '${setting}';'` : undefined;
}

/** protoc writes no `syntax` for proto2 files. */
function syntaxOf(file: FileDescriptorProto): Syntax {
  return file.syntax === 'proto3' ? 'proto3' : file.syntax === 'editions' ? 'editions' : 'proto2';
}

function screamingPrefix(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

export type { FileDescriptorProto };

export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

/** protoc's PrefixRemover: drops the enum name (any case, underscores ignored) from a value name. */
function stripPrefix(name: string, prefix: string): string {
  let i = 0;
  let j = 0;
  for (; i < name.length && j < prefix.length; i++) {
    if (name[i] === '_') continue;
    if (name[i].toLowerCase() !== prefix[j++]) return name;
  }
  if (j < prefix.length) return name;
  while (i < name.length && name[i] === '_') i++;
  if (i === name.length) return name;
  return name.slice(i);
}

function enumValuePascalCase(name: string): string {
  let result = '';
  let nextUpper = true;
  for (const c of name) {
    if (c === '_') nextUpper = true;
    else {
      result += nextUpper ? c.toUpperCase() : c.toLowerCase();
      nextUpper = false;
    }
  }
  return result;
}
