/**
 * Checks on single values: `type`, `const`/`enum`, and the string and number keywords. Each is a
 * condition that is true when the check fails, so it can end in `return false` or in an error.
 */
import type { JsonSchema, JsonType, SchemaObject } from '../../schema/json-schema.js';
import { isBinarySchema } from '../../schema/binary.js';
import { jsonLiteral } from '../../builder/names.js';
import { operand, orList, shortJson, type Scope } from './code.js';
import { ValidatorSchemaError } from './refs.js';
import { multipleOfProblem } from '../../schema/pattern-rules.js';

/**
 * What the scalar checks need of the validator module they are emitted into (a `ValidatorModule`,
 * which imports this file's `FORMAT_CHECKS`): runtime helpers, module-level constants, the options.
 */
export interface CheckModule {
  readonly options: { readonly formats: 'assert' | 'ignore' };
  /** Marks a runtime helper as used and returns its name. */
  use(helper: string): string;
  /** A module-level constant built once from `init`, shared by every use with the same `key`. */
  constant(key: string, pointer: string[], suffix: string, init: string): string;
  /** Whether `text` matches `pattern` (a scan or a regular expression, built once). */
  matches(pattern: string, pointer: string[], text: string): string;
}

/** `format` values that are checked, and the runtime function that checks each. */
export const FORMAT_CHECKS: Record<string, string> = {
  'date-time': 'validDateTime',
  date: 'validDate',
  time: 'validTime',
  email: 'validEmail',
  uuid: 'validUuid',
  uri: 'validUri',
  'uri-reference': 'validUriReference',
  ipv4: 'validIpv4',
  ipv6: 'validIpv6',
  hostname: 'validHostname',
};

export interface Check {
  /** Expression that is true when the value fails. */
  failed: string;
  /** Expression that is true when the value passes (for boolean contexts); `!(failed)` if absent. */
  passed?: string;
  keyword: string;
  message: string;
  /** A length bound: the other checks of the value run only when it passes (see `bounded`). */
  bound?: boolean;
}

/** Keywords that only apply to one kind of value; the rest of the schema applies to all. */
export type Group = 'string' | 'number' | 'object' | 'array';

export const GROUP_KEYWORDS: Record<Group, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
  ],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
};

const JSON_TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

export function has(schema: SchemaObject, keyword: string): boolean {
  return Object.prototype.hasOwnProperty.call(schema, keyword);
}

/**
 * A JSON type, or `blob`: a binary string (`format: binary`, see binary.ts), which a request
 * carries as a `Blob` (a multipart file part) and the type emitter types as one.
 */
export type CheckType = JsonType | 'blob';

/** The types `schema` admits; a binary string's `string` is `blob` (so is no `type` at all). */
export function typeList(schema: SchemaObject, pointer: string[]): CheckType[] | undefined {
  if (isBinarySchema(schema)) {
    if (schema.type === undefined) return ['blob'];
    return (jsonTypes(schema, pointer) as CheckType[]).map((type) => (type === 'string' ? 'blob' : type));
  }
  return jsonTypes(schema, pointer);
}

function jsonTypes(schema: SchemaObject, pointer: string[]): JsonType[] | undefined {
  if (schema.type === undefined) return undefined;
  const list: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const type of list) {
    if (typeof type !== 'string' || !JSON_TYPES.has(type)) {
      throw new ValidatorSchemaError(`unknown type ${JSON.stringify(type)} at /${pointer.join('/')}`);
    }
  }
  return list as JsonType[];
}

export function groupOf(type: CheckType): Group | undefined {
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'string' || type === 'object' || type === 'array') return type;
  return undefined;
}

/** True when `value` is of `type` (and, after it, TypeScript has narrowed `value`). */
export function typeOk(type: CheckType | Group, value: string): string {
  switch (type) {
    case 'blob':
      return `${value} instanceof Blob`;
    case 'string':
    case 'boolean':
      return `typeof ${value} === "${type}"`;
    case 'number':
      return `typeof ${value} === "number" && Number.isFinite(${value})`;
    case 'integer':
      return `typeof ${value} === "number" && Number.isInteger(${value})`;
    case 'null':
      return `${value} === null`;
    case 'object':
      return `typeof ${value} === "object" && ${value} !== null && !Array.isArray(${value})`;
    case 'array':
      return `Array.isArray(${value})`;
  }
}

/** True when `value` is none of `types`. */
export function typeFailed(types: CheckType[], value: string): string {
  // `number` already admits integers.
  const effective = types.includes('number') ? types.filter((type) => type !== 'integer') : types;
  if (effective.length === 1) {
    switch (effective[0]) {
      case 'string':
      case 'boolean':
        return `typeof ${value} !== "${effective[0]}"`;
      case 'number':
        return `typeof ${value} !== "number" || !Number.isFinite(${value})`;
      case 'integer':
        return `typeof ${value} !== "number" || !Number.isInteger(${value})`;
      case 'null':
        return `${value} !== null`;
      case 'object':
        return `typeof ${value} !== "object" || ${value} === null || Array.isArray(${value})`;
      case 'array':
        return `!Array.isArray(${value})`;
      case 'blob':
        return `!(${value} instanceof Blob)`;
    }
  }
  const tests = effective.map((type) => typeOk(type, value)).map((test) => (test.includes('&&') ? `(${test})` : test));
  return `!(${tests.join(' || ')})`;
}

/** Negation of groupGuard. */
export function groupGuardFailed(group: Group, value: string): string {
  switch (group) {
    case 'number':
      return `typeof ${value} !== "number"`;
    case 'string':
      return `typeof ${value} !== "string"`;
    case 'object':
      return `(typeof ${value} !== "object" || ${value} === null || Array.isArray(${value}))`;
    case 'array':
      return `!Array.isArray(${value})`;
  }
}

/** The guard for a group's keywords when `type` does not already guarantee the kind. */
export function groupGuard(group: Group, value: string): string {
  return group === 'number' ? `typeof ${value} === "number"` : typeOk(group, value);
}

export function typeMessage(types: CheckType[]): string {
  const named = types.map((type) =>
    type === 'null' ? 'null' : type === 'blob' ? 'a file (Blob)' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`,
  );
  return `must be ${orList(named)}`;
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** `value === literal`, cast when `value` may have been narrowed to a type the literal is not. */
function equals(scope: Scope, literal: string, negate: boolean): string {
  const subject = scope.fresh ? scope.value : `(${scope.value} as unknown)`;
  return `${subject} ${negate ? '!==' : '==='} ${literal}`;
}

function valuesText(values: unknown[]): string {
  const text = values.map((value) => shortJson(value, 40)).join(', ');
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** `const` and `enum`. */
export function constEnumChecks(m: CheckModule, schema: SchemaObject, scope: Scope): Check[] {
  const checks: Check[] = [];
  if (has(schema, 'const')) {
    const value = schema.const;
    const passed = isPrimitive(value)
      ? equals(scope, jsonLiteral(value), false)
      : `${m.use('deepEqual')}(${scope.value}, ${m.constant(`const:${JSON.stringify(value)}`, scope.pointer, 'VALUE', jsonLiteral(value))})`;
    const failed = isPrimitive(value) ? equals(scope, jsonLiteral(value), true) : `!${passed}`;
    checks.push({ failed, passed, keyword: 'const', message: `must be equal to ${shortJson(value)}` });
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum;
    let failed: string;
    let passed: string;
    if (values.length === 0) {
      failed = 'true';
      passed = 'false';
    } else if (values.every(isPrimitive) && values.length <= 8) {
      failed = values.map((value) => equals(scope, jsonLiteral(value), true)).join(' && ');
      passed = values.map((value) => equals(scope, jsonLiteral(value), false)).join(' || ');
    } else if (values.every(isPrimitive)) {
      const set = m.constant(`enum:${JSON.stringify(values)}`, scope.pointer, 'VALUES', `new Set<unknown>(${jsonLiteral(values)})`);
      passed = `${set}.has(${scope.value})`;
      failed = `!${passed}`;
    } else {
      const list = m.constant(`enum-list:${JSON.stringify(values)}`, scope.pointer, 'VALUES', jsonLiteral(values));
      passed = `${m.use('deepIncludes')}(${list}, ${scope.value})`;
      failed = `!${passed}`;
    }
    checks.push({
      failed,
      passed,
      keyword: 'enum',
      message: values.length ? `must be one of ${valuesText(values)}` : 'no value is allowed (empty enum)',
    });
  }
  return checks;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function numberKeyword(schema: SchemaObject, keyword: string, pointer: string[]): number | undefined {
  const value = (schema as Record<string, unknown>)[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ValidatorSchemaError(`${keyword} at /${pointer.join('/')} must be a number`);
  }
  return value;
}

/**
 * String keywords on `text`, an expression of type string: the length bounds first (marked
 * `bound`), so that `pattern` and `format` never see a string longer than `maxLength`.
 */
export function stringChecks(m: CheckModule, schema: SchemaObject, text: string, pointer: string[]): Check[] {
  const checks: Check[] = [];
  const min = numberKeyword(schema, 'minLength', pointer);
  if (min !== undefined && min > 0) {
    // Code points are between half the UTF-16 length and the length: count them only in between.
    const failed =
      min === 1
        ? `${text}.length === 0`
        : `${text}.length < ${min} || (${text}.length < ${2 * min - 1} && ${m.use('codePointLength')}(${text}) < ${min})`;
    const passed =
      min === 1
        ? `${text}.length !== 0`
        : `${text}.length >= ${min} && (${text}.length >= ${2 * min - 1} || ${m.use('codePointLength')}(${text}) >= ${min})`;
    checks.push({ failed, passed, keyword: 'minLength', message: `must have at least ${plural(min, 'character')}`, bound: true });
  }
  const max = numberKeyword(schema, 'maxLength', pointer);
  if (max !== undefined) {
    const failed = `${text}.length > ${max} && ${m.use('codePointLength')}(${text}) > ${max}`;
    const passed = `${text}.length <= ${max} || ${m.use('codePointLength')}(${text}) <= ${max}`;
    checks.push({ failed, passed, keyword: 'maxLength', message: `must have at most ${plural(max, 'character')}`, bound: true });
  }
  if (typeof schema.pattern === 'string') {
    const matches = m.matches(schema.pattern, pointer, text);
    checks.push({
      failed: `!${matches}`,
      passed: matches,
      keyword: 'pattern',
      message: `must match the pattern ${JSON.stringify(schema.pattern)}`,
    });
  }
  const format = typeof schema.format === 'string' ? FORMAT_CHECKS[schema.format] : undefined;
  if (format && m.options.formats === 'assert') {
    checks.push({
      failed: `!${m.use(format)}(${text})`,
      passed: `${m.use(format)}(${text})`,
      keyword: 'format',
      message: `must be a valid ${schema.format}`,
    });
  }
  return checks;
}

/** Number keywords on `num`, an expression of type number. */
export function numberChecks(m: CheckModule, schema: SchemaObject, num: string, pointer: string[]): Check[] {
  const checks: Check[] = [];
  const bounds: Array<[string, string, string]> = [
    ['minimum', '<', '>='],
    ['maximum', '>', '<='],
    ['exclusiveMinimum', '<=', '>'],
    ['exclusiveMaximum', '>=', '<'],
  ];
  for (const [keyword, failing, wanted] of bounds) {
    const limit = numberKeyword(schema, keyword, pointer);
    if (limit !== undefined) {
      checks.push({
        failed: `${num} ${failing} ${limit}`,
        passed: `${num} ${wanted} ${limit}`,
        keyword,
        message: `must be ${wanted} ${limit}`,
      });
    }
  }
  const divisor = numberKeyword(schema, 'multipleOf', pointer);
  if (divisor !== undefined) {
    const problem = multipleOfProblem(divisor);
    if (problem) throw new ValidatorSchemaError(`multipleOf at /${pointer.join('/')} ${problem}`);
    // Whole divisors divide exactly with %; fractional ones need the rounding-tolerant check.
    const passed = Number.isInteger(divisor) ? `${num} % ${divisor} === 0` : `${m.use('divisibleBy')}(${num}, ${divisor})`;
    const failed = Number.isInteger(divisor) ? `${num} % ${divisor} !== 0` : `!${passed}`;
    checks.push({ failed, passed, keyword: 'multipleOf', message: `must be a multiple of ${divisor}` });
  }
  return checks;
}

/** Keywords the emitter compiles. */
const IMPLEMENTED = new Set([
  '$ref',
  'type',
  'const',
  'enum',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  ...Object.values(GROUP_KEYWORDS).flat(),
  'minContains',
  'maxContains',
]);

/** Keywords that change validation but are not compiled (reported through `onUnsupported`). */
export const UNSUPPORTED = [
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependencies',
  'additionalItems',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
];

/** Whether a keyword affects validation (as opposed to an annotation such as `title`). */
export function validation(keyword: string): boolean {
  return IMPLEMENTED.has(keyword) || UNSUPPORTED.includes(keyword);
}

/** A schema that accepts everything (`true`, `{}`, only annotations). */
export function trivial(schema: JsonSchema): boolean {
  return schema === true || (typeof schema === 'object' && schema !== null && !Object.keys(schema).some(validation));
}

/** Keywords a boolean expression can cover without statements. */
const SCALAR_KEYWORDS = new Set(['type', 'const', 'enum', ...GROUP_KEYWORDS.string, ...GROUP_KEYWORDS.number]);

function allPassed(checks: Check[]): string {
  const parts = checks.map((check) => check.passed ?? `!(${check.failed})`);
  return parts.length > 1 ? parts.map(operand).join(' && ') : parts.join('');
}

/**
 * The schema as one boolean expression on `scope.value`, when it only has scalar keywords (the
 * common `{ type: "null" }`, `{ const: "a" }`, `{ type: "string", maxLength: 3 }` branches of
 * anyOf and oneOf); undefined otherwise.
 */
export function scalarExpression(m: CheckModule, schema: JsonSchema, scope: Scope): string | undefined {
  if (typeof schema === 'boolean') return String(schema);
  const keywords = Object.keys(schema).filter(validation);
  if (!keywords.every((keyword) => SCALAR_KEYWORDS.has(keyword))) return undefined;
  const value = scope.value;
  const parts: string[] = [];
  const narrowed = { ...scope, fresh: false };
  for (const check of constEnumChecks(m, schema, narrowed)) parts.push(check.passed ?? `!(${check.failed})`);
  const types = typeList(schema, scope.pointer);
  if (types) parts.push(types.length === 1 ? typeOk(types[0], value) : `!(${typeFailed(types, value)})`);
  const groups: Array<[Group, Check[]]> = [
    ['string', stringChecks(m, schema, `(${value} as string)`, scope.pointer)],
    ['number', numberChecks(m, schema, `(${value} as number)`, scope.pointer)],
  ];
  for (const [group, checks] of groups) {
    if (!checks.length) continue;
    if (types && !types.some((type) => groupOf(type) === group)) continue;
    const only = types !== undefined && types.every((type) => groupOf(type) === group);
    parts.push(only ? allPassed(checks) : `(${groupGuardFailed(group, value)} || ${operand(allPassed(checks))})`);
  }
  if (parts.length === 0) return 'true';
  return parts.length > 1 ? parts.map(operand).join(' && ') : parts[0];
}
