/**
 * What resolvers return and receive as parent, once config `mappers` replaces some types: a mapped
 * type is its mapper (`Task` → `TaskRecord`); a type that reaches a mapped type through its fields
 * is the schema type with those fields in their resolver form (`TaskEdge` → `Omit<TaskEdge, "node">
 * & { node: TaskRecord }`), declared once as an entry of `ResolversTypes`; an interface or union
 * that reaches one is the union of its members' resolver forms, because a resolver returns one of
 * the object types, never the interface itself. Every other type is the schema type, so a schema
 * without mappers gets exactly the types it got before.
 *
 * Root operation types are never mapped nor reshaped: their resolvers get no parent value.
 */
import {
  GraphQLNonNull,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLUnionType,
} from 'graphql';
import { arrayOf, atom, NULL, union, type TypeText } from '../core/emit/types/text.js';
import { jsDoc, propertyKey, stringLiteral } from '../core/builder/names.js';
import { declaredTypes, typeName, typesNames } from './names.js';
import type { ResolvedMappers } from './mappers.js';
import { typeSchema } from './schema-types.js';
import type { TypeOf } from './type-of.js';

type Composite = GraphQLObjectType | GraphQLInterfaceType | GraphQLUnionType;

const MAX_LINE = 100;

function isComposite(type: GraphQLNamedType): type is Composite {
  return isObjectType(type) || isInterfaceType(type) || isUnionType(type);
}

function namedTypeOf(type: GraphQLOutputType): GraphQLNamedType {
  let inner: GraphQLOutputType = type;
  while (isNonNullType(inner) || isListType(inner)) inner = inner.ofType;
  return inner;
}

export class ResolverShapes {
  /** GraphQL names of the types whose resolver form differs from the schema type. */
  private readonly affected = new Set<string>();
  private readonly name: string;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly mappers: ResolvedMappers,
    private readonly typeOf: TypeOf,
  ) {
    this.name = typesNames(schema).resolversTypes;
    this.findAffected();
  }

  /**
   * Marks mapped types, then everything that reaches them, walking "is used by" edges once from
   * each mapped type: a field's type is used by the field's owner, a member by its union, an
   * implementation by its interface.
   */
  private findAffected(): void {
    const roots = new Set(
      [this.schema.getQueryType(), this.schema.getMutationType(), this.schema.getSubscriptionType()]
        .filter((root) => root != null)
        .map((root) => root.name),
    );
    const usedBy = new Map<string, Set<string>>();
    const edge = (from: string, to: string) => {
      if (roots.has(to)) return;
      let users = usedBy.get(from);
      if (!users) usedBy.set(from, (users = new Set()));
      users.add(to);
    };
    const pending: string[] = [];
    for (const type of declaredTypes(this.schema)) {
      if (!isComposite(type) || roots.has(type.name)) continue;
      if (this.mappers.typeOf(type.name) !== undefined) pending.push(type.name);
      if (isUnionType(type)) for (const member of type.getTypes()) edge(member.name, type.name);
      else for (const field of Object.values(type.getFields())) edge(namedTypeOf(field.type).name, type.name);
      if (isInterfaceType(type)) for (const object of this.schema.getPossibleTypes(type)) edge(object.name, type.name);
    }
    for (const name of pending) this.affected.add(name);
    while (pending.length) {
      for (const user of usedBy.get(pending.pop()!) ?? []) {
        if (this.affected.has(user)) continue;
        this.affected.add(user);
        pending.push(user);
      }
    }
  }

  /** The resolver form of a named type: the mapper, a `ResolversTypes` entry, or the schema type. */
  private named(type: GraphQLNamedType): TypeText {
    const mapper = this.mappers.typeOf(type.name);
    // An in-scope mapper may be an expression such as `A | B`; parentheses keep it whole inside `[]`.
    if (mapper !== undefined) return atom(/[|&]/.test(mapper) ? `(${mapper})` : mapper, { refs: true });
    if (this.affected.has(type.name)) return atom(`${this.name}[${stringLiteral(type.name)}]`, { refs: true });
    return atom(this.typeOf(typeSchema(new GraphQLNonNull(type))), { refs: true });
  }

  /** `[Task!]` and the like in resolver form, lists and nullability as the schema says. */
  private used(type: GraphQLOutputType): TypeText {
    if (isNonNullType(type)) return this.usedNonNull(type.ofType);
    return union([this.usedNonNull(type), NULL]);
  }

  private usedNonNull(type: GraphQLOutputType): TypeText {
    return isListType(type) ? arrayOf(this.used(type.ofType)) : this.named(type as GraphQLNamedType);
  }

  /** What a resolver of a field of this type returns. */
  result(type: GraphQLOutputType, indent: string): string {
    if (!this.affected.has(namedTypeOf(type).name)) return this.typeOf(typeSchema(type), indent);
    return this.used(type).text;
  }

  /** What the field resolvers of an object type receive as parent (and an abstract type's type resolver as value). */
  parent(type: Composite): string {
    return this.named(type).text;
  }

  /** `export interface ResolversTypes { ... }`, or `''` when nothing is mapped. */
  declaration(): string {
    if (this.affected.size === 0) return '';
    const entries: string[] = [];
    for (const type of declaredTypes(this.schema)) {
      if (!this.affected.has(type.name) || !isComposite(type)) continue;
      entries.push(this.entry(type));
    }
    const doc = jsDoc([
      "What resolvers return, and get as parent, where that is not the schema type: a mapped type's\n" +
        'mapper (config `mappers`); for a type that reaches one through its fields, the schema type with\n' +
        "those fields in resolver form; for an interface or union, one of its object types' forms.",
    ]);
    return `${doc}export interface ${this.name} {\n${entries.join('\n')}\n}`;
  }

  private entry(type: Composite): string {
    const head = `  ${propertyKey(type.name)}: `;
    const mapper = this.mappers.typeOf(type.name);
    if (mapper !== undefined) return `${head}${mapper};`;
    // A union's members in the schema's order; an interface's object types by name, as `__resolveType` lists them.
    const members = isUnionType(type)
      ? type.getTypes()
      : isInterfaceType(type)
        ? [...this.schema.getPossibleTypes(type)].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        : [];
    if (members.length) {
      const forms = [...new Set(members.map((member) => this.named(member).text))];
      const line = `${head}${forms.join(' | ')};`;
      return line.length <= MAX_LINE ? line : `${head.trimEnd()}\n${forms.map((form) => `    | ${form}`).join('\n')};`;
    }
    return `${head}${this.reshaped(type as GraphQLObjectType | GraphQLInterfaceType)};`;
  }

  /** `Omit<TaskEdge, "node"> & { node: TaskRecord }`: the fields that reach a mapped type, replaced. */
  private reshaped(type: GraphQLObjectType | GraphQLInterfaceType): string {
    const fields = Object.values(type.getFields()).filter((field) => this.affected.has(namedTypeOf(field.type).name));
    const keys = fields.map((field) => stringLiteral(field.name));
    const members = fields.map((field) => this.member(field));
    const line = `Omit<${typeName(type.name)}, ${keys.join(' | ')}> & { ${members.join(' ')} }`;
    if (line.length + 4 + type.name.length <= MAX_LINE) return line.replace(/;(?= \})/, '');
    const omitted =
      keys.join(' | ').length + typeName(type.name).length <= 80
        ? `Omit<${typeName(type.name)}, ${keys.join(' | ')}>`
        : `Omit<\n    ${typeName(type.name)},\n${keys.map((key) => `    | ${key}`).join('\n')}\n  >`;
    return `${omitted} & {\n${members.map((member) => `    ${member}`).join('\n')}\n  }`;
  }

  private member(field: GraphQLField<unknown, unknown>): string {
    const optional = isNonNullType(field.type) ? '' : '?';
    return `${propertyKey(field.name)}${optional}: ${this.used(field.type).text};`;
  }
}
