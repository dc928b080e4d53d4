/**
 * Edition 2024's `features.enforce_naming_style` (protoc's ValidateNamingStyle and
 * naming_style.cc): under STYLE2024, the default from edition 2024 on, packages, fields and oneofs
 * are lower_snake_case, messages, enums, services and methods TitleCase, enum values
 * UPPER_SNAKE_CASE; STYLE2026 (edition 2026's default) also refuses field and oneof names that
 * collide in generated code. The feature is inherited from file to message to its members.
 */
import { isFieldSet } from '@bufbuild/protobuf';
import { Edition, FeatureSet_EnforceNamingStyle as Style, FieldDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { DescriptorProto, EnumDescriptorProto, FeatureSet } from '@bufbuild/protobuf/wkt';
import type { ParsedFile, Pos } from './parse.js';

type Report = (at: Pos | undefined, message: string, hint: string) => void;

const OPT_OUT = ' (features.enforce_naming_style = STYLE_LEGACY can be used to opt out of this check)';
const COLLISIONS_OPT_OUT = ' (features.enforce_naming_style = STYLE2024 can be used to opt out of this check)';
const RANK: Record<number, number> = { [Style.STYLE_LEGACY]: 0, [Style.STYLE2024]: 1, [Style.STYLE2026]: 2 };

function badUnderscores(name: string): boolean {
  if (name.startsWith('_') || name.endsWith('_')) return true;
  return /_[^A-Za-z]/.test(name);
}

function titleCase(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (!/^[A-Za-z0-9]+$/.test(name)) return 'should be TitleCase';
  if (!/^[A-Z]/.test(name)) return 'should begin with a capital letter';
  return undefined;
}

function lowerSnakeCase(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (!/^[a-z0-9_.]+$/.test(name)) return 'should be lower_snake_case';
  if (!/^[a-z]/.test(name)) return 'should begin with a lower case letter';
  if (badUnderscores(name)) return 'contains style violating underscores';
  return undefined;
}

function upperSnakeCase(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (!/^[A-Z0-9_]+$/.test(name)) return 'should be UPPER_SNAKE_CASE';
  if (!/^[A-Z]/.test(name)) return 'should begin with an upper case letter';
  if (badUnderscores(name)) return 'contains style violating underscores';
  return undefined;
}

/** STYLE2026: `has_x`/`get_x`/`set_x`/`clear_x`/`x_value` next to a field or oneof `x`, or `descriptor`. */
function collision(name: string, message: DescriptorProto): string | undefined {
  const exists = (other: string) => message.field.some((f) => f.name === other) || message.oneofDecl.some((o) => o.name === other);
  for (const prefix of ['has_', 'get_', 'set_', 'clear_']) {
    if (name.startsWith(prefix) && exists(name.slice(prefix.length))) {
      return `should not begin with ${prefix} if a field named ${name.slice(prefix.length)} exists. This can cause collisions in generated code.`;
    }
  }
  if (name.endsWith('_value') && exists(name.slice(0, -'_value'.length))) {
    return `should not end with _value if a field named ${name.slice(0, -'_value'.length)} exists. This can cause collisions in generated code.`;
  }
  if (name === 'descriptor') return 'should not be named descriptor. This can cause collisions in generated code.';
  return undefined;
}

/** Reports every name of an edition 2024+ file that its naming style refuses, at the name. */
export function checkNamingStyle(file: ParsedFile, report: Report): void {
  const proto = file.proto;
  if (proto.syntax !== 'editions' || proto.edition < Edition.EDITION_2024) return;
  const at = (d: object) => file.positions.get(d)?.name;
  const style = (features: FeatureSet | undefined, inherited: number) =>
    features?.enforceNamingStyle ? (RANK[features.enforceNamingStyle] ?? inherited) : inherited;
  const check = (kind: string, name: string, problem: string | undefined, where: Pos | undefined, hint: string) => {
    if (problem) report(where, `${kind.toLowerCase()} name ${name} ${problem}${OPT_OUT}`, hint);
  };
  const fileStyle = style(proto.options?.features, proto.edition >= Edition.EDITION_2026 ? 2 : 1);
  if (fileStyle >= 1 && proto.package !== '')
    check(
      'Package',
      proto.package,
      lowerSnakeCase(proto.package),
      file.positions.get(proto)?.package,
      'write the package in lower_snake_case, e.g. acme.tasks.v1',
    );

  const enumType = (e: EnumDescriptorProto, inherited: number) => {
    const s = style(e.options?.features, inherited);
    if (s >= 1) check('Enum', e.name, titleCase(e.name), at(e), 'write enum names in TitleCase');
    for (const value of e.value) {
      if (style(value.options?.features, s) >= 1)
        check('Enum value', value.name, upperSnakeCase(value.name), at(value), 'write enum values in UPPER_SNAKE_CASE');
    }
  };
  const message = (m: DescriptorProto, inherited: number) => {
    const s = style(m.options?.features, inherited);
    if (s >= 1) check('Message', m.name, titleCase(m.name), at(m), 'write message names in TitleCase');
    // A oneof's fields inherit its features.
    const oneofStyles = m.oneofDecl.map((oneof) => style(oneof.options?.features, s));
    for (const field of [...m.field, ...m.extension]) {
      const parent = isFieldSet(field, FieldDescriptorProtoSchema.field.oneofIndex) ? (oneofStyles[field.oneofIndex] ?? s) : s;
      const fs = style(field.options?.features, parent);
      if (fs >= 1) check('Field', field.name, lowerSnakeCase(field.name), at(field), 'write field names in lower_snake_case');
      const clash = fs >= 2 && field.extendee === '' ? collision(field.name, m) : undefined;
      if (clash) report(at(field), `field name ${field.name} ${clash}${COLLISIONS_OPT_OUT}`, 'rename the field');
    }
    m.oneofDecl.forEach((oneof, i) => {
      const os = oneofStyles[i]!;
      if (os >= 1) check('Oneof', oneof.name, lowerSnakeCase(oneof.name), at(oneof), 'write oneof names in lower_snake_case');
      const clash = os >= 2 ? collision(oneof.name, m) : undefined;
      if (clash) report(at(oneof), `oneof name ${oneof.name} ${clash}${COLLISIONS_OPT_OUT}`, 'rename the oneof');
    });
    m.nestedType.forEach((n) => message(n, s));
    m.enumType.forEach((e) => enumType(e, s));
  };
  proto.messageType.forEach((m) => message(m, fileStyle));
  proto.enumType.forEach((e) => enumType(e, fileStyle));
  for (const field of proto.extension) {
    if (style(field.options?.features, fileStyle) >= 1)
      check('Field', field.name, lowerSnakeCase(field.name), at(field), 'write field names in lower_snake_case');
  }
  for (const service of proto.service) {
    const s = style(service.options?.features, fileStyle);
    if (s >= 1) check('Service', service.name, titleCase(service.name), at(service), 'write service names in TitleCase');
    for (const method of service.method) {
      if (style(method.options?.features, s) >= 1)
        check('Method', method.name, titleCase(method.name), at(method), 'write method names in TitleCase');
    }
  }
}
