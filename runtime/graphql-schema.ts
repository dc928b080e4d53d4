/**
 * The executable schema: built once from the SDL that server.ts embeds, with the user's resolvers
 * attached to its fields (graphql-js shapes: a function, or `{ subscribe, resolve }` on
 * subscription fields; `__resolveType` / `__isTypeOf` on types; a `GraphQLScalarType` for a
 * custom scalar).
 *
 * Resolvers run behind a guard that reads the request's `ExecutionState` (the `rootValue` of every
 * operation this server runs): a field whose `@auth` role the viewer lacks throws UNAUTHENTICATED
 * or FORBIDDEN before its resolver is called, and once a request has been stopped (timed out, or
 * its client went away) no further resolver starts. Executed without that state (say `graphql({ schema })` in a test), every viewer is
 * anonymous.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  GraphQLError,
  buildSchema,
  defaultFieldResolver,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLIsTypeOfFn,
  type GraphQLSchema,
  type GraphQLTypeResolver,
} from "graphql";
import { ErrorCode } from "./graphql-errors.js";

/** Who makes a request: at least a role of the schema's `@auth` directive. */
export interface Viewer<Role extends string = string> {
  readonly role: Role;
}

/** The `@auth` rules of the schema, as server.ts declares them. */
export interface AuthRules {
  /** The roles, lowest first: each includes those before it. */
  roles: readonly string[];
  /** The role each guarded field needs, by `Type.field`. */
  fields: Readonly<Record<string, string>>;
}

/** What the guards know of one running operation (its `rootValue`). */
export class ExecutionState {
  /** Set once `authenticate` has answered; null for an anonymous viewer. */
  viewer: Viewer | null;
  /** Why the operation was stopped; undefined while it may run. */
  reason: GraphQLError | undefined;
  /** Made when the signal is first read: an AbortController costs about as much as running a small query. */
  private controller: AbortController | undefined;

  constructor(
    viewer: Viewer | null,
    private readonly roles: readonly string[],
  ) {
    this.viewer = viewer;
  }

  /** Aborted when the operation is stopped: it timed out, or (over HTTP) the client went away. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Stops the operation (the first reason stays): the signal aborts with `reason`, and resolvers not yet started throw it. */
  abort(reason: GraphQLError): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller?.abort(reason);
  }

  /** Throws unless the viewer holds `role` (or a higher one). */
  authorize(role: string): void {
    if (!this.viewer)
      throw new GraphQLError("You must be signed in to see this field.", { extensions: { code: ErrorCode.Unauthenticated } });
    if (this.roles.indexOf(this.viewer.role) < this.roles.indexOf(role)) {
      throw new GraphQLError("Your role does not allow this field.", { extensions: { code: ErrorCode.Forbidden } });
    }
  }
}

const ANONYMOUS = new ExecutionState(null, []);

/**
 * The state of the subscription whose event is being executed: graphql-js runs each event with
 * the event as `rootValue`, so there the state travels in async context instead (only there:
 * AsyncLocalStorage slows every promise it covers).
 */
export const eventState = new AsyncLocalStorage<ExecutionState>();

function stateOf(rootValue: unknown): ExecutionState {
  return rootValue instanceof ExecutionState ? rootValue : (eventState.getStore() ?? ANONYMOUS);
}

export function timeoutError(): GraphQLError {
  return new GraphQLError("The request took too long and was stopped.", { extensions: { code: ErrorCode.Timeout } });
}

type Resolve = GraphQLFieldResolver<unknown, unknown>;

function guard(resolve: Resolve, role: string | undefined): Resolve {
  return (source, args, context, info) => {
    const state = stateOf(info.rootValue);
    if (state.reason) throw state.reason;
    if (role !== undefined) state.authorize(role);
    return resolve(source, args, context, info);
  };
}

/** `schema` with `resolvers` attached; unknown types and fields are an error at start-up, not a silent no-op. */
export function buildExecutableSchema(sdl: string, resolvers: object, auth: AuthRules): GraphQLSchema {
  const schema = buildSchema(sdl, { assumeValidSDL: true });
  for (const [typeName, members] of Object.entries(resolvers)) {
    if (members === undefined) continue;
    const type = schema.getType(typeName);
    if (!type) throw new Error(`resolvers.${typeName}: the schema has no type ${typeName}`);
    if (isScalarType(type)) {
      if (!isScalarLike(members)) throw new Error(`resolvers.${typeName}: a scalar needs a GraphQLScalarType`);
      Object.assign(type, { serialize: members.serialize, parseValue: members.parseValue, parseLiteral: members.parseLiteral });
      continue;
    }
    if (typeof members !== "object" || members === null) throw new Error(`resolvers.${typeName} must be an object`);
    const fields = isObjectType(type) ? type.getFields() : {};
    for (const [name, value] of Object.entries(members)) {
      if (value === undefined) continue;
      const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
      if (name === "__resolveType" && (isInterfaceType(type) || isUnionType(type))) {
        type.resolveType = value as GraphQLTypeResolver<unknown, unknown>;
      } else if (name === "__isTypeOf" && isObjectType(type)) {
        type.isTypeOf = value as GraphQLIsTypeOfFn<unknown, unknown>;
      } else if (field !== undefined) {
        attach(field, value, `${typeName}.${name}`);
      } else {
        throw new Error(`resolvers.${typeName}.${name}: ${typeName} has no field ${name} to resolve`);
      }
    }
  }
  // Every resolver gets the guard; a guarded field nobody wrote a resolver for reads its parent's property behind it.
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const role = auth.fields[`${type.name}.${field.name}`];
      if (field.resolve) field.resolve = guard(field.resolve, role);
      else if (role !== undefined) field.resolve = guard(defaultFieldResolver, role);
      if (field.subscribe) field.subscribe = guard(field.subscribe, role);
    }
  }
  return schema;
}

function attach(field: GraphQLField<unknown, unknown>, value: unknown, path: string): void {
  if (typeof value === "function") {
    field.resolve = value as Resolve;
  } else if (typeof value === "object" && value !== null) {
    const { resolve, subscribe } = value as { resolve?: Resolve; subscribe?: Resolve };
    if (resolve) field.resolve = resolve;
    if (subscribe) field.subscribe = subscribe;
  } else {
    throw new Error(`resolvers.${path} must be a function or { resolve, subscribe }`);
  }
}

interface ScalarLike {
  serialize: (value: unknown) => unknown;
  parseValue: (value: unknown) => unknown;
  parseLiteral: (...args: never[]) => unknown;
}

function isScalarLike(value: unknown): value is ScalarLike {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Partial<ScalarLike>).serialize === "function" &&
    typeof (value as Partial<ScalarLike>).parseValue === "function" &&
    typeof (value as Partial<ScalarLike>).parseLiteral === "function"
  );
}
