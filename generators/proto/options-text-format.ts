/**
 * Aggregate option values — `option (google.api.http) = { get: "/v1/{name=*}" body: "*" };` — read
 * as protobuf text format, the way protoc's OptionInterpreter hands them to `TextFormat::Parser`:
 * `name: value` fields (the `:` optional before a message), `{ ... }` or `< ... >` messages,
 * `[a, b]` lists for repeated fields, `[pkg.ext]` extensions looked up from the message's scope,
 * `[type.googleapis.com/pkg.Msg] { ... }` inside `google.protobuf.Any`, adjacent strings
 * concatenated, enums by name or number, integers in decimal, hex or octal, `inf`/`nan`, fields
 * separated by nothing, `,` or `;`. A field set twice is an error (protoc forbids overwrites here),
 * so is a required field left out; group-like fields also answer to their type name (`MyGroup {}`),
 * and map entries get their zero key or value filled in, as protoc writes them.
 *
 * It reads the tokens the `.proto` tokenizer produced for the value, so errors point at the token.
 */
import { ScalarType } from '@bufbuild/protobuf';
import type { FieldDescriptorProto } from '@bufbuild/protobuf/wkt';
import { parseInteger } from './parse.js';
import type { Pos } from './parse.js';
import { inOneof } from './option-types.js';
import type { OptionField, OptionMessageType, OptionTypes } from './option-types.js';
import { MessageValue, NEGATIVE_NAN, stringOf } from './option-values.js';
import type { ScalarValue } from './option-values.js';
import { editDistance } from './resolve.js';
import { stringBytes } from './tokens.js';
import type { Token } from './tokens.js';

/** A problem in an aggregate value, at the token it concerns. */
export class TextFormatError extends Error {
  constructor(
    message: string,
    readonly at: Pos,
    readonly hint: string,
  ) {
    super(message);
  }
}

export interface TextFormatScope {
  types: OptionTypes;
  /** The extension `[name]` of `type`, or the reason there is none. */
  findExtension(name: string, type: OptionMessageType): OptionField | string;
}

const INT32: [bigint, bigint] = [-2147483648n, 2147483647n];
const UINT32: [bigint, bigint] = [0n, 4294967295n];
const INT64: [bigint, bigint] = [-9223372036854775808n, 9223372036854775807n];
const UINT64: [bigint, bigint] = [0n, 18446744073709551615n];

const SCALAR_WORD: Record<ScalarType, string> = {
  [ScalarType.DOUBLE]: 'double',
  [ScalarType.FLOAT]: 'float',
  [ScalarType.INT64]: 'int64',
  [ScalarType.UINT64]: 'uint64',
  [ScalarType.INT32]: 'int32',
  [ScalarType.FIXED64]: 'fixed64',
  [ScalarType.FIXED32]: 'fixed32',
  [ScalarType.BOOL]: 'bool',
  [ScalarType.STRING]: 'string',
  [ScalarType.BYTES]: 'bytes',
  [ScalarType.UINT32]: 'uint32',
  [ScalarType.SFIXED32]: 'sfixed32',
  [ScalarType.SFIXED64]: 'sfixed64',
  [ScalarType.SINT32]: 'sint32',
  [ScalarType.SINT64]: 'sint64',
};

/** Parses the tokens between an aggregate's outer braces into a value of `type`. */
export function parseTextFormat(tokens: Token[], type: OptionMessageType, scope: TextFormatScope, end: Pos): MessageValue {
  const value = new TextFormatParser(tokens, scope, end).message(type, undefined);
  const missing = missingRequired(value, scope.types, '');
  if (missing.length > 0) {
    const first = tokens[0];
    throw new TextFormatError(
      `message missing required fields: ${missing.join(', ')}`,
      first ? { line: first.line, charColumn: first.charColumn } : end,
      'set every required field (proto2 required, editions LEGACY_REQUIRED) in the value',
    );
  }
  return value;
}

function defaultValue(field: OptionField): ScalarValue | MessageValue {
  if (field.kind === 'message') return new MessageValue(field.message());
  if (field.kind === 'enum') return field.enumType().proto.value[0]?.number ?? 0;
  switch (field.scalar) {
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 0n;
    case ScalarType.BOOL:
      return false;
    case ScalarType.STRING:
      return '';
    case ScalarType.BYTES:
      return new Uint8Array(0);
    default:
      return 0;
  }
}

/** Paths of required fields left unset, as protoc's IsInitialized lists them. */
export function missingRequired(value: MessageValue, types: OptionTypes, prefix: string): string[] {
  const out: string[] = [];
  for (const proto of value.type.proto.field) {
    const field = types.field(value.type, proto);
    if (field.required && !value.has(field)) out.push(prefix + field.name);
  }
  for (const { field, values } of value.fields.values()) {
    if (field.kind !== 'message') continue;
    const name = field.isExtension ? `(${field.name})` : field.name;
    values.forEach((v, i) => {
      if (v instanceof MessageValue) out.push(...missingRequired(v, types, `${prefix}${name}${field.repeated ? `[${i}]` : ''}.`));
    });
  }
  return out;
}

class TextFormatParser {
  private index = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly scope: TextFormatScope,
    private readonly end: Pos,
  ) {}

  private get current(): Token | undefined {
    return this.tokens[this.index];
  }

  private at(): Pos {
    const t = this.current;
    return t ? { line: t.line, charColumn: t.charColumn } : this.end;
  }

  private fail(message: string, hint: string, at: Pos = this.at()): never {
    throw new TextFormatError(message, at, hint);
  }

  private describe(): string {
    const t = this.current;
    if (!t) return 'the end of the value';
    return t.type === 'string' ? t.text : `"${t.text}"`;
  }

  private lookingAt(text: string): boolean {
    const t = this.current;
    return t !== undefined && t.type !== 'string' && t.text === text;
  }

  private tryConsume(text: string): boolean {
    if (!this.lookingAt(text)) return false;
    this.index++;
    return true;
  }

  private consume(text: string, hint: string): void {
    if (!this.tryConsume(text)) this.fail(`expected "${text}", found ${this.describe()}`, hint);
  }

  private identifier(what: string): string {
    const t = this.current;
    if (t?.type !== 'identifier') this.fail(`expected ${what}, found ${this.describe()}`, 'write field names as in the .proto file');
    this.index++;
    return t.text;
  }

  /** Fields until `close` (or the end of the tokens when `close` is undefined). */
  message(type: OptionMessageType, close: string | undefined): MessageValue {
    const value = new MessageValue(type);
    for (;;) {
      if (close === undefined ? this.current === undefined : this.tryConsume(close)) {
        if (type.proto.options?.mapEntry) this.completeMapEntry(value);
        return value;
      }
      if (this.current === undefined)
        this.fail(
          `expected "${close}" to close the message value, found the end of the value`,
          `close the ${type.fullName} value with ${close}`,
        );
      this.field(value);
    }
  }

  private field(target: MessageValue): void {
    const type = target.type;
    const nameAt = this.at();
    let field: OptionField;
    let label: string;
    if (this.tryConsume('[')) {
      let name = this.identifier('an extension name');
      while (this.tryConsume('.')) name += '.' + this.identifier('an extension name');
      if (this.tryConsume('/')) {
        this.any(target, name, nameAt);
        return;
      }
      this.consume(']', 'close the extension name with ]');
      const found = this.scope.findExtension(name, type);
      if (typeof found === 'string')
        this.fail(found, `an extension inside [...] must extend "${type.fullName}" and be visible from this file`, nameAt);
      field = found;
      label = `[${name}]`;
    } else {
      const name = this.identifier('a field name');
      field = this.fieldByName(type, name, nameAt);
      label = name;
    }
    if (field.kind === 'message') this.tryConsume(':');
    else this.consume(':', `write ${label}: value`);
    if (!field.repeated && target.has(field))
      this.fail(
        `non-repeated field "${label}" is specified multiple times`,
        'set each singular field once; repeated fields take several values',
        nameAt,
      );
    this.checkOneof(target, field, nameAt);
    if (field.repeated && this.tryConsume('[')) {
      if (!this.tryConsume(']')) {
        for (;;) {
          target.add(field, this.value(field));
          if (this.tryConsume(']')) break;
          this.consume(',', 'separate list elements with ,');
        }
      }
    } else {
      target.add(field, this.value(field));
    }
    if (!this.tryConsume(';')) this.tryConsume(',');
  }

  /**
   * protoc's rule: a field by its name; a group-like field (proto2 `group`, or an editions DELIMITED
   * field named after its nested type) also by its type name, as `MyGroup { ... }`.
   */
  private fieldByName(type: OptionMessageType, name: string, at: Pos): OptionField {
    let proto = type.proto.field.find((f) => f.name === name);
    if (!proto) {
      const lower = type.proto.field.find((f) => f.name === name.toLowerCase());
      if (lower && this.isGroupLike(type, lower)) proto = lower;
    }
    if (!proto) {
      const names = type.proto.field.map((f) => f.name);
      const close = names.find((n) => editDistance(n, name) <= 2);
      this.fail(
        `message type "${type.fullName}" has no field named "${name}"`,
        close ? `did you mean "${close}"?` : `its fields are ${names.join(', ') || '(none)'}`,
        at,
      );
    }
    return this.scope.types.field(type, proto);
  }

  /** protoc's IsGroupLike: delimited, named as its type in lower case, the type nested beside it. */
  private isGroupLike(type: OptionMessageType, proto: FieldDescriptorProto): boolean {
    const typeName = proto.typeName.slice(proto.typeName.lastIndexOf('.') + 1);
    return (
      this.scope.types.field(type, proto).delimited &&
      proto.name === typeName.toLowerCase() &&
      proto.typeName === `.${type.fullName}.${typeName}`
    );
  }

  /** protoc writes a map entry's key and value even when they are left out or zero. */
  private completeMapEntry(entry: MessageValue): void {
    for (const proto of entry.type.proto.field) {
      const field = this.scope.types.field(entry.type, proto);
      if (!entry.has(field)) entry.add(field, defaultValue(field));
    }
  }

  private checkOneof(target: MessageValue, field: OptionField, at: Pos): void {
    if (field.isExtension || !inOneof(field.proto)) return;
    const index = field.proto.oneofIndex;
    for (const { field: other } of target.fields.values()) {
      if (other.isExtension || other.number === field.number || !inOneof(other.proto) || other.proto.oneofIndex !== index) continue;
      const oneof = target.type.proto.oneofDecl[index]?.name ?? '';
      this.fail(
        `field "${field.name}" is specified along with field "${other.name}", another member of oneof "${oneof}"`,
        'set one field of a oneof',
        at,
      );
    }
  }

  /** `[type.googleapis.com/pkg.Msg] { ... }`: the expanded form of a google.protobuf.Any. */
  private any(target: MessageValue, prefix: string, at: Pos): void {
    let name = this.identifier('a message name');
    while (this.tryConsume('.')) name += '.' + this.identifier('a message name');
    this.consume(']', 'close the type URL with ]');
    const type = target.type;
    if (type.fullName !== 'google.protobuf.Any')
      this.fail(
        `a type URL ([${prefix}/${name}]) is only allowed in a google.protobuf.Any value, not in "${type.fullName}"`,
        'write the field names of the message',
        at,
      );
    if (prefix !== 'type.googleapis.com' && prefix !== 'type.googleprod.com')
      this.fail(`invalid type URL prefix "${prefix}/"`, 'write [type.googleapis.com/package.Message]', at);
    const inner = this.scope.types.message(name);
    if (!inner) this.fail(`could not find type "${name}" for the Any value`, 'name a message the file can see, with its package', at);
    const urlField = type.proto.field.find((f) => f.number === 1);
    const valueField = type.proto.field.find((f) => f.number === 2);
    if (!urlField || !valueField) this.fail('google.protobuf.Any lacks its type_url and value fields', 'use the standard any.proto', at);
    if (target.fields.size > 0) this.fail('an Any value takes one [type URL] { ... } message', 'remove the other fields', at);
    this.tryConsume(':');
    const close = this.openMessage();
    const value = this.message(inner, close);
    target.add(this.scope.types.field(type, urlField), `${prefix}/${name}`);
    target.add(this.scope.types.field(type, valueField), value.encode());
  }

  private openMessage(): string {
    if (this.tryConsume('{')) return '}';
    if (this.tryConsume('<')) return '>';
    this.fail(`expected "{" or "<" to start a message value, found ${this.describe()}`, 'write field { ... }');
  }

  private value(field: OptionField): MessageValue | ScalarValue {
    if (field.kind === 'message') return this.message(field.message(), this.openMessage());
    if (field.kind === 'enum') return this.enumValue(field);
    return this.scalar(field);
  }

  private enumValue(field: OptionField): number {
    const at = this.at();
    const enumType = field.enumType();
    const t = this.current;
    if (t?.type === 'identifier') {
      this.index++;
      const found = enumType.proto.value.find((v) => v.name === t.text);
      if (!found) {
        const close = enumType.proto.value.map((v) => v.name).find((n) => editDistance(n, t.text) <= 2);
        this.fail(
          `unknown enumeration value of "${t.text}" for field "${field.name}"`,
          close ? `did you mean "${close}"?` : `"${enumType.fullName}" has ${enumType.proto.value.map((v) => v.name).join(', ')}`,
          at,
        );
      }
      return found.number;
    }
    const n = Number(this.integer(INT32, field));
    if (enumType.closed && !enumType.proto.value.some((v) => v.number === n)) {
      this.fail(
        `unknown enumeration value of "${n}" for field "${field.name}"`,
        `"${enumType.fullName}" is a closed enum: use one of its values`,
        at,
      );
    }
    return n;
  }

  /** `-`? integer (no `-` for unsigned types), within [min, max]; hex and octal as protoc reads them. */
  private integer([min, max]: [bigint, bigint], field: OptionField, signed = true): bigint {
    const at = this.at();
    const negative = signed && this.tryConsume('-');
    const t = this.current;
    if (t?.type !== 'integer')
      this.fail(
        `expected integer for field "${field.name}", found ${negative ? `"-" then ${this.describe()}` : this.describe()}`,
        `${field.name} is ${SCALAR_WORD[field.scalar]}`,
        at,
      );
    this.index++;
    const value = (negative ? -1n : 1n) * parseInteger(t.text);
    if (value < min || value > max)
      this.fail(
        `integer out of range (${negative ? '-' : ''}${t.text}) for field "${field.name}"`,
        `${field.name} is ${field.kind === 'enum' ? 'an enum' : SCALAR_WORD[field.scalar]}: from ${min} to ${max}`,
        at,
      );
    return value;
  }

  private scalar(field: OptionField): ScalarValue {
    const at = this.at();
    switch (field.scalar) {
      case ScalarType.INT32:
      case ScalarType.SINT32:
      case ScalarType.SFIXED32:
        return Number(this.integer(INT32, field));
      case ScalarType.UINT32:
      case ScalarType.FIXED32:
        return Number(this.integer(UINT32, field, false));
      case ScalarType.INT64:
      case ScalarType.SINT64:
      case ScalarType.SFIXED64:
        return this.integer(INT64, field);
      case ScalarType.UINT64:
      case ScalarType.FIXED64:
        return this.integer(UINT64, field, false);
      case ScalarType.FLOAT:
      case ScalarType.DOUBLE:
        return this.double(field);
      case ScalarType.BOOL: {
        const t = this.current;
        if (t?.type === 'identifier' && ['true', 'True', 't', 'false', 'False', 'f'].includes(t.text)) {
          this.index++;
          return t.text.startsWith('t') || t.text.startsWith('T');
        }
        if (t?.type === 'integer') {
          const n = parseInteger(t.text);
          if (n > 1n)
            this.fail(`integer out of range (${t.text}) for boolean field "${field.name}"`, 'write true or false (or 1 or 0)', at);
          this.index++;
          return n === 1n;
        }
        this.fail(`invalid value ${this.describe()} for boolean field "${field.name}"`, 'write true or false', at);
      }
      // falls through (fail throws)
      case ScalarType.STRING:
      case ScalarType.BYTES: {
        if (this.current?.type !== 'string')
          this.fail(`expected string for field "${field.name}", found ${this.describe()}`, 'quote the value: "..."', at);
        const bytes: number[] = [];
        while (this.current?.type === 'string') {
          for (const b of stringBytes(this.current.text)) bytes.push(b);
          this.index++;
        }
        if (field.scalar === ScalarType.BYTES) return new Uint8Array(bytes);
        const text = stringOf(bytes, field);
        if (typeof text === 'object' && 'error' in text)
          this.fail(text.error, 'use a bytes field for raw bytes; protoc aborts on this value', at);
        return text;
      }
    }
  }

  /** Decimal integers, floats, `inf`/`infinity`/`nan` in any case, each with an optional `-`. */
  private double(field: OptionField): number | typeof NEGATIVE_NAN {
    const at = this.at();
    const sign = this.tryConsume('-') ? -1 : 1;
    const t = this.current;
    if (t?.type === 'integer') {
      if (/^0[xX]/.test(t.text) || (t.text.length > 1 && t.text.startsWith('0')))
        this.fail(`expected a decimal number for field "${field.name}", found ${t.text}`, 'write floating-point values in decimal', at);
      this.index++;
      return sign * Number(t.text);
    }
    if (t?.type === 'float') {
      this.index++;
      return sign * Number(t.text.replace(/[fF]$/, ''));
    }
    if (t?.type === 'identifier') {
      const word = t.text.toLowerCase();
      if (word === 'inf' || word === 'infinity') {
        this.index++;
        return sign * Infinity;
      }
      if (word === 'nan') {
        this.index++;
        return sign < 0 ? NEGATIVE_NAN : NaN;
      }
    }
    this.fail(`expected a number for field "${field.name}", found ${this.describe()}`, `${field.name} is ${SCALAR_WORD[field.scalar]}`, at);
  }
}
