/**
 * The resolver half of `types.ts`: `Resolvers<Context>`, the map a server implements, with one
 * `XResolvers<Context>` per object, interface and union type.
 *
 * - Root operation types are required, and so is each of their fields: a query nobody answers is
 *   a bug the compiler should report. Other object types and all their fields are optional, since
 *   graphql-js's default resolver reads the parent's property of the field's name.
 * - A field resolver gets the parent (the object's TS type; `unknown` for root types), the field's
 *   arguments, the context and `GraphQLResolveInfo`, and returns the field's TS type or a promise
 *   of it.
 * - A subscription field is `{ subscribe, resolve? }`; without `resolve` each event must be
 *   `{ [field]: value }`, because that is what graphql-js's default resolver reads.
 * - Interfaces and unions have `__resolveType`, returning one of their object types' names; object
 *   types that belong to one may have `__isTypeOf` instead.
 * - Custom scalars are `GraphQLScalarType`s. Only types are imported from `graphql`.
 * - With config `mappers`, results and parents of mapped types (and of types that reach them) are
 *   their resolver forms (`resolver-shapes.ts`). The field resolvers of a mapped type stay
 *   optional: whether the mapper has a property of the field's name and type is something only the
 *   compiler of the user's code could tell, so a missing one shows up as a wrong default, not here.
 */
import {
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLUnionType,
} from 'graphql';
import { typeSymbol, type FileBuilder } from '../core/builder/file.js';
import { jsDoc, propertyKey, stringLiteral } from '../core/builder/names.js';
import type { ResolvedMappers } from './mappers.js';
import { declaredTypes, typesNames, type TypesNames } from './names.js';
import { ResolverShapes } from './resolver-shapes.js';
import type { ResolverHelpersContext, TypesContext } from './template-context.js';
import type { TypeOf } from './type-of.js';

/** A generic type's arguments, on one line when short, else one per line. */
function generic(name: string, args: string[], indent: string): string {
  const line = `${name}<${args.join(', ')}>`;
  if (line.length + indent.length <= 96 && !line.includes('\n')) return line;
  return `${name}<\n${args.map((arg) => `${indent}  ${arg.replace(/\n/g, `\n${indent}  `)}`).join(',\n')}\n${indent}>`;
}

/** `"A" | "B"`, or one member per line with a leading `|` when long. */
function literalUnion(values: string[], indent: string): string {
  if (values.length === 0) return 'never';
  const literals = values.map(stringLiteral);
  const line = literals.join(' | ');
  if (line.length + indent.length <= 80) return line;
  return literals.map((literal, index) => `${index ? '\n' : ''}| ${literal}`).join('');
}

class ResolverEmitter {
  readonly used = { resolver: false, subscription: false, typeResolver: false, isTypeOf: false, scalar: false };
  private readonly names: TypesNames;
  private readonly roots: GraphQLObjectType[];
  /** Object types that are a possible type of an interface or union: graphql-js may ask their `__isTypeOf`. */
  private readonly abstractMembers = new Set<string>();

  private readonly shapes: ResolverShapes;

  constructor(
    private readonly schema: GraphQLSchema,
    typeOf: TypeOf,
    mappers: ResolvedMappers,
    private readonly file: FileBuilder,
  ) {
    this.names = typesNames(schema);
    this.shapes = new ResolverShapes(schema, mappers, typeOf);
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
    this.roots = roots.filter((root, index): root is GraphQLObjectType => root != null && roots.indexOf(root) === index);
    for (const type of declaredTypes(schema)) {
      if (isInterfaceType(type) || isUnionType(type))
        for (const member of schema.getPossibleTypes(type)) this.abstractMembers.add(member.name);
    }
  }

  /** The resolver types' parts; imports the `graphql` types they name. */
  emit(): ResolverTypes {
    const { names } = this;
    const context = names.context;
    const rootNames = new Set(this.roots.map((root) => root.name));
    const others = declaredTypes(this.schema).filter((type) => !rootNames.has(type.name));
    const members: string[] = [];
    const maps: string[] = [];
    for (const root of this.roots) {
      members.push(`  ${propertyKey(root.name)}: ${names.typeResolvers(root.name)}<${context}>;`);
      maps.push(this.objectResolvers(root, true));
    }
    for (const type of others) {
      if (isScalarType(type)) {
        this.used.scalar = true;
        members.push(`  ${propertyKey(type.name)}?: ${names.scalarType};`);
        continue;
      }
      if (isObjectType(type)) maps.push(this.objectResolvers(type, false));
      else if (isInterfaceType(type) || isUnionType(type)) maps.push(this.abstractResolvers(type));
      else continue; // enums and input types have no resolvers
      members.push(`  ${propertyKey(type.name)}?: ${names.typeResolvers(type.name)}<${context}>;`);
    }
    const resolversTypes = [this.shapes.declaration(), this.subscriptionPayloads()].filter(Boolean).join('\n\n');
    this.imports();
    return {
      helpers: this.helpers(),
      resolversTypes,
      resolvers: { name: names.resolvers, context, members },
      typeResolvers: maps.join('\n\n'),
    };
  }

  private objectResolvers(type: GraphQLObjectType, root: boolean): string {
    const { names } = this;
    const subscription = root && this.schema.getSubscriptionType() === type;
    const lines = Object.values(type.getFields()).map((field) => this.fieldResolver(type, field, root, subscription));
    if (!root && this.abstractMembers.has(type.name)) {
      this.used.isTypeOf = true;
      const { context, resolveInfo, maybePromise } = names;
      lines.unshift(`  __isTypeOf?: (value: unknown, context: ${context}, info: ${resolveInfo}) => ${maybePromise}<boolean>;`);
    }
    const doc = subscription
      ? `Resolvers of \`${type.name}\`: per field, \`subscribe\` yields events, \`resolve\` (optional) maps each.`
      : root
        ? `Resolvers of \`${type.name}\`: every field needs one.`
        : `Resolvers of \`${type.name}\`, each optional: without one, a field reads the parent's property.`;
    return `${jsDoc([doc])}export interface ${names.typeResolvers(type.name)}<${names.context} = unknown>${body(lines)}`;
  }

  private fieldResolver(type: GraphQLObjectType, field: GraphQLField<unknown, unknown>, root: boolean, subscription: boolean): string {
    const { names } = this;
    const key = propertyKey(field.name);
    const result = this.shapes.result(field.type, '  ');
    const args = names.args(type.name, field.name);
    const head = `  ${key}${root ? '' : '?'}: `;
    if (subscription) {
      this.used.subscription = true;
      const payload = `{ ${key}: ${result} }`;
      return `${head}${generic(names.subscriptionResolver, [result, payload, names.context, ...(args ? [args] : [])], '  ')};`;
    }
    this.used.resolver = true;
    const parent = root ? 'unknown' : this.shapes.parent(type);
    return `${head}${generic(names.resolver, [result, parent, names.context, ...(args ? [args] : [])], '  ')};`;
  }

  /**
   * `export interface SubscriptionPayloads { taskChanged: ...; }`: per `Subscription` field, the value
   * its events carry (the resolver's result type), which the generated pub/sub publishes; `''` without one.
   */
  private subscriptionPayloads(): string {
    const type = this.schema.getSubscriptionType();
    const fields = type ? Object.values(type.getFields()) : [];
    if (fields.length === 0) return '';
    const lines = fields.map((field) => `  ${propertyKey(field.name)}: ${this.shapes.result(field.type, '  ')};`);
    const doc = jsDoc(['What the events of each `Subscription` field carry (`pubsub.ts` publishes them).']);
    return `${doc}export interface ${this.names.subscriptionPayloads}${body(lines)}`;
  }

  private abstractResolvers(type: GraphQLInterfaceType | GraphQLUnionType): string {
    const { names } = this;
    this.used.typeResolver = true;
    const possible = this.schema
      .getPossibleTypes(type)
      .map((object) => object.name)
      .sort();
    const resolveType = generic(names.typeResolver, [this.shapes.parent(type), literalUnion(possible, '    '), names.context], '  ');
    const doc = `Resolvers of \`${type.name}\`: \`__resolveType\` names a value's object type (default: its \`__typename\`).`;
    return `${jsDoc([doc])}export interface ${names.typeResolvers(type.name)}<${names.context} = unknown>${body([`  __resolveType?: ${resolveType};`])}`;
  }

  /** Whether anything returns a `MaybePromise` (and takes `GraphQLResolveInfo`). */
  private async(): boolean {
    const { used } = this;
    return used.resolver || used.subscription || used.typeResolver || used.isTypeOf;
  }

  /** Imports the `graphql` types the declarations name, under the names `typesNames` chose. */
  private imports(): void {
    const { names, used, file } = this;
    if (this.async()) file.use(typeSymbol('GraphQLResolveInfo', 'graphql'), names.resolveInfo);
    if (used.scalar) file.use(typeSymbol('GraphQLScalarType', 'graphql'), names.scalarType);
  }

  /** The helper types the declarations use, by their names in `types.ts`. */
  helpers(): ResolverHelpersContext {
    const { names, used } = this;
    return {
      maybePromise: this.async() ? names.maybePromise : undefined,
      resolver: used.resolver ? names.resolver : undefined,
      subscriptionResolver: used.subscription ? names.subscriptionResolver : undefined,
      typeResolver: used.typeResolver ? names.typeResolver : undefined,
      resolveInfo: names.resolveInfo,
    };
  }
}

function body(lines: string[]): string {
  return lines.length ? ` {\n${lines.join('\n')}\n}` : ' {}';
}

/** What `types.ts`'s template declares the resolver types with (see `TypesContext`). */
export type ResolverTypes = Pick<TypesContext, 'helpers' | 'resolversTypes' | 'resolvers' | 'typeResolvers'>;

/** The resolver declarations of `types.ts`, importing into `file` the `graphql` types they name. */
export function resolverTypes(schema: GraphQLSchema, typeOf: TypeOf, mappers: ResolvedMappers, file: FileBuilder): ResolverTypes {
  return new ResolverEmitter(schema, typeOf, mappers, file).emit();
}
