/**
 * GraphQL types lowered into the shared model: every named type of a schema becomes a JSON Schema
 * 2020-12 `NamedSchema` (references `#/$defs/<TS name>`), so the type emitter every style shares
 * prints GraphQL types the way it prints REST ones.
 *
 * - Object, interface and input types are objects. Non-null fields are required; nullable ones are
 *   optional and may be `null`. Object types also get an optional `__typename` constant.
 * - Input fields are what a client sends: one with a default value may be left out. Arguments are
 *   what a resolver receives: graphql-js fills in defaults, so an argument with one is always there.
 * - `@oneOf` input types are a union of one-field objects.
 * - Enums are enums, unions are `anyOf` of references, lists are arrays.
 * - ID and String are strings, Int an integer, Float a number, Boolean a boolean. A custom scalar is a
 *   named alias: from `config.scalars`, else by its well-known name (`DateTime` is a string), else
 *   `unknown`.
 * - Descriptions, `@deprecated` reasons and default values become JSDoc; an enum value's reach the
 *   enum object's member through `x-enum-descriptions`.
 */
import {
  GraphQLList,
  GraphQLNonNull,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';
import type { JsonSchema, NamedSchema, SchemaObject } from '../core/schema/json-schema.js';
import type { ScalarMapping } from './config.js';
import { declaredTypes, typeName } from './names.js';

const BUILT_IN: Record<string, SchemaObject> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
};

/** Custom scalars whose name says what they are, by lower-cased name. */
const WELL_KNOWN_SCALARS: Record<string, SchemaObject> = {
  datetime: { type: 'string', format: 'date-time' },
  date: { type: 'string', format: 'date' },
  time: { type: 'string', format: 'time' },
  uri: { type: 'string', format: 'uri' },
  url: { type: 'string', format: 'uri' },
  uuid: { type: 'string', format: 'uuid' },
  email: { type: 'string', format: 'email' },
  emailaddress: { type: 'string', format: 'email' },
  json: {},
  jsonobject: { type: 'object' },
};

const SHORT_MAPPINGS: Record<string, SchemaObject> = {
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  unknown: {},
};

const NULL: SchemaObject = { type: 'null' };

/** What a custom scalar is: the configured mapping, else the well-known one, else anything. */
export function scalarSchema(name: string, scalars: Record<string, ScalarMapping> = {}): JsonSchema {
  const configured = Object.prototype.hasOwnProperty.call(scalars, name) ? scalars[name] : undefined;
  if (typeof configured === 'string') return { ...(SHORT_MAPPINGS[configured] ?? {}) };
  if (typeof configured === 'boolean') return configured;
  if (configured !== undefined && configured !== null && typeof configured === 'object') return { ...configured };
  const known = Object.prototype.hasOwnProperty.call(WELL_KNOWN_SCALARS, name.toLowerCase())
    ? WELL_KNOWN_SCALARS[name.toLowerCase()]
    : undefined;
  return { ...(known ?? {}) };
}

/** A reference to a named GraphQL type, or the inline schema of a built-in scalar. */
function namedRef(type: GraphQLNamedType): SchemaObject {
  if (isSpecifiedScalarType(type)) return { ...BUILT_IN[type.name] };
  return { $ref: `#/$defs/${typeName(type.name)}` };
}

/** A type as it is used (`[Task!]!`, `User`): wrapped in arrays and `null` as the wrappers say. */
export function typeSchema(type: GraphQLType): SchemaObject {
  const nonNull = isNonNullType(type);
  const inner = nonNull ? (type as GraphQLNonNull<GraphQLType>).ofType : type;
  const schema: SchemaObject = isListType(inner)
    ? { type: 'array', items: typeSchema((inner as GraphQLList<GraphQLType>).ofType) }
    : namedRef(inner as GraphQLNamedType);
  return nonNull ? schema : nullable(schema);
}

function nullable(schema: SchemaObject): SchemaObject {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, NULL] };
}

interface Annotations {
  description?: string | null;
  deprecationReason?: string | null;
  defaultValue?: unknown;
}

/** Description and `@deprecated` reason as one text (JSDoc tags are lines of the description). */
function describe({ description, deprecationReason }: Annotations): string | undefined {
  const parts = [description?.trim(), deprecationReason != null ? `@deprecated ${deprecationReason}`.trim() : undefined];
  const text = parts.filter((part) => part).join('\n\n');
  return text || undefined;
}

function annotate(schema: SchemaObject, annotations: Annotations): SchemaObject {
  const description = describe(annotations);
  const result: SchemaObject = description ? { ...schema, description } : schema;
  if (annotations.defaultValue !== undefined) result.default = annotations.defaultValue;
  return result;
}

function outputFields(fields: Record<string, GraphQLField<unknown, unknown>>): {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  const properties: Record<string, JsonSchema> = Object.create(null);
  const required: string[] = [];
  for (const field of Object.values(fields)) {
    properties[field.name] = annotate(typeSchema(field.type), field);
    if (isNonNullType(field.type)) required.push(field.name);
  }
  return { properties, required };
}

/** A field's or an input type's members: `present` says which ones are always there. */
function inputFields(
  fields: ReadonlyArray<GraphQLArgument | GraphQLInputField>,
  present: (field: GraphQLArgument | GraphQLInputField) => boolean,
): SchemaObject {
  const properties: Record<string, JsonSchema> = Object.create(null);
  const required: string[] = [];
  for (const field of fields) {
    properties[field.name] = annotate(typeSchema(field.type), field);
    if (present(field)) required.push(field.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The arguments of a field as a resolver receives them: non-null ones and ones with a default are always there. */
export function argsSchema(field: GraphQLField<unknown, unknown>): SchemaObject {
  return inputFields(field.args, (arg) => isNonNullType(arg.type) || arg.defaultValue !== undefined);
}

/** The JSON Schema of one named type. */
function namedSchema(type: GraphQLNamedType, scalars: Record<string, ScalarMapping> | undefined): JsonSchema {
  const doc = { description: type.description };
  if (isScalarType(type)) {
    const schema = scalarSchema(type.name, scalars);
    return typeof schema === 'object' && type.description ? { ...schema, description: type.description.trim() } : schema;
  }
  if (isEnumType(type)) {
    const values = type.getValues();
    const schema: SchemaObject = { type: 'string', enum: values.map((value) => value.name) };
    // Each value's description and `@deprecated` reason, for the JSDoc of the enum object's members.
    const descriptions = values.map((value) => describe(value) ?? '');
    if (descriptions.some((text) => text)) Object.assign(schema, { 'x-enum-descriptions': descriptions });
    return annotate(schema, doc);
  }
  if (isUnionType(type)) {
    return annotate({ anyOf: type.getTypes().map(namedRef) }, doc);
  }
  if (isObjectType(type) || isInterfaceType(type)) {
    const { properties, required } = outputFields(type.getFields());
    const typename: Record<string, JsonSchema> = isObjectType(type) ? { __typename: { const: type.name } } : {};
    return annotate({ type: 'object', properties: Object.assign(Object.create(null), typename, properties), required }, doc);
  }
  if (isInputObjectType(type)) {
    // A client may leave out a field with a default value.
    const fields = Object.values(type.getFields());
    if (type.isOneOf) {
      return annotate(
        {
          anyOf: fields.map((field) =>
            inputFields([{ ...field, type: isNonNullType(field.type) ? field.type : new GraphQLNonNull(field.type) }], () => true),
          ),
        },
        doc,
      );
    }
    return annotate(
      inputFields(fields, (field) => isNonNullType(field.type) && field.defaultValue === undefined),
      doc,
    );
  }
  return {};
}

/** Every type the schema declares, as named schemas (TS names), sorted by GraphQL name. */
export function schemaTypes(schema: GraphQLSchema, scalars?: Record<string, ScalarMapping>): NamedSchema[] {
  return declaredTypes(schema).map((type) => ({ name: typeName(type.name), schema: namedSchema(type, scalars), origin: 'component' }));
}
