/**
 * Mock resolvers for a GraphQL schema (`codegen mock`): a resolver for every field of every object
 * type, answering from the schema alone, deterministic by seed, to hand to the generated
 * `createGraphQLServer` in place of the user's resolvers — so limits, `@auth`, persisted
 * operations and error codes stay the generated server's own.
 *
 * Values are computed when a field is resolved, from the seed and the field's place (parent key,
 * field name, arguments): nothing is stored, recursive types cost nothing until selected, and the
 * same place answers the same value on every request. Relay connections page: a connection holds
 * `connectionSize` items, `first`/`after`/`last`/`before` select from them, and an item's key is
 * its index in the connection, so the second page continues the first.
 */
import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { hashKey } from '../core/mock/seeded-random.js';
import { sampleNamedScalar, sampleString } from '../core/mock/seeded-values.js';

export interface GraphQLMockOptions {
  /** Same seed, same answers (default 1). */
  seed?: number;
  /** Items of a list field (default 3; fewer when a `first`/`limit` argument asks for fewer). */
  listLength?: number;
  /** Items a Relay connection holds in all, paged by `first`/`after` (default 5). */
  connectionSize?: number;
  /** Milliseconds between two events of a subscription (default 1000). */
  subscriptionIntervalMs?: number;
  /** Events a subscription sends before it completes (default: no end). */
  subscriptionEvents?: number;
}

type FieldResolver = (source: unknown, args: Record<string, unknown>) => unknown;

/** The resolver map `createGraphQLServer` takes: per type, per field; `__resolveType` for abstract types. */
export type GraphQLMockResolvers = Record<
  string,
  Record<string, FieldResolver | { subscribe: FieldResolver; resolve: (payload: unknown) => unknown } | ((value: unknown) => string)>
>;

/** What a mock resolver returns for an object: its type, its place, and the values its arguments fix. */
interface MockObject {
  readonly __typename: string;
  readonly key: string;
  /** Leaf values taken from the arguments that led here (`task(id: "7")` answers a task with id 7). */
  readonly fixed?: Readonly<Record<string, unknown>>;
  /** Set on a connection, its edges and its page info: the items this page holds. */
  readonly page?: Page;
  /** Set on an edge: the item's index in the connection. */
  readonly index?: number;
}

interface Page {
  readonly connectionKey: string;
  /** The connection's field and arguments: its filters (`status: DONE`) hold for every item. */
  readonly field: GraphQLField<unknown, unknown> | undefined;
  readonly args: Record<string, unknown>;
  readonly start: number;
  readonly end: number;
  readonly total: number;
}

/** The types a Relay connection type is made of, when `type` is one. */
interface ConnectionShape {
  readonly edge: GraphQLObjectType;
  readonly node: GraphQLOutputType;
  readonly pageInfo: GraphQLObjectType;
}

const PAGING_ARGUMENTS = new Set(['first', 'after', 'last', 'before']);
const LIMIT_ARGUMENTS = ['first', 'last', 'limit', 'take', 'top', 'pageSize', 'count'];

/** `cursor:<index>` in base64url: opaque to clients, checked when it comes back. */
export function encodeCursor(index: number): string {
  return Buffer.from(`cursor:${index}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^cursor:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1]) throw new GraphQLError(`Invalid cursor "${cursor}".`, { extensions: { code: 'BAD_USER_INPUT' } });
  return Number(match[1]);
}

function isMockObject(value: unknown): value is MockObject {
  return typeof value === 'object' && value !== null && typeof (value as MockObject).key === 'string';
}

/** Arguments in a stable order, for keys. */
function argumentsKey(args: Record<string, unknown>, skip?: ReadonlySet<string>): string {
  const entries = Object.entries(args)
    .filter(([name, value]) => value !== undefined && !skip?.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '' : `(${entries.map(([name, value]) => `${name}:${JSON.stringify(value)}`).join(',')})`;
}

/** The connection shape of `type`: `edges: [Edge]` with `node` and `cursor`, and `pageInfo`. */
function connectionShape(type: GraphQLObjectType): ConnectionShape | undefined {
  const fields = type.getFields();
  const edges = fields.edges ? getNullableType(fields.edges.type) : undefined;
  const pageInfo = fields.pageInfo ? getNamedType(fields.pageInfo.type) : undefined;
  if (!edges || !isListType(edges) || !isObjectType(pageInfo)) return undefined;
  const edge = getNamedType(edges.ofType);
  if (!isObjectType(edge)) return undefined;
  const edgeFields = edge.getFields();
  if (!edgeFields.node || !edgeFields.cursor) return undefined;
  return { edge, node: edgeFields.node.type, pageInfo };
}

/**
 * Resolvers answering every field of `schema` with samples: `Query` and `Mutation` fields and
 * everything under them, `Subscription` fields as a sample every `subscriptionIntervalMs`.
 */
export function graphqlMockResolvers(schema: GraphQLSchema, options: GraphQLMockOptions = {}): GraphQLMockResolvers {
  const seed = options.seed ?? 1;
  const listLength = options.listLength ?? 3;
  const connectionSize = options.connectionSize ?? 5;
  const interval = options.subscriptionIntervalMs ?? 1000;
  const connections = new Map<string, ConnectionShape | undefined>();

  const shapeOf = (type: GraphQLObjectType): ConnectionShape | undefined => {
    if (!connections.has(type.name)) connections.set(type.name, connectionShape(type));
    return connections.get(type.name);
  };

  /** The concrete type an abstract field answers at `key`; possible types sorted, so schema order does not matter. */
  const concreteType = (type: GraphQLOutputType, key: string): GraphQLObjectType => {
    const named = getNamedType(type);
    if (isObjectType(named)) return named;
    if (!isAbstractType(named)) throw new Error(`${named.name} is not an object type`);
    const possible = [...schema.getPossibleTypes(named)].sort((a, b) => (a.name < b.name ? -1 : 1));
    const chosen = possible[hashKey(seed, key) % possible.length];
    if (!chosen) throw new Error(`${named.name} has no object type to answer with`);
    return chosen;
  };

  /**
   * Leaf values the arguments of `field` fix on the object answered: scalar arguments, and the
   * fields of input-object arguments, where the object has a leaf field of that name and type.
   */
  const fixedBy = (
    objectType: GraphQLObjectType,
    field: GraphQLField<unknown, unknown> | undefined,
    args: Record<string, unknown>,
  ): Record<string, unknown> | undefined => {
    const fields = objectType.getFields();
    let fixed: Record<string, unknown> | undefined;
    const take = (name: string, typeName: string, value: unknown) => {
      const target = fields[name];
      if (value === undefined || value === null || !target || !isLeafType(getNamedType(target.type))) return;
      if (getNamedType(target.type).name !== typeName || isListType(getNullableType(target.type)) !== Array.isArray(value)) return;
      fixed ??= {};
      fixed[name] = value;
    };
    for (const argument of field?.args ?? []) {
      if (PAGING_ARGUMENTS.has(argument.name)) continue;
      const value = args[argument.name];
      const type = getNamedType(argument.type);
      if (isInputObjectType(type) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        const inputFields = type.getFields();
        for (const [name, inner] of Object.entries(value)) {
          const inputField = inputFields[name];
          if (inputField) take(name, getNamedType(inputField.type).name, inner);
        }
      } else take(argument.name, type.name, value);
    }
    return fixed;
  };

  const leaf = (type: GraphQLOutputType, fieldName: string, key: string): unknown => {
    const named = getNamedType(type);
    const hash = hashKey(seed, key);
    if (isEnumType(named)) {
      const values = named.getValues();
      const current = values.filter((value) => !value.deprecationReason);
      const pool = current.length > 0 ? current : values;
      return pool[hash % pool.length]?.name;
    }
    switch (named.name) {
      case 'ID':
        return sampleString('id', hash);
      case 'String':
        return sampleString(fieldName, hash);
      case 'Int':
        return hash % 100;
      case 'Float':
        return (hash % 10_000) / 100;
      case 'Boolean':
        return hash % 2 === 0;
      default:
        return sampleNamedScalar(named.name, fieldName, hash);
    }
  };

  /** The value of a field of `type` at `key`; lists hold `length` items. */
  const sample = (
    type: GraphQLOutputType,
    field: GraphQLField<unknown, unknown> | undefined,
    key: string,
    args: Record<string, unknown>,
    length: number,
  ): unknown => {
    const nullable = getNullableType(type);
    if (isListType(nullable)) {
      return Array.from({ length }, (_, index) => sample(nullable.ofType, field, `${key}[${index}]`, args, listLength));
    }
    if (isLeafType(nullable)) return leaf(nullable, field?.name ?? '', key);
    const objectType = concreteType(nullable, key);
    if (shapeOf(objectType)) {
      const full = argumentsKey(args);
      return connection(objectType, field, full && key.endsWith(full) ? key.slice(0, -full.length) : key, args);
    }
    const fixed = fixedBy(objectType, field, args);
    return { __typename: objectType.name, key, ...(fixed ? { fixed } : {}) } satisfies MockObject;
  };

  /** A page of the connection at `key` (the field's place without its arguments): `first`/`after` forwards, `last`/`before` backwards. */
  const connection = (
    type: GraphQLObjectType,
    field: GraphQLField<unknown, unknown> | undefined,
    key: string,
    args: Record<string, unknown>,
  ): MockObject => {
    const connectionKey = `${key}${argumentsKey(args, PAGING_ARGUMENTS)}`;
    const after = typeof args.after === 'string' ? decodeCursor(args.after) + 1 : 0;
    const before = typeof args.before === 'string' ? decodeCursor(args.before) : connectionSize;
    let start = Math.min(after, connectionSize);
    let end = Math.max(start, Math.min(before, connectionSize));
    if (typeof args.first === 'number') end = Math.min(end, start + Math.max(0, args.first));
    else if (typeof args.last === 'number') start = Math.max(start, end - Math.max(0, args.last));
    return { __typename: type.name, key: connectionKey, page: { connectionKey, field, args, start, end, total: connectionSize } };
  };

  const items = (page: Page): number[] => Array.from({ length: page.end - page.start }, (_, offset) => page.start + offset);

  /** The answer of `field` of `type` on `source`, connections and their parts first. */
  const resolveField = (type: GraphQLObjectType, field: GraphQLField<unknown, unknown>, source: unknown, args: Record<string, unknown>) => {
    const parent = isMockObject(source) ? source : undefined;
    const page = parent?.page;
    const shape = shapeOf(type);
    if (page && shape) {
      if (field.name === 'edges')
        return items(page).map(
          (index): MockObject => ({ __typename: shape.edge.name, key: `${page.connectionKey}#${index}`, page, index }),
        );
      if (field.name === 'nodes')
        return items(page).map((index) => sample(shape.node, page.field, `${page.connectionKey}#${index}`, page.args, listLength));
      if (field.name === 'pageInfo')
        return { __typename: shape.pageInfo.name, key: `${page.connectionKey}.pageInfo`, page } satisfies MockObject;
      if (/^total(Count)?$|^count$/.test(field.name) && isScalarType(getNamedType(field.type))) return page.total;
    }
    if (page && parent?.index !== undefined) {
      if (field.name === 'cursor') return encodeCursor(parent.index);
      if (field.name === 'node') return sample(field.type, page.field, `${page.connectionKey}#${parent.index}`, page.args, listLength);
    }
    if (page && parent?.index === undefined && !shape) {
      const first = page.start < page.end ? encodeCursor(page.start) : null;
      const last = page.start < page.end ? encodeCursor(page.end - 1) : null;
      if (field.name === 'hasNextPage') return page.end < page.total;
      if (field.name === 'hasPreviousPage') return page.start > 0;
      if (field.name === 'startCursor') return first;
      if (field.name === 'endCursor') return last;
    }
    const fixed = parent?.fixed?.[field.name];
    if (fixed !== undefined) return fixed;
    const key = `${parent?.key ?? type.name}.${field.name}${argumentsKey(args)}`;
    return sample(field.type, field, key, args, listLengthOf(args));
  };

  const listLengthOf = (args: Record<string, unknown>): number => {
    const limit = LIMIT_ARGUMENTS.map((name) => args[name]).find((value) => typeof value === 'number');
    return typeof limit === 'number' ? Math.max(0, Math.min(limit, listLength)) : listLength;
  };

  const resolvers: GraphQLMockResolvers = {};
  const subscriptionType = schema.getSubscriptionType();
  for (const type of Object.values(schema.getTypeMap()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (type.name.startsWith('__')) continue;
    if (isAbstractType(type)) {
      resolvers[type.name] = { __resolveType: (value: unknown) => (value as MockObject).__typename };
      continue;
    }
    if (!isObjectType(type)) continue;
    const fields: GraphQLMockResolvers[string] = {};
    for (const field of Object.values(type.getFields())) {
      if (type === subscriptionType) {
        fields[field.name] = {
          subscribe: (_source, args) =>
            events(
              (count) => sample(field.type, field, `${type.name}.${field.name}${argumentsKey(args)}@${count}`, args, listLengthOf(args)),
              interval,
              options.subscriptionEvents,
            ),
          resolve: (payload) => payload,
        };
      } else {
        fields[field.name] = (source, args) => resolveField(type, field, source, args);
      }
    }
    resolvers[type.name] = fields;
  }
  return resolvers;
}

/** An async iterator of `next(0)`, `next(1)`… one every `interval` ms, stopped at once by `return()`. */
function events(next: (count: number) => unknown, interval: number, limit = Number.POSITIVE_INFINITY): AsyncIterableIterator<unknown> {
  let count = 0;
  let timer: NodeJS.Timeout | undefined;
  let wake: ((result: IteratorResult<unknown>) => void) | undefined;
  let done = false;
  const finish = (): IteratorResult<unknown> => {
    done = true;
    if (timer) clearTimeout(timer);
    wake?.({ done: true, value: undefined });
    wake = undefined;
    return { done: true, value: undefined };
  };
  return {
    next() {
      if (done || count >= limit) return Promise.resolve(finish());
      return new Promise((resolve) => {
        wake = resolve;
        timer = setTimeout(() => {
          wake = undefined;
          resolve({ done: false, value: next(count++) });
        }, interval);
      });
    },
    return() {
      return Promise.resolve(finish());
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
