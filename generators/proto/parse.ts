/**
 * The `.proto` parser: a recursive-descent port of protoc's `compiler::Parser` for proto2, proto3
 * and editions (2023 to 2026). It builds the `FileDescriptorProto` the way protoc does before
 * linking (type names as written, options still uninterpreted, fields as `CopyTo` writes them) and
 * records `source_code_info` locations with protoc's `LocationRecorder` rules, so paths, spans and
 * comments come out as protoc writes them.
 */
import { clone, create } from '@bufbuild/protobuf';
import type { DescMessage, Message } from '@bufbuild/protobuf';
import {
  DescriptorProtoSchema,
  DescriptorProto_ExtensionRangeSchema,
  DescriptorProto_ReservedRangeSchema,
  Edition,
  EnumDescriptorProtoSchema,
  EnumDescriptorProto_EnumReservedRangeSchema,
  EnumOptionsSchema,
  EnumValueDescriptorProtoSchema,
  EnumValueOptionsSchema,
  ExtensionRangeOptionsSchema,
  FieldDescriptorProtoSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldOptionsSchema,
  FileDescriptorProtoSchema,
  FileOptionsSchema,
  MessageOptionsSchema,
  MethodDescriptorProtoSchema,
  MethodOptionsSchema,
  OneofDescriptorProtoSchema,
  OneofOptionsSchema,
  ServiceDescriptorProtoSchema,
  ServiceOptionsSchema,
  SourceCodeInfo_LocationSchema,
  SymbolVisibility,
} from '@bufbuild/protobuf/wkt';
import type {
  DescriptorProto,
  EnumDescriptorProto,
  EnumValueDescriptorProto,
  FieldDescriptorProto,
  FileDescriptorProto,
  MethodDescriptorProto,
  OneofDescriptorProto,
  ServiceDescriptorProto,
  SourceCodeInfo_Location,
} from '@bufbuild/protobuf/wkt';
import { cEscape, simpleDtoa } from './defaults.js';
import { stringBytes, stringValue, Tokenizer } from './tokens.js';
import type { Token } from './tokens.js';

/** Where a part of a declaration is, for messages: 0-based line, 1-based character column. */
export interface Pos {
  line: number;
  charColumn: number;
}

export type OptionsKind = 'file' | 'message' | 'field' | 'oneof' | 'enum' | 'enumValue' | 'service' | 'method' | 'extensionRange';

export const OPTIONS_SCHEMA: Record<OptionsKind, DescMessage> = {
  file: FileOptionsSchema,
  message: MessageOptionsSchema,
  field: FieldOptionsSchema,
  oneof: OneofOptionsSchema,
  enum: EnumOptionsSchema,
  enumValue: EnumValueOptionsSchema,
  service: ServiceOptionsSchema,
  method: MethodOptionsSchema,
  extensionRange: ExtensionRangeOptionsSchema,
};

export type OptionValue =
  | { kind: 'identifier'; value: string }
  | { kind: 'positive'; value: bigint }
  | { kind: 'negative'; value: bigint }
  | { kind: 'double'; value: number }
  | { kind: 'string'; value: string; bytes: number[] }
  /** `{ ... }`: the text protoc keeps (tokens joined by spaces) and the tokens, for positions. */
  | { kind: 'aggregate'; value: string; tokens: Token[] };

/** One `option name = value` not yet applied to its options message. */
export interface PendingOption {
  kind: OptionsKind;
  /** The descriptor (file, message, field...) whose `options` this sets. */
  owner: { options?: Message };
  /** Full name of the scope custom option names are looked up from. */
  scope: string;
  parts: { name: string; isExtension: boolean; pos: Pos }[];
  value: OptionValue;
  valuePos: Pos;
  /** `source_code_info` path of the uninterpreted option (options path, 999, index). */
  path: number[];
}

export interface ParsedFile {
  /** The name imports use: the path relative to its include folder. */
  name: string;
  /** The path as shown in messages. */
  display: string;
  proto: FileDescriptorProto;
  locations: SourceCodeInfo_Location[];
  options: PendingOption[];
  /** Positions of the parts of each declaration (`name`, `number`, `type`...), for messages. */
  positions: WeakMap<object, Record<string, Pos>>;
  /** Position of each import statement's file name, by dependency index. */
  importPositions: Pos[];
  /** Position of each `import option` statement's file name, by option dependency index. */
  optionImportPositions?: Pos[];
}

const TYPES: Record<string, FieldDescriptorProto_Type> = {
  double: FieldDescriptorProto_Type.DOUBLE,
  float: FieldDescriptorProto_Type.FLOAT,
  int64: FieldDescriptorProto_Type.INT64,
  uint64: FieldDescriptorProto_Type.UINT64,
  int32: FieldDescriptorProto_Type.INT32,
  fixed64: FieldDescriptorProto_Type.FIXED64,
  fixed32: FieldDescriptorProto_Type.FIXED32,
  bool: FieldDescriptorProto_Type.BOOL,
  string: FieldDescriptorProto_Type.STRING,
  group: FieldDescriptorProto_Type.GROUP,
  bytes: FieldDescriptorProto_Type.BYTES,
  uint32: FieldDescriptorProto_Type.UINT32,
  sfixed32: FieldDescriptorProto_Type.SFIXED32,
  sfixed64: FieldDescriptorProto_Type.SFIXED64,
  sint32: FieldDescriptorProto_Type.SINT32,
  sint64: FieldDescriptorProto_Type.SINT64,
};

const INT32_MAX = 2147483647n;
const UINT32_MAX = 4294967295n;
const MAX_MESSAGE_DEPTH = 32;
const UINT64_MAX = 18446744073709551615n;
const INT64_MAX = 9223372036854775807n;
/** Field numbers run to 2^29 - 1; `max` in a reserved range means one past it. */
export const FIELD_NUMBER_MAX = 536870911;

/** `map<K, V> foo_bar` → `FooBarEntry`, as protoc names it. */
export function mapEntryName(fieldName: string): string {
  let result = '';
  let capNext = true;
  for (const c of fieldName) {
    if (c === '_') capNext = true;
    else if (capNext) {
      result += c >= 'a' && c <= 'z' ? c.toUpperCase() : c;
      capNext = false;
    } else result += c;
  }
  return result + 'Entry';
}

interface MapField {
  keyType?: FieldDescriptorProto_Type;
  keyTypeName?: string;
  valueType?: FieldDescriptorProto_Type;
  valueTypeName?: string;
  keyPos: Pos;
  valuePos: Pos;
}

/** protoc's LocationRecorder: a location whose span starts at the current token. */
class Location {
  readonly loc: SourceCodeInfo_Location;

  constructor(
    private readonly parser: Parser,
    path: number[],
  ) {
    this.loc = create(SourceCodeInfo_LocationSchema, { path, span: [parser.input.current.line, parser.input.current.column] });
    parser.locations.push(this.loc);
  }

  child(...path: number[]): Location {
    return new Location(this.parser, [...this.loc.path, ...path]);
  }

  get path(): number[] {
    return this.loc.path;
  }

  startAt(token: Token): void {
    this.loc.span[0] = token.line;
    this.loc.span[1] = token.column;
  }

  startAtLocation(other: Location): void {
    this.loc.span[0] = other.loc.span[0];
    this.loc.span[1] = other.loc.span[1];
  }

  endAt(token: Token): void {
    if (token.line !== this.loc.span[0]) this.loc.span.push(token.line);
    this.loc.span.push(token.endColumn);
  }

  /** The C++ destructor: ends the span at the previous token unless already ended. */
  end(): void {
    if (this.loc.span.length <= 2) this.endAt(this.parser.input.previous);
  }

  attachComments(leading: string, trailing: string, detached: string[]): void {
    if (leading !== '') this.loc.leadingComments = leading;
    if (trailing !== '') this.loc.trailingComments = trailing;
    this.loc.leadingDetachedComments.push(...detached);
  }
}

/** Parses one file. Throws a CodegenError at the first syntax error. */
export function parseProto(text: string, name: string, display: string): ParsedFile {
  const parser = new Parser(text, name, display);
  return parser.parse();
}

const pos = (token: Token): Pos => ({ line: token.line, charColumn: token.charColumn });

class Parser {
  readonly input: Tokenizer;
  readonly locations: SourceCodeInfo_Location[] = [];
  private upcomingDocComments = '';
  private upcomingDetachedComments: string[] = [];
  private readonly file: FileDescriptorProto = create(FileDescriptorProtoSchema);
  private readonly options: PendingOption[] = [];
  private readonly positions = new WeakMap<object, Record<string, Pos>>();
  private readonly importPositions: Pos[] = [];
  private readonly optionImportPositions: Pos[] = [];
  /** Messages open around the current token, for protoc's nesting limit. */
  private messageDepth = 0;
  /** How many options were parsed before the package statement (their scope lacks the package). */
  private optionsBeforePackage = 0;
  /** `proto2` (also when the file has no syntax statement), `proto3` or `editions`. */
  private syntax: 'proto2' | 'proto3' | 'editions' = 'proto2';
  /** The file's edition; EDITION_UNKNOWN outside editions, as in protoc's parser. */
  private edition: Edition = Edition.EDITION_UNKNOWN;

  constructor(
    text: string,
    private readonly name: string,
    private readonly display: string,
  ) {
    this.input = new Tokenizer(text, display);
  }

  // ---- token helpers ---------------------------------------------------------------------------

  private lookingAt(text: string): boolean {
    return this.input.current.text === text && this.input.current.type !== 'string';
  }

  private atEnd(): boolean {
    return this.input.current.type === 'end';
  }

  private fail(message: string, hint?: string, at: Pos = pos(this.input.current)): never {
    return this.input.fail(message, at, hint);
  }

  private describeCurrent(): string {
    const t = this.input.current;
    if (t.type === 'end') return 'the end of the file';
    return `"${t.text}"`;
  }

  private tryConsume(text: string): boolean {
    if (this.lookingAt(text)) {
      this.input.next();
      return true;
    }
    return false;
  }

  private consume(text: string, what?: string, hint?: string): void {
    if (!this.tryConsume(text)) this.fail(`expected "${text}"${what ? ` ${what}` : ''}, found ${this.describeCurrent()}`, hint);
  }

  private identifier(what: string, hint?: string): string {
    const t = this.input.current;
    if (t.type !== 'identifier') this.fail(`expected ${what}, found ${this.describeCurrent()}`, hint);
    this.input.next();
    return t.text;
  }

  private integer(what: string, max: bigint): bigint {
    const t = this.input.current;
    if (t.type !== 'integer') this.fail(`expected ${what}, found ${this.describeCurrent()}`);
    const value = parseInteger(t.text);
    if (value > max) this.fail(`integer ${t.text} is out of range`, `the largest allowed here is ${max}`);
    this.input.next();
    return value;
  }

  private signedInt32(what: string): number {
    const negative = this.tryConsume('-');
    const value = this.integer(what, negative ? INT32_MAX + 1n : INT32_MAX);
    return Number(negative ? -value : value);
  }

  private string(what: string): string {
    const t = this.input.current;
    if (t.type !== 'string') this.fail(`expected ${what}, found ${this.describeCurrent()}`);
    let value = stringValue(t.text);
    this.input.next();
    while (this.input.current.type === 'string') {
      value += stringValue(this.input.current.text);
      this.input.next();
    }
    return value;
  }

  private stringBytes(): { value: string; bytes: number[] } {
    const bytes: number[] = [];
    let value = '';
    while (this.input.current.type === 'string') {
      const text = this.input.current.text;
      value += stringValue(text);
      // The raw bytes, so a bytes option keeps escapes such as \xff that are not UTF-8.
      for (const b of stringBytes(text)) bytes.push(b);
      this.input.next();
    }
    return { value, bytes };
  }

  /** protoc's TryConsumeEndOfDeclaration: `;`, `{` or `}` plus the comments around it. */
  private tryEndOfDeclaration(text: string, location: Location | undefined): boolean {
    if (!this.lookingAt(text)) return false;
    const comments = this.input.nextWithComments();
    const leading = this.upcomingDocComments;
    this.upcomingDocComments = comments.leading;
    if (location) {
      const detached = this.upcomingDetachedComments;
      this.upcomingDetachedComments = comments.detached;
      location.attachComments(leading, comments.trailing, detached);
    } else if (text === '}') {
      this.upcomingDetachedComments = comments.detached;
    } else {
      this.upcomingDetachedComments.push(...comments.detached);
    }
    return true;
  }

  private endOfDeclaration(text: string, location: Location | undefined, hint?: string): void {
    if (!this.tryEndOfDeclaration(text, location)) {
      const prev = this.input.previous;
      if (text === ';') {
        // Point just past the previous token: that is where the `;` is missing.
        this.fail(
          `expected ";" after ${prev.type === 'string' ? prev.text : `"${prev.text}"`}, found ${this.describeCurrent()}`,
          hint ?? 'end the statement with ;',
          { line: prev.line, charColumn: prev.charColumn + prev.text.length },
        );
      }
      this.fail(`expected "${text}", found ${this.describeCurrent()}`, hint);
    }
  }

  private setPositions(target: object, parts: Record<string, Pos>): void {
    const existing = this.positions.get(target);
    if (existing) Object.assign(existing, parts);
    else this.positions.set(target, parts);
  }

  // ---- file ------------------------------------------------------------------------------------

  parse(): ParsedFile {
    const file = this.file;
    file.name = this.name;
    const first = this.input.nextWithComments();
    this.upcomingDetachedComments = first.detached;
    this.upcomingDocComments = first.leading;
    const root = new Location(this, []);
    // A file without a syntax or edition statement is proto2 (protoc only warns).
    if (this.lookingAt('syntax') || this.lookingAt('edition')) this.parseSyntax(root);
    while (!this.atEnd()) this.parseTopLevel(root);
    root.end();
    // Options before the package statement name custom options from the package too, as in protoc.
    for (const option of this.options.slice(0, this.optionsBeforePackage))
      option.scope = option.scope === '' ? this.file.package : `${this.file.package}.${option.scope}`;
    return {
      name: this.name,
      display: this.display,
      proto: file,
      locations: this.locations,
      options: this.options,
      positions: this.positions,
      importPositions: this.importPositions,
      optionImportPositions: this.optionImportPositions,
    };
  }

  private parseSyntax(root: Location): void {
    const location = root.child(12);
    const isEdition = this.tryConsume('edition');
    if (!isEdition) this.consume('syntax');
    this.consume('=', `after "${isEdition ? 'edition' : 'syntax'}"`);
    const token = this.input.current;
    if (token.type !== 'string') {
      const example = isEdition ? 'edition = "2023";' : 'syntax = "proto3";';
      this.fail(
        `expected a quoted ${isEdition ? 'edition' : 'syntax identifier'}, found ${this.describeCurrent()}`,
        token.type === 'end' ? `write ${example}` : `quote it: ${isEdition ? 'edition' : 'syntax'} = "${token.text}";`,
      );
    }
    const value = this.string(isEdition ? 'an edition such as "2023"' : 'a syntax identifier such as "proto3"');
    this.endOfDeclaration(';', location);
    location.end();
    if (isEdition) {
      this.edition = this.parseEdition(value, pos(token));
      this.syntax = 'editions';
      this.file.syntax = 'editions';
      this.file.edition = this.edition;
      return;
    }
    if (value !== 'proto2' && value !== 'proto3') {
      this.fail(
        `unrecognized syntax identifier "${value}"; protoc recognizes only "proto2" and "proto3"`,
        value === 'editions'
          ? 'an editions file starts with edition = "2023"; (or "2024")'
          : 'write syntax = "proto3"; or syntax = "proto2"; (or edition = "2023";)',
        pos(token),
      );
    }
    this.syntax = value;
    // protoc writes `syntax` for proto3 and editions only; proto2 is the default.
    if (value === 'proto3') this.file.syntax = value;
  }

  /** `edition = "2023"` → EDITION_2023, within the editions protoc 36 supports (2023 to 2026). */
  private parseEdition(value: string, at: Pos): Edition {
    const edition = (Edition as unknown as Record<string, number | undefined>)[`EDITION_${value}`];
    const hint = 'write edition = "2023"; or edition = "2024";';
    if (
      edition === undefined ||
      edition === Edition.EDITION_UNKNOWN ||
      edition === Edition.EDITION_PROTO2 ||
      edition === Edition.EDITION_PROTO3
    ) {
      this.fail(`unknown edition "${value}"`, hint, at);
    }
    if (edition < Edition.EDITION_PROTO2) this.fail(`edition ${value} is earlier than the minimum supported edition PROTO2`, hint, at);
    if (edition > Edition.EDITION_2026) this.fail(`edition ${value} is later than the maximum supported edition 2026`, hint, at);
    return edition;
  }

  private parseTopLevel(root: Location): void {
    const file = this.file;
    if (this.tryEndOfDeclaration(';', undefined)) return;
    const visibility = this.parseVisibility();
    if (this.lookingAt('message')) {
      const location = root.child(4, file.messageType.length);
      const message = create(DescriptorProtoSchema);
      file.messageType.push(message);
      this.parseMessage(message, location, file.package);
      if (visibility !== undefined) message.visibility = visibility;
      location.end();
    } else if (this.lookingAt('enum')) {
      const location = root.child(5, file.enumType.length);
      const enumType = create(EnumDescriptorProtoSchema);
      file.enumType.push(enumType);
      this.parseEnum(enumType, location, file.package);
      if (visibility !== undefined) enumType.visibility = visibility;
      location.end();
    } else if (this.lookingAt('service')) {
      const location = root.child(6, file.service.length);
      const service = create(ServiceDescriptorProtoSchema);
      file.service.push(service);
      this.parseService(service, location);
      location.end();
    } else if (this.lookingAt('extend')) {
      const location = root.child(7);
      this.parseExtend(file.extension, file.messageType, root, 4, location, file.package);
      location.end();
    } else if (this.lookingAt('import')) {
      this.parseImport(root);
    } else if (this.lookingAt('package')) {
      this.parsePackage(root);
    } else if (this.lookingAt('option')) {
      const location = root.child(8);
      this.parseOption(file, 'file', location, file.package, true);
      location.end();
    } else {
      this.fail(
        `expected a top-level statement (e.g. "message"), found ${this.describeCurrent()}`,
        'a .proto file holds syntax, package, import, option, message, enum, service and extend statements',
      );
    }
  }

  /**
   * Edition 2024's `export` / `local` before a message or enum. Before 2024 the words are not
   * keywords: nothing is consumed and they parse as whatever follows (a type name, an error).
   */
  private parseVisibility(): SymbolVisibility | undefined {
    if (this.syntax !== 'editions' || this.edition <= Edition.EDITION_2023) return undefined;
    if (!this.lookingAt('export') && !this.lookingAt('local')) return undefined;
    const visibility = this.lookingAt('export') ? SymbolVisibility.VISIBILITY_EXPORT : SymbolVisibility.VISIBILITY_LOCAL;
    this.input.next();
    if (!this.lookingAt('message') && !this.lookingAt('enum')) {
      this.fail(
        `'local' and 'export' visibility modifiers are valid only on 'message' and 'enum', found ${this.describeCurrent()}`,
        'write export message Name { ... } or local enum Name { ... }',
      );
    }
    return visibility;
  }

  private parseImport(root: Location): void {
    const file = this.file;
    const importToken = this.input.current;
    this.consume('import');
    if (this.lookingAt('option')) {
      // Edition 2024: a file needed only for the custom options it defines.
      if (this.edition < Edition.EDITION_2024)
        this.fail('option import is not supported before edition 2024', 'use a plain import, or move the file to edition = "2024";');
      const location = root.child(15, file.optionDependency.length);
      location.startAt(importToken);
      this.consume('option');
      const token = this.input.current;
      file.optionDependency.push(this.string('a string naming the file to import'));
      this.optionImportPositions.push(pos(token));
      this.endOfDeclaration(';', location);
      location.end();
      return;
    }
    const location = root.child(3, file.dependency.length);
    location.startAt(importToken);
    if (file.optionDependency.length > 0)
      this.fail(
        'imports should precede any option imports to ensure proto files can roundtrip',
        'move this import above the import option statements',
      );
    if (this.lookingAt('weak') && this.edition >= Edition.EDITION_2024) {
      this.fail('weak import is not supported in edition 2024 and above', 'use import option "..."; instead');
    }
    if (this.lookingAt('public')) {
      const sub = root.child(10, file.publicDependency.length);
      this.consume('public');
      sub.end();
      file.publicDependency.push(file.dependency.length);
    } else if (this.lookingAt('weak')) {
      const sub = root.child(11, file.weakDependency.length);
      this.consume('weak');
      sub.end();
      file.weakDependency.push(file.dependency.length);
    }
    const token = this.input.current;
    const name = this.string('a string naming the file to import');
    this.importPositions.push(pos(token));
    file.dependency.push(name);
    this.endOfDeclaration(';', location);
    location.end();
  }

  private parsePackage(root: Location): void {
    const file = this.file;
    if (file.package !== '') this.fail('multiple package statements', 'a file has at most one package statement');
    const location = root.child(2);
    this.setPositions(file, { package: pos(this.input.current) });
    this.consume('package');
    let name = '';
    for (;;) {
      name += this.identifier('a package name', 'write a dotted name such as acme.tasks.v1');
      if (!this.tryConsume('.')) break;
      name += '.';
    }
    file.package = name;
    this.optionsBeforePackage = this.options.length;
    this.endOfDeclaration(';', location);
    location.end();
  }

  // ---- options ---------------------------------------------------------------------------------

  /**
   * `option name = value;` (statement) or `name = value` inside `[...]` (assignment). The option
   * stays uninterpreted, as in protoc; the linker applies it once types are known.
   */
  private parseOption(owner: { options?: Message }, kind: OptionsKind, optionsLocation: Location, scope: string, statement: boolean): void {
    if (!owner.options) owner.options = create(OPTIONS_SCHEMA[kind]);
    const index = this.options.filter((o) => o.owner === owner).length;
    const location = optionsLocation.child(999, index);
    if (statement) this.consume('option');
    const parts: PendingOption['parts'] = [];
    const nameLocation = location.child(2);
    const parsePart = () => {
      const part = nameLocation.child(parts.length);
      const at = pos(this.input.current);
      if (this.lookingAt('(')) {
        this.consume('(');
        const inner = part.child(1);
        let name = '';
        if (this.input.current.type === 'identifier') name += this.identifier('an identifier');
        else if (!this.lookingAt('.'))
          this.fail(`expected an option name inside (...), found ${this.describeCurrent()}`, 'custom options are written (package.name)');
        while (this.lookingAt('.')) {
          this.consume('.');
          name += '.' + this.identifier('an identifier');
        }
        inner.end();
        this.consume(')', 'to close the custom option name');
        parts.push({ name, isExtension: true, pos: at });
      } else {
        const inner = part.child(1);
        const name = this.identifier('an option name', 'write option name = value;');
        inner.end();
        parts.push({ name, isExtension: false, pos: at });
      }
      part.end();
    };
    parsePart();
    while (this.lookingAt('.')) {
      this.consume('.');
      parsePart();
    }
    nameLocation.end();
    this.consume('=', 'after the option name');
    const valueLocation = location.child();
    const valuePos = pos(this.input.current);
    const negative = this.tryConsume('-');
    const t = this.input.current;
    let value: OptionValue;
    switch (t.type) {
      case 'end':
        this.fail('unexpected end of file while parsing an option value');
      // falls through (fail throws)
      case 'identifier':
        if (negative && t.text !== 'inf' && t.text !== 'nan') this.fail("invalid '-' symbol before identifier");
        valueLocation.loc.path.push(3);
        if (negative) {
          value = { kind: 'double', value: t.text === 'inf' ? -Infinity : NaN };
          valueLocation.loc.path[valueLocation.loc.path.length - 1] = 6;
        } else value = { kind: 'identifier', value: t.text };
        this.input.next();
        break;
      case 'integer': {
        const max = negative ? INT64_MAX + 1n : UINT64_MAX;
        if (parseInteger(t.text) > max) {
          // As protoc: an integer too large for any integer type is kept as a double value.
          valueLocation.loc.path.push(6);
          value = { kind: 'double', value: (negative ? -1 : 1) * Number(parseInteger(t.text)) };
          this.input.next();
          break;
        }
        const n = this.integer('an integer', max);
        if (negative) {
          valueLocation.loc.path.push(5);
          value = { kind: 'negative', value: -n };
        } else {
          valueLocation.loc.path.push(4);
          value = { kind: 'positive', value: n };
        }
        break;
      }
      case 'float':
        valueLocation.loc.path.push(6);
        value = { kind: 'double', value: (negative ? -1 : 1) * parseFloatText(t.text) };
        this.input.next();
        break;
      case 'string': {
        if (negative) this.fail("invalid '-' symbol before string");
        valueLocation.loc.path.push(7);
        const s = this.stringBytes();
        value = { kind: 'string', value: s.value, bytes: s.bytes };
        break;
      }
      case 'symbol':
        if (this.lookingAt('{')) {
          valueLocation.loc.path.push(8);
          value = { kind: 'aggregate', ...this.parseAggregate() };
        } else
          this.fail(
            `expected an option value, found ${this.describeCurrent()}`,
            'an option value is a number, a string, an identifier (true, false, an enum value) or {...}',
          );
        break;
    }
    valueLocation.end();
    this.options.push({ kind, owner, scope, parts, value: value!, valuePos, path: location.path });
    if (statement) this.endOfDeclaration(';', location);
    location.end();
  }

  private parseAggregate(): { value: string; tokens: Token[] } {
    this.consume('{');
    let depth = 1;
    let value = '';
    const tokens: Token[] = [];
    while (!this.atEnd()) {
      if (this.lookingAt('{')) depth++;
      else if (this.lookingAt('}')) {
        depth--;
        if (depth === 0) {
          this.input.next();
          return { value, tokens };
        }
      }
      if (value !== '') value += ' ';
      value += this.input.current.text;
      tokens.push(this.input.current);
      this.input.next();
    }
    this.fail('unexpected end of file while parsing an aggregate option value', 'close the value with }');
  }

  // ---- messages --------------------------------------------------------------------------------

  private parseMessage(message: DescriptorProto, location: Location, scope: string): void {
    // protoc's limit (MaxMessageDeclarationNestingDepth, 32), which also keeps deep input off the stack.
    if (++this.messageDepth >= MAX_MESSAGE_DEPTH)
      this.fail('reached maximum recursion limit for nested messages', `nest messages at most ${MAX_MESSAGE_DEPTH - 1} deep`);
    this.parseMessageBody(message, location, scope);
    this.messageDepth--;
  }

  private parseMessageBody(message: DescriptorProto, location: Location, scope: string): void {
    this.consume('message');
    const nameLocation = location.child(1);
    const at = pos(this.input.current);
    message.name = this.identifier('a message name', 'write message Name { ... }');
    nameLocation.end();
    this.setPositions(message, { name: at });
    this.parseMessageBlock(message, location, scope ? `${scope}.${message.name}` : message.name);
    if (this.syntax === 'proto3') this.generateSyntheticOneofs(message);
  }

  private parseMessageBlock(message: DescriptorProto, location: Location, scope: string): void {
    this.endOfDeclaration('{', location, 'a message body starts with {');
    while (!this.tryEndOfDeclaration('}', undefined)) {
      if (this.atEnd())
        this.fail('reached the end of the file in a message definition (missing "}")', `close message ${message.name} with }`);
      this.parseMessageStatement(message, location, scope);
    }
    // `to max` ends one past the largest number: 2^29 - 1, or INT32_MAX for a MessageSet.
    const open = [...message.extensionRange, ...message.reservedRange].filter((range) => range.end === -1);
    if (open.length === 0) return;
    const max = this.isMessageSet(message) ? Number(INT32_MAX) : FIELD_NUMBER_MAX + 1;
    for (const range of open) range.end = max;
  }

  /** protoc's IsMessageSetWireFormatMessage, read from the still uninterpreted options. */
  private isMessageSet(message: DescriptorProto): boolean {
    return this.options.some(
      (o) =>
        o.owner === message &&
        o.parts.length === 1 &&
        !o.parts[0]!.isExtension &&
        o.parts[0]!.name === 'message_set_wire_format' &&
        o.value.kind === 'identifier' &&
        o.value.value === 'true',
    );
  }

  /** proto3 `optional` fields each get a one-field oneof named `_name`, as protoc adds them. */
  private generateSyntheticOneofs(message: DescriptorProto): void {
    const names = new Set<string>();
    for (const field of message.field) names.add(field.name);
    for (const oneof of message.oneofDecl) names.add(oneof.name);
    for (const field of message.field) {
      if (!field.proto3Optional) continue;
      let name = field.name;
      if (name === '' || name[0] !== '_') name = '_' + name;
      while (names.has(name)) name = 'X' + name;
      names.add(name);
      field.oneofIndex = message.oneofDecl.length;
      message.oneofDecl.push(create(OneofDescriptorProtoSchema, { name }));
    }
  }

  private parseMessageStatement(message: DescriptorProto, location: Location, scope: string): void {
    if (this.tryEndOfDeclaration(';', undefined)) return;
    const visibility = this.parseVisibility();
    if (this.lookingAt('message')) {
      const sub = location.child(3, message.nestedType.length);
      const nested = create(DescriptorProtoSchema);
      message.nestedType.push(nested);
      this.parseMessage(nested, sub, scope);
      if (visibility !== undefined) nested.visibility = visibility;
      sub.end();
    } else if (this.lookingAt('enum')) {
      const sub = location.child(4, message.enumType.length);
      const nested = create(EnumDescriptorProtoSchema);
      message.enumType.push(nested);
      this.parseEnum(nested, sub, scope);
      if (visibility !== undefined) nested.visibility = visibility;
      sub.end();
    } else if (this.lookingAt('extensions')) {
      if (this.syntax === 'proto3')
        this.fail(
          'extension ranges are not allowed in proto3',
          'remove the extensions statement; proto3 messages use google.protobuf.Any or custom options instead',
        );
      const sub = location.child(5);
      this.parseExtensions(message, sub, scope);
      sub.end();
    } else if (this.lookingAt('reserved')) {
      this.parseReserved(message, location);
    } else if (this.lookingAt('extend')) {
      const sub = location.child(6);
      this.parseExtend(message.extension, message.nestedType, location, 3, sub, scope);
      sub.end();
    } else if (this.lookingAt('option')) {
      const sub = location.child(7);
      this.parseOption(message, 'message', sub, parentScope(scope), true);
      sub.end();
    } else if (this.lookingAt('oneof')) {
      const index = message.oneofDecl.length;
      const sub = location.child(8, index);
      const oneof = create(OneofDescriptorProtoSchema);
      message.oneofDecl.push(oneof);
      this.parseOneof(oneof, message, index, sub, location, scope);
      sub.end();
    } else {
      const sub = location.child(2, message.field.length);
      const field = create(FieldDescriptorProtoSchema);
      message.field.push(field);
      this.parseField(field, message.nestedType, location, 3, sub, scope, undefined);
      sub.end();
    }
  }

  private parseField(
    field: FieldDescriptorProto,
    messages: DescriptorProto[],
    parentLocation: Location,
    nestedTypeNumber: number,
    fieldLocation: Location,
    scope: string,
    oneofIndex: number | undefined,
  ): void {
    const t = this.input.current;
    if (this.lookingAt('optional') || this.lookingAt('repeated') || this.lookingAt('required')) {
      if (this.syntax === 'editions' && this.lookingAt('optional')) {
        this.fail(
          'label "optional" is not supported in editions',
          'remove it: by default every singular field has presence unless features.field_presence is set',
        );
      }
      if (this.syntax === 'editions' && this.lookingAt('required')) {
        this.fail('label "required" is not supported in editions', 'write [features.field_presence = LEGACY_REQUIRED] instead');
      }
      if (this.syntax === 'proto3' && this.lookingAt('required')) {
        this.fail('required fields are not allowed in proto3', 'remove "required"; every proto3 field is optional on the wire');
      }
      const labelLocation = fieldLocation.child(4);
      if (this.tryConsume('optional')) {
        field.label = FieldDescriptorProto_Label.OPTIONAL;
        if (this.syntax === 'proto3') field.proto3Optional = true;
      } else if (this.tryConsume('repeated')) {
        field.label = FieldDescriptorProto_Label.REPEATED;
      } else {
        this.consume('required');
        field.label = FieldDescriptorProto_Label.REQUIRED;
      }
      labelLocation.end();
      this.setPositions(field, { label: pos(t) });
    }
    this.parseFieldNoLabel(field, messages, parentLocation, nestedTypeNumber, fieldLocation, scope, oneofIndex);
  }

  private parseFieldNoLabel(
    field: FieldDescriptorProto,
    messages: DescriptorProto[],
    parentLocation: Location,
    nestedTypeNumber: number,
    fieldLocation: Location,
    scope: string,
    oneofIndex: number | undefined,
  ): void {
    let map: MapField | undefined;
    const typeToken = this.input.current;
    // Fields of a oneof have their label (optional) already.
    const labelled = this.hasLabel(field) || oneofIndex !== undefined;
    {
      const location = fieldLocation.child();
      let typeParsed = false;
      let typeName = '';
      let type: FieldDescriptorProto_Type | undefined;
      if (this.lookingAt('map') && this.input.current.type === 'identifier') {
        this.input.next();
        if (this.lookingAt('<')) {
          if (oneofIndex !== undefined)
            this.fail(
              'map fields are not allowed in oneofs',
              'move the map field out of the oneof, or wrap it in a message',
              pos(typeToken),
            );
          if (this.hasLabel(field)) {
            this.fail(
              'labels (required/optional/repeated) are not allowed on map fields',
              'remove the label: a map is already repeated',
              this.positions.get(field)!.label,
            );
          }
          if (field.extendee !== '')
            this.fail(
              'map fields are not allowed to be extensions',
              'declare the map in a message and extend with a field of that message type',
              pos(typeToken),
            );
          field.label = FieldDescriptorProto_Label.REPEATED;
          this.consume('<');
          const keyPos = pos(this.input.current);
          const key = this.parseType();
          this.consume(',', 'between the key and value types of the map');
          const valuePos = pos(this.input.current);
          const value = this.parseType();
          this.consume('>', 'to close the map type');
          map = { keyType: key.type, keyTypeName: key.typeName, valueType: value.type, valueTypeName: value.typeName, keyPos, valuePos };
          location.loc.path.push(6);
        } else {
          typeParsed = true;
          typeName = 'map';
        }
      }
      if (!map) {
        if (!labelled) {
          if (this.syntax === 'proto2') {
            const noSyntax = this.file.syntax === '' && !this.locations.some((l) => l.path.length === 1 && l.path[0] === 12);
            this.fail(
              `expected "required", "optional", or "repeated", found ${this.describeCurrent()}`,
              noSyntax
                ? 'a file without a syntax statement is proto2, where fields need a label; add syntax = "proto3"; as the first statement if the file is proto3'
                : 'proto2 fields start with a label: optional int32 id = 1;',
            );
          }
          field.label = FieldDescriptorProto_Label.OPTIONAL;
        }
        if (!typeParsed) {
          const parsed = this.parseType();
          type = parsed.type;
          typeName = parsed.typeName ?? '';
        }
        if (type === FieldDescriptorProto_Type.GROUP) {
          if (this.syntax === 'editions') {
            this.fail(
              'group syntax is no longer supported in editions',
              'declare a message and a field of that type with [features.message_encoding = DELIMITED]',
              pos(typeToken),
            );
          }
          if (this.syntax === 'proto3')
            this.fail('groups are not supported in proto3', 'declare a nested message and a field of that type instead', pos(typeToken));
        }
        if (typeName === '') {
          location.loc.path.push(5);
          field.type = type!;
        } else {
          location.loc.path.push(6);
          field.typeName = typeName;
        }
      }
      location.end();
    }
    const nameToken = this.input.current;
    {
      const location = fieldLocation.child(1);
      field.name = this.identifier('a field name', 'a field is written: type name = number;');
      location.end();
    }
    this.consume('=', 'after the field name (missing field number)', `write ${field.name} = <number>;`);
    const numberToken = this.input.current;
    {
      const location = fieldLocation.child(3);
      if (this.input.current.type !== 'integer')
        this.fail(`expected a field number, found ${this.describeCurrent()}`, 'field numbers are integers from 1 to 536870911');
      const value = parseInteger(this.input.current.text);
      if (value > INT32_MAX) this.fail(`integer ${this.input.current.text} is out of range`, 'field numbers run from 1 to 536870911');
      field.number = Number(value);
      this.input.next();
      location.end();
    }
    if (oneofIndex !== undefined) field.oneofIndex = oneofIndex;
    this.setPositions(field, {
      type: pos(typeToken),
      name: pos(nameToken),
      number: pos(numberToken),
      ...(map ? { key: map.keyPos, value: map.valuePos } : {}),
    });
    this.parseFieldOptions(field, fieldLocation, scope);
    if (field.typeName === '' && field.type === FieldDescriptorProto_Type.GROUP) {
      this.parseGroup(field, nameToken, messages, parentLocation, nestedTypeNumber, fieldLocation, scope);
    } else {
      this.endOfDeclaration(';', fieldLocation);
    }
    if (map) this.generateMapEntry(map, field, messages);
  }

  /**
   * `optional group Result = 1 { ... }`: a nested message named as written and a field of type
   * TYPE_GROUP named in lower case. protoc records overlapping locations for the two.
   */
  private parseGroup(
    field: FieldDescriptorProto,
    nameToken: Token,
    messages: DescriptorProto[],
    parentLocation: Location,
    nestedTypeNumber: number,
    fieldLocation: Location,
    scope: string,
  ): void {
    const groupLocation = parentLocation.child(nestedTypeNumber, messages.length);
    groupLocation.startAtLocation(fieldLocation);
    const group = create(DescriptorProtoSchema, { name: field.name });
    messages.push(group);
    {
      const location = groupLocation.child(1);
      location.startAt(nameToken);
      location.endAt(nameToken);
    }
    {
      const location = fieldLocation.child(6);
      location.startAt(nameToken);
      location.endAt(nameToken);
    }
    if (!/^[A-Z]/.test(group.name)) {
      this.fail(
        'group names must start with a capital letter',
        `write group ${group.name.charAt(0).toUpperCase()}${group.name.slice(1)}; the field is named in lower case`,
        pos(nameToken),
      );
    }
    this.setPositions(group, { name: pos(nameToken) });
    field.name = field.name.replace(/[A-Z]/g, (c) => c.toLowerCase());
    field.typeName = group.name;
    if (!this.lookingAt('{'))
      this.fail(`missing group body, found ${this.describeCurrent()}`, `write group ${group.name} = ${field.number} { ... }`);
    // Groups count towards the nesting limit too (as in protoc after 36), so deep input cannot overflow the stack.
    if (++this.messageDepth >= MAX_MESSAGE_DEPTH)
      this.fail('reached maximum recursion limit for nested messages', `nest messages at most ${MAX_MESSAGE_DEPTH - 1} deep`);
    this.parseMessageBlock(group, groupLocation, scope ? `${scope}.${group.name}` : group.name);
    this.messageDepth--;
    groupLocation.end();
  }

  private hasLabel(field: FieldDescriptorProto): boolean {
    return this.positions.get(field)?.label !== undefined;
  }

  private generateMapEntry(map: MapField, field: FieldDescriptorProto, messages: DescriptorProto[]): void {
    const entryName = mapEntryName(field.name);
    field.typeName = entryName;
    const entry = create(DescriptorProtoSchema, { name: entryName, options: { mapEntry: true } });
    const key = create(FieldDescriptorProtoSchema, { name: 'key', label: FieldDescriptorProto_Label.OPTIONAL, number: 1 });
    if (map.keyTypeName === undefined) key.type = map.keyType!;
    else key.typeName = map.keyTypeName;
    const value = create(FieldDescriptorProtoSchema, { name: 'value', label: FieldDescriptorProto_Label.OPTIONAL, number: 2 });
    if (map.valueTypeName === undefined) value.type = map.valueType!;
    else value.typeName = map.valueTypeName;
    entry.field.push(key, value);
    this.setPositions(key, { type: map.keyPos, name: map.keyPos, number: map.keyPos });
    this.setPositions(value, { type: map.valuePos, name: map.valuePos, number: map.valuePos });
    this.setPositions(entry, { name: this.positions.get(field)!.name, mapEntryOf: this.positions.get(field)!.type });
    messages.push(entry);
    // protoc copies the map field's `features` to the entry's key and value fields (so they
    // resolve like the map); the copies have no source location.
    const features = this.options.filter((o) => o.owner === field && !o.parts[0]!.isExtension && o.parts[0]!.name === 'features');
    for (const target of [key, value]) {
      features.forEach((option, i) => {
        target.options ??= create(FieldOptionsSchema);
        this.options.push({ ...option, owner: target, path: [-1, target.number, 999, i] });
      });
    }
  }

  private parseType(): { type?: FieldDescriptorProto_Type; typeName?: string } {
    const t = this.input.current;
    if (t.type === 'identifier' && t.text in TYPES) {
      this.input.next();
      return { type: TYPES[t.text] };
    }
    return { typeName: this.parseUserDefinedType() };
  }

  private parseUserDefinedType(): string {
    const t = this.input.current;
    if (t.type === 'identifier' && t.text in TYPES)
      this.fail(
        `expected a message type, found the scalar type "${t.text}"`,
        'requests and responses must be messages; wrap the value in a message (or use google.protobuf wrappers)',
      );
    let name = '';
    if (this.tryConsume('.')) name += '.';
    name += this.identifier('a type name');
    while (this.tryConsume('.')) name += '.' + this.identifier('an identifier');
    return name;
  }

  private parseFieldOptions(field: FieldDescriptorProto, fieldLocation: Location, scope: string): void {
    if (!this.lookingAt('[')) return;
    const location = fieldLocation.child(8);
    this.consume('[');
    do {
      if (this.lookingAt('default')) {
        if (this.syntax === 'proto3')
          this.fail(
            'explicit default values are not allowed in proto3',
            'remove [default = ...]; proto3 fields default to zero, empty or the first enum value',
          );
        this.parseDefault(field, fieldLocation);
      } else if (this.lookingAt('json_name')) {
        if (this.positions.get(field)?.jsonName) this.fail('option "json_name" is already set', 'set json_name once');
        const jsonLocation = fieldLocation.child(10);
        const at = pos(this.input.current);
        this.consume('json_name');
        this.consume('=');
        const valueLocation = jsonLocation.child();
        field.jsonName = this.string('a string for the JSON name');
        valueLocation.end();
        jsonLocation.end();
        this.setPositions(field, { jsonName: at });
      } else {
        this.parseOption(field, 'field', location, scope, false);
      }
    } while (this.tryConsume(','));
    this.consume(']', 'to close the field options');
    location.end();
  }

  /**
   * `default = value` inside a field's `[...]`, kept as protoc's parser writes `default_value`:
   * integers in decimal, floats through SimpleDtoa, bytes C-escaped, enum values by name. The
   * linker checks it against the resolved type and prints floats as protoc's CopyTo does.
   */
  private parseDefault(field: FieldDescriptorProto, fieldLocation: Location): void {
    if (this.positions.get(field)?.default) this.fail('option "default" is already set', 'set default once');
    const at = pos(this.input.current);
    this.consume('default');
    this.consume('=');
    const location = fieldLocation.child(7);
    const valueAt = pos(this.input.current);
    field.defaultValue = field.typeName !== '' ? this.anyToken() : this.scalarDefault(field.type);
    location.end();
    this.setPositions(field, { default: at, defaultValue: valueAt });
  }

  /** A message or enum field: the type is not known yet, so protoc keeps the token as written. */
  private anyToken(): string {
    const text = this.input.current.text;
    this.input.next();
    return text;
  }

  private scalarDefault(type: FieldDescriptorProto_Type): string {
    const T = FieldDescriptorProto_Type;
    switch (type) {
      case T.INT32:
      case T.SINT32:
      case T.SFIXED32:
      case T.INT64:
      case T.SINT64:
      case T.SFIXED64: {
        let max = type === T.INT32 || type === T.SINT32 || type === T.SFIXED32 ? INT32_MAX : INT64_MAX;
        const negative = this.tryConsume('-');
        if (negative) max += 1n;
        return `${negative ? '-' : ''}${this.integer('an integer for the default value', max)}`;
      }
      case T.UINT32:
      case T.FIXED32:
      case T.UINT64:
      case T.FIXED64:
        if (this.tryConsume('-')) this.fail("an unsigned field can't have a negative default value", 'use a value from 0 up');
        return `${this.integer('an integer for the default value', type === T.UINT32 || type === T.FIXED32 ? UINT32_MAX : UINT64_MAX)}`;
      case T.FLOAT:
      case T.DOUBLE: {
        const negative = this.tryConsume('-');
        return `${negative ? '-' : ''}${simpleDtoa(this.number('a number for the default value'))}`;
      }
      case T.BOOL:
        if (this.tryConsume('true')) return 'true';
        if (this.tryConsume('false')) return 'false';
        return this.fail(`expected "true" or "false", found ${this.describeCurrent()}`, 'a bool default is true or false');
      case T.STRING:
        return this.string('a string for the default value');
      case T.BYTES: {
        if (this.input.current.type !== 'string')
          this.fail(
            `expected a string for the default value, found ${this.describeCurrent()}`,
            'a bytes default is a string literal, e.g. "\\x00\\xff"',
          );
        const bytes: number[] = [];
        while (this.input.current.type === 'string') {
          bytes.push(...stringBytes(this.input.current.text));
          this.input.next();
        }
        return cEscape(bytes);
      }
      default:
        return this.fail("messages can't have default values", 'remove [default = ...]');
    }
  }

  /** protoc's ConsumeNumber: a float, an integer up to 2^64 - 1, `inf` or `nan`. */
  private number(what: string): number {
    const t = this.input.current;
    if (t.type === 'float') {
      this.input.next();
      return parseFloatText(t.text);
    }
    if (t.type === 'integer') return Number(this.integer(what, UINT64_MAX));
    if (this.tryConsume('inf')) return Infinity;
    if (this.tryConsume('nan')) return NaN;
    return this.fail(`expected ${what}, found ${this.describeCurrent()}`, 'write a number, inf or nan');
  }

  private parseOneof(
    oneof: OneofDescriptorProto,
    message: DescriptorProto,
    index: number,
    location: Location,
    messageLocation: Location,
    scope: string,
  ): void {
    this.consume('oneof');
    const nameLocation = location.child(1);
    const at = pos(this.input.current);
    oneof.name = this.identifier('a oneof name');
    nameLocation.end();
    this.setPositions(oneof, { name: at });
    this.endOfDeclaration('{', location);
    do {
      if (this.atEnd()) this.fail('reached the end of the file in a oneof definition (missing "}")', `close oneof ${oneof.name} with }`);
      if (this.lookingAt('option')) {
        const sub = location.child(2);
        this.parseOption(oneof, 'oneof', sub, scope, true);
        sub.end();
        continue;
      }
      if (this.lookingAt('required') || this.lookingAt('optional') || this.lookingAt('repeated')) {
        this.fail(
          'fields in oneofs must not have labels (required / optional / repeated)',
          'remove the label; to repeat a value inside a oneof, wrap it in a message',
        );
      }
      const fieldLocation = messageLocation.child(2, message.field.length);
      const field = create(FieldDescriptorProtoSchema, { label: FieldDescriptorProto_Label.OPTIONAL });
      message.field.push(field);
      this.parseFieldNoLabel(field, message.nestedType, messageLocation, 3, fieldLocation, scope, index);
      fieldLocation.end();
    } while (!this.tryEndOfDeclaration('}', undefined));
  }

  /**
   * `extensions 100 to 199, 500 to max [options];` (proto2, editions). As protoc, the options are
   * parsed once and copied to every range of the statement, source locations included.
   */
  private parseExtensions(message: DescriptorProto, location: Location, scope: string): void {
    this.consume('extensions');
    const first = message.extensionRange.length;
    do {
      const sub = location.child(message.extensionRange.length);
      const startToken = this.input.current;
      let start: number;
      let end: number;
      {
        const s = sub.child(1);
        start = this.fieldNumberInRange('a field number range');
        s.end();
      }
      if (this.tryConsume('to')) {
        const e = sub.child(2);
        end = this.tryConsume('max') ? -2 : this.fieldNumberInRange('an integer');
        e.end();
      } else {
        const e = sub.child(2);
        e.startAt(startToken);
        e.endAt(startToken);
        end = start;
      }
      const range = create(DescriptorProto_ExtensionRangeSchema, { start, end: end + 1 });
      message.extensionRange.push(range);
      this.setPositions(range, { start: pos(startToken) });
      sub.end();
    } while (this.tryConsume(','));
    if (this.lookingAt('[')) this.parseExtensionRangeOptions(message, first, location, scope);
    this.endOfDeclaration(';', location);
  }

  /** An extension or reserved range bound: up to INT32_MAX - 1 (`to max` stands for the top). */
  private fieldNumberInRange(what: string): number {
    const value = Number(this.integer(what, INT32_MAX));
    // protoc reports it at the token after the number.
    if (value === Number(INT32_MAX))
      this.fail('field number out of bounds', `field numbers run from 1 to ${FIELD_NUMBER_MAX}; write "to max" for the largest`);
    return value;
  }

  private parseExtensionRangeOptions(message: DescriptorProto, first: number, location: Location, scope: string): void {
    const ranges = message.extensionRange.slice(first);
    const firstRange = ranges[0]!;
    const recorded = this.locations.length;
    const pending = this.options.length;
    // protoc records the options under range index 0 and renumbers each copy.
    const indexLocation = location.child(0);
    const optionsLocation = indexLocation.child(3);
    this.consume('[');
    do this.parseOption(firstRange, 'extensionRange', optionsLocation, scope, false);
    while (this.tryConsume(','));
    this.consume(']', 'to close the extension range options');
    optionsLocation.end();
    indexLocation.end();
    const optionLocations = this.locations.splice(recorded).filter((l) => l !== indexLocation.loc);
    const options = this.options.splice(pending);
    const indexAt = location.path.length;
    const renumber = (path: number[], index: number) => path.map((p, i) => (i === indexAt ? index : p));
    ranges.forEach((range, i) => {
      const index = first + i;
      if (range !== firstRange) range.options = create(ExtensionRangeOptionsSchema);
      for (const loc of optionLocations) {
        const copy = clone(SourceCodeInfo_LocationSchema, loc);
        copy.path = renumber(loc.path, index);
        this.locations.push(copy);
      }
      for (const option of options) this.options.push({ ...option, owner: range, path: renumber(option.path, index) });
    });
  }

  private parseReserved(message: DescriptorProto | EnumDescriptorProto, messageLocation: Location): void {
    const start = this.input.current;
    const isEnum = message.$typeName === 'google.protobuf.EnumDescriptorProto';
    this.consume('reserved');
    const type = this.input.current.type;
    if (type === 'string' || type === 'identifier') {
      // Names: string literals before editions, identifiers in editions.
      if (type === 'string' && this.syntax === 'editions') {
        this.fail(
          'reserved names must be identifiers in editions, not string literals',
          `write reserved ${stringValue(this.input.current.text)};`,
        );
      }
      if (type === 'identifier' && this.syntax !== 'editions') {
        this.fail(
          `reserved names must be string literals in ${this.syntax} (only editions supports identifiers), found ${this.describeCurrent()}`,
          `write reserved "${this.input.current.text}";`,
        );
      }
      const location = messageLocation.child(isEnum ? 5 : 10);
      location.startAt(start);
      do {
        const sub = location.child(message.reservedName.length);
        const at = pos(this.input.current);
        const what = isEnum ? 'an enum value name' : 'a field name';
        // A string that is not an identifier is accepted, as protoc does (with a warning).
        const name = type === 'string' ? this.string(what) : this.identifier(what);
        message.reservedName.push(name);
        this.setPositions(message, { [`reservedName:${name}`]: at });
        sub.end();
      } while (this.tryConsume(','));
      this.endOfDeclaration(';', location);
      location.end();
      return;
    }
    const location = messageLocation.child(isEnum ? 4 : 9);
    location.startAt(start);
    let first = true;
    do {
      const sub = location.child(message.reservedRange.length);
      const startToken = this.input.current;
      const what = first
        ? isEnum
          ? 'an enum value or number range'
          : 'a field name or number range'
        : isEnum
          ? 'an enum number range'
          : 'a field number range';
      let from: number;
      let to: number;
      {
        const s = sub.child(1);
        from = isEnum ? this.signedInt32(what) : this.fieldNumberInRange(what);
        s.end();
      }
      if (this.tryConsume('to')) {
        const e = sub.child(2);
        if (this.tryConsume('max')) to = isEnum ? Number(INT32_MAX) : -2;
        else to = isEnum ? this.signedInt32('an integer') : this.fieldNumberInRange('an integer');
        e.end();
      } else {
        const e = sub.child(2);
        e.startAt(startToken);
        e.endAt(startToken);
        to = from;
      }
      if (isEnum) {
        message.reservedRange.push(create(EnumDescriptorProto_EnumReservedRangeSchema, { start: from, end: to }));
      } else {
        (message as DescriptorProto).reservedRange.push(create(DescriptorProto_ReservedRangeSchema, { start: from, end: to + 1 }));
      }
      this.setPositions(message.reservedRange[message.reservedRange.length - 1], { start: pos(startToken) });
      sub.end();
      first = false;
    } while (this.tryConsume(','));
    this.endOfDeclaration(';', location);
    location.end();
  }

  private parseExtend(
    extensions: FieldDescriptorProto[],
    messages: DescriptorProto[],
    parentLocation: Location,
    nestedTypeNumber: number,
    extendLocation: Location,
    scope: string,
  ): void {
    this.consume('extend');
    const extendeeStart = this.input.current;
    const extendee = this.parseUserDefinedType();
    const extendeeEnd = this.input.previous;
    this.endOfDeclaration('{', extendLocation);
    do {
      if (this.atEnd()) this.fail('reached the end of the file in an extend block (missing "}")', 'close the extend block with }');
      const location = extendLocation.child(extensions.length);
      const field = create(FieldDescriptorProtoSchema);
      extensions.push(field);
      {
        const e = location.child(2);
        e.startAt(extendeeStart);
        e.endAt(extendeeEnd);
      }
      field.extendee = extendee;
      this.setPositions(field, { extendee: pos(extendeeStart) });
      this.parseField(field, messages, parentLocation, nestedTypeNumber, location, scope, undefined);
      location.end();
    } while (!this.tryEndOfDeclaration('}', undefined));
  }

  // ---- enums -----------------------------------------------------------------------------------

  private parseEnum(enumType: EnumDescriptorProto, location: Location, scope: string): void {
    this.consume('enum');
    const nameLocation = location.child(1);
    const at = pos(this.input.current);
    enumType.name = this.identifier('an enum name', 'write enum Name { ... }');
    nameLocation.end();
    this.setPositions(enumType, { name: at });
    this.endOfDeclaration('{', location, 'an enum body starts with {');
    while (!this.tryEndOfDeclaration('}', undefined)) {
      if (this.atEnd()) this.fail('reached the end of the file in an enum definition (missing "}")', `close enum ${enumType.name} with }`);
      if (this.tryEndOfDeclaration(';', undefined)) continue;
      if (this.lookingAt('option')) {
        const sub = location.child(3);
        this.parseOption(enumType, 'enum', sub, scope, true);
        sub.end();
      } else if (this.lookingAt('reserved')) {
        this.parseReserved(enumType, location);
      } else {
        const sub = location.child(2, enumType.value.length);
        const value = create(EnumValueDescriptorProtoSchema);
        enumType.value.push(value);
        this.parseEnumValue(value, sub, scope);
        sub.end();
      }
    }
  }

  private parseEnumValue(value: EnumValueDescriptorProto, location: Location, scope: string): void {
    const nameAt = pos(this.input.current);
    {
      const sub = location.child(1);
      value.name = this.identifier('an enum value name', 'an enum value is written NAME = number;');
      sub.end();
    }
    this.consume('=', 'after the enum value name (missing numeric value)', `write ${value.name} = <number>;`);
    const numberAt = pos(this.input.current);
    {
      const sub = location.child(2);
      value.number = this.signedInt32('an integer');
      sub.end();
    }
    this.setPositions(value, { name: nameAt, number: numberAt });
    if (this.lookingAt('[')) {
      const sub = location.child(3);
      this.consume('[');
      do this.parseOption(value, 'enumValue', sub, scope, false);
      while (this.tryConsume(','));
      this.consume(']', 'to close the enum value options');
      sub.end();
    }
    this.endOfDeclaration(';', location);
  }

  // ---- services --------------------------------------------------------------------------------

  private parseService(service: ServiceDescriptorProto, location: Location): void {
    this.consume('service');
    const nameLocation = location.child(1);
    const at = pos(this.input.current);
    service.name = this.identifier('a service name', 'write service Name { rpc ... }');
    nameLocation.end();
    this.setPositions(service, { name: at });
    const scope = this.file.package ? `${this.file.package}.${service.name}` : service.name;
    this.endOfDeclaration('{', location, 'a service body starts with {');
    while (!this.tryEndOfDeclaration('}', undefined)) {
      if (this.atEnd())
        this.fail('reached the end of the file in a service definition (missing "}")', `close service ${service.name} with }`);
      if (this.tryEndOfDeclaration(';', undefined)) continue;
      if (this.lookingAt('option')) {
        const sub = location.child(3);
        this.parseOption(service, 'service', sub, this.file.package, true);
        sub.end();
      } else {
        const sub = location.child(2, service.method.length);
        const method = create(MethodDescriptorProtoSchema);
        service.method.push(method);
        this.parseMethod(method, sub, scope);
        sub.end();
      }
    }
  }

  private parseMethod(method: MethodDescriptorProto, location: Location, scope: string): void {
    this.consume('rpc', undefined, 'a service holds rpc Name(Request) returns (Response); methods');
    const nameAt = pos(this.input.current);
    {
      const sub = location.child(1);
      method.name = this.identifier('a method name');
      sub.end();
    }
    this.consume('(', 'before the request type');
    if (this.lookingAt('stream')) {
      const sub = location.child(5);
      method.clientStreaming = true;
      this.consume('stream');
      sub.end();
    }
    const inputAt = pos(this.input.current);
    {
      const sub = location.child(2);
      method.inputType = this.parseUserDefinedType();
      sub.end();
    }
    this.consume(')', 'after the request type');
    this.consume('returns', 'after the request type', `write rpc ${method.name}(Request) returns (Response);`);
    this.consume('(', 'before the response type');
    if (this.lookingAt('stream')) {
      const sub = location.child(6);
      this.consume('stream');
      method.serverStreaming = true;
      sub.end();
    }
    const outputAt = pos(this.input.current);
    {
      const sub = location.child(3);
      method.outputType = this.parseUserDefinedType();
      sub.end();
    }
    this.consume(')', 'after the response type');
    this.setPositions(method, { name: nameAt, input: inputAt, output: outputAt });
    if (this.lookingAt('{')) {
      // protoc creates the options message for a `{ ... }` block, even an empty one.
      if (!method.options) method.options = create(MethodOptionsSchema);
      this.endOfDeclaration('{', location);
      while (!this.tryEndOfDeclaration('}', undefined)) {
        if (this.atEnd())
          this.fail('reached the end of the file in method options (missing "}")', `close the options of ${method.name} with }`);
        if (this.tryEndOfDeclaration(';', undefined)) continue;
        const sub = location.child(4);
        this.parseOption(method, 'method', sub, scope, true);
        sub.end();
      }
    } else {
      this.endOfDeclaration(';', location);
    }
  }
}

/** protoc's ParseInteger: decimal, 0x hex or 0 octal. */
export function parseInteger(text: string): bigint {
  if (/^0[xX]/.test(text)) return BigInt(text);
  if (text.length > 1 && text[0] === '0') return BigInt('0o' + text.slice(1));
  return BigInt(text);
}

function parseFloatText(text: string): number {
  return Number(text.replace(/[fF]$/, ''));
}

/** `a.b.C` → `a.b`; the scope a name is looked up from first. */
export function parentScope(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(0, dot);
}
