/**
 * What each template of the GraphQL style receives. A user's `templates/graphql/<file>.hbs` (or a
 * graphql-codegen plugin's `config.templates` folder) overrides the built-in one and gets the same
 * context. Blocks of code (imports, re-exports, declarations) come printed by the plugin's file
 * builder, which has imported every name they use; the runtime exports the template's own code
 * prints are named with `{{runtime}}` and imported through the same builder. The fixed code and
 * prose around them are the template's.
 */

/** Shared by every template that starts with `{{> header}}`. */
interface HeaderContext {
  /** Where the schema came from, printed in the header line (config `source`; default `GraphQL schema`). */
  source: string;
}

/**
 * `types.ts`: every schema type under its GraphQL name, the arguments of each field and
 * `Resolvers<Context>`, the typed map a server implements.
 * @template graphql/types.ts.hbs
 */
export interface TypesContext extends HeaderContext {
  /** The schema's description as JSDoc lines (` * …`, escaped), then a ` *` line; empty when it has none. */
  description: string;
  /** The import statements: the `graphql` types the resolver types use, and the modules of config `mappers`. */
  imports: string;
  /** The schema's types, printed by the type emitter every style shares. */
  schemas: string;
  /** `export interface <Type><Field>Args` for every field with arguments, separated by blank lines; empty when none. */
  args: string;
  /** The resolver helper types the resolver maps use, which the template declares. */
  helpers: ResolverHelpersContext;
  /** `ResolversTypes`, the resolver-side shapes of mapped types and of types that reach them (config `mappers`), and `SubscriptionPayloads`; empty without either. */
  resolversTypes: string;
  /** The `Resolvers` map a server implements. */
  resolvers: {
    /** Its name (numbered when a schema type has it). */
    name: string;
    /** The name of its context type parameter (numbered when a schema type has it). */
    context: string;
    /** One member line per root type, custom scalar and type with resolvers, indented. */
    members: string[];
  };
  /** One resolver map per root, object, interface and union type (`TaskResolvers<Context>`), separated by blank lines. */
  typeResolvers: string;
}

/**
 * The helper types of `types.ts`'s resolver maps, by their names there (numbered when a schema type
 * has the name): each is set only when a resolver uses it.
 */
export interface ResolverHelpersContext {
  /** `MaybePromise<T>`: what every resolver may return (set when any resolver exists). */
  maybePromise: string | undefined;
  /** `Resolver<Result, Parent, Context, Args>`: a field resolver. */
  resolver: string | undefined;
  /** `SubscriptionResolver<Result, Payload, Context, Args>`: `{ subscribe, resolve? }` of a subscription field. */
  subscriptionResolver: string | undefined;
  /** `TypeResolver<Value, Name, Context>`: `__resolveType` of an interface or union. */
  typeResolver: string | undefined;
  /** graphql-js's `GraphQLResolveInfo` as imported, the last argument of every resolver. */
  resolveInfo: string;
}

/** A named fragment of the documents, in `operations.ts`. */
export interface FragmentContext {
  /** The fragment type's JSDoc. */
  doc: string;
  /** `export interface TaskFieldsFragment { … }` (or a type alias for a union of shapes). */
  declaration: string;
}

/** An operation of the documents, in `operations.ts`. */
export interface OperationContext {
  /** The result type's JSDoc. */
  resultDoc: string;
  /** `export interface GetTaskQuery { … }` (or a type alias for a union of shapes). */
  resultDeclaration: string;
  /** The variables type's JSDoc. */
  variablesDoc: string;
  /** `export interface GetTaskQueryVariables { … }`, or a `Record<string, never>` alias without variables. */
  variablesDeclaration: string;
  /** The constant's JSDoc: what it is, the root field's description and the operation as written. */
  constantDoc: string;
  /** The typed operation constant, e.g. `GetTask`. */
  constant: string;
  /** The result type's name, e.g. `GetTaskQuery`. */
  resultType: string;
  /** The variables type's name, e.g. `GetTaskQueryVariables`. */
  variablesType: string;
  /** `"query"`, `"mutation"` or `"subscription"`, as a string literal. */
  kind: string;
  /** The operation's name as a string literal. */
  name: string;
  /** The SHA-256 of the document as a string literal. */
  id: string;
  /** The document sent: string literals of at most 80 characters, one per line, joined with `+`. */
  document: string;
}

/**
 * `operations.ts`: the typed operations of the documents (result and variables types, and a
 * constant with the exact text sent and its id), the fragments' types and `persistedOperations`.
 * @template graphql/operations.ts.hbs
 */
export interface OperationsContext extends HeaderContext {
  /** The import statements: the schema types the shapes name, from `types.ts`; empty when none. */
  imports: string;
  /** The named fragments, in document order. */
  fragments: FragmentContext[];
  /** The operations, in document order. */
  operations: OperationContext[];
  /** Every operation constant, by operation name: the entries of `persistedOperations`. */
  persisted: string[];
}

/**
 * `documents.ts` (option `typedDocumentNodes`): each operation as a `TypedDocumentNode`, for
 * Apollo Client, urql and graphql-request.
 * @template graphql/documents.ts.hbs
 */
export interface DocumentsContext extends HeaderContext {
  /** The import statements: `TypedDocumentNode` (type only) and the result and variables types of `operations.ts`. */
  imports: string;
  /** The operations, in document order. */
  documents: DocumentContext[];
}

/** One operation's typed document node, in `documents.ts`. */
export interface DocumentContext {
  /** The constant's JSDoc. */
  doc: string;
  /** The constant's name, e.g. `GetTaskDocument`. */
  name: string;
  /** The operation's syntax tree (with the fragments it uses) as a JSON object literal, without locations. */
  node: string;
  /** `TypedDocumentNode<GetTaskQuery, GetTaskQueryVariables>`, with the local names of the imports. */
  type: string;
}

/** One operation's method of the client, in `client.ts`. */
export interface ClientMethodContext {
  /** The method's JSDoc, indented for an interface member. */
  doc: string;
  /** The method's name, e.g. `getTask`. */
  method: string;
  /** The operation constant's local name, from `operations.ts`. */
  constant: string;
  /** The result type's local name, from `operations.ts`. */
  result: string;
  /** The variables type's local name, from `operations.ts`. */
  variables: string;
  /** Whether every variable may be left out (nullable or defaulted, or none): the argument is optional. */
  optional: boolean;
  /** A subscription (an async iterator over WebSocket), not a query or mutation (a promise over HTTP). */
  subscription: boolean;
}

/**
 * `client.ts`: `createClient(options)`, a typed client with one method per operation of the
 * documents, and the client runtime's public API. The template places the file's imports and
 * re-exports with `{{importBlock}}` and `{{exportBlock}}`, and names the runtime exports its own code
 * uses with `{{runtime "GraphQLHttp" from="graphql-client"}}` (`type=true` for a class used as a type).
 * @template graphql/client.ts.hbs
 */
export interface ClientContext extends HeaderContext {
  /** Whether a document has a subscription: then the client has a WebSocket transport option and `close()`. */
  subscriptions: boolean;
  /** One per operation, in document order. */
  methods: ClientMethodContext[];
  /** The call in `createClient`'s example: the first query, else the first operation; none without operations. */
  example: ClientExampleContext | undefined;
}

/** The operation `createClient`'s JSDoc example calls. */
export interface ClientExampleContext {
  /** The client method, e.g. `getTask`. */
  method: string;
  /** Whether the call may leave the variables out (else the example passes a placeholder). */
  optional: boolean;
}

/** A field's role under `@auth`, in `server.ts`. */
export interface FieldRoleContext {
  /** `"Type.field"` as a string literal. */
  key: string;
  /** The role's name as a string literal. */
  role: string;
}

/**
 * `server.ts`: `createGraphQLServer(resolvers, options)`, the schema's SDL, its `@auth` rules and
 * the server runtime's public API. The template places the file's imports and re-exports with
 * `{{importBlock}}` and `{{exportBlock}}`, and names the runtime exports its own code uses with
 * `{{runtime "createServer" from="graphql-server"}}`.
 * @template graphql/server.ts.hbs
 */
export interface ServerContext extends HeaderContext {
  /** The local name of `types.ts`'s resolvers map (`Resolvers`, numbered when a schema type has that name). */
  resolvers: string;
  /** The SDL's lines as string literals. */
  sdlLines: string[];
  /** The role names as string literals, lowest first; empty without `@auth`. */
  roles: string[];
  /** The role each protected field needs. */
  fieldRoles: FieldRoleContext[];
  /** Whether operations.ts exists (it does when there are operation documents), so registered operations are served. */
  persisted: boolean;
}

/**
 * `pubsub.ts` (written with `server.ts` when the schema has `Subscription` fields): `createPubSub(fanOut)`,
 * one typed `SubscriptionTopic` per field. The template places the file's imports and re-exports with
 * `{{importBlock}}` and `{{exportBlock}}`.
 * @template graphql/pubsub.ts.hbs
 */
export interface PubSubContext extends HeaderContext {
  /** One entry per `Subscription` field, in schema order (at least one). */
  fields: PubSubFieldContext[];
  /** The local name of the runtime's `FanOut` interface. */
  fanOut: string;
  /** The local name of the runtime's `MemoryFanOut`, the default fan-out. */
  memory: string;
  /** The local name of the runtime's `PubSubOptions` (the payload codec). */
  options: string;
}

/** One `Subscription` field's member of `PubSub`. */
export interface PubSubFieldContext {
  /** Its JSDoc (the field's description, its key and filter arguments), indented by two spaces, ending with a newline. */
  doc: string;
  /** Its property key in `PubSub` (the field's name, quoted when it must be). */
  key: string;
  /** Its type: `SubscriptionTopic<"field", Args, "keyArg" | ..., SubscriptionPayloads["field"]>`. */
  type: string;
  /** The expression that creates it from `fanOut`. */
  init: string;
  /** `pubsub.field`, for the file's usage example. */
  access: string;
  /** What `publish` takes in the usage example: `{ projectId }, payload`, or `payload` without a key. */
  publishArgs: string;
}

/**
 * The resolvers of a generated GraphQL server: the user's file (config `handlers`), written once
 * with a stub for every root field, then only added to.
 * @template graphql/resolvers.ts.hbs
 */
export interface ResolversContext {
  /** The import statements: the resolvers map from `types.ts`, relative to the user's file. */
  imports: string;
  /** The resolvers map's local name. */
  resolversType: string;
  /** `server.ts` as the user's file imports it (the comment points there). */
  serverImport: string;
  /** `Query: { … }` and the other root types' stubs, indented. */
  roots: string[];
}

/**
 * `query.ts`: TanStack Query options per operation (`@tanstack/query-core` types), over the
 * `GraphQLHttp` of `client.ts`'s runtime. Type and runtime names come printed by the file builder.
 * @template graphql/query.ts.hbs
 */
export interface QueryFileContext extends HeaderContext {
  /** The first element of every key, a string literal (config `apiName`; the API's name). */
  apiName: string;
  /** The same, safe inside a comment. */
  apiNameDoc: string;
  /** One per query, in document order. */
  queries: QueryOptionsContext[];
  /** One per query with a cursor-paginated connection (Relay `after` + `pageInfo`). */
  infinite: InfiniteQueryContext[];
  /** One per mutation, in document order. */
  mutations: MutationOptionsContext[];
}

/** What every operation's options print. */
interface OperationOptionsContext {
  /** The GraphQL name, e.g. `GetTask`. */
  name: string;
  /** The same as a string literal: the key's second element. */
  key: string;
  /** The operation constant of `operations.ts` the options send. */
  constant: string;
  /** The result type, e.g. `GetTaskQuery`. */
  result: string;
  /** The error type, e.g. `GraphQLQueryError<GetTaskQuery>`. */
  error: string;
  /** The options function, e.g. `getTaskQueryOptions`. */
  optionsFunction: string;
}

/** A query's key type, key function and options. */
export interface QueryOptionsContext extends OperationOptionsContext {
  /** Its JSDoc (the root field's description), indented by nothing. */
  doc: string;
  /** `GetTaskQueryKey`. */
  keyType: string;
  /** `getTaskQueryKey`. */
  keyFunction: string;
  /** The variables type; none when the operation declares no variables. */
  variables: string | undefined;
  /** Whether the variables may be left out. */
  optional: boolean;
}

/** A cursor-paginated query's infinite options. */
export interface InfiniteQueryContext extends OperationOptionsContext {
  keyType: string;
  keyFunction: string;
  /** The variables without the cursor: `Omit<ProjectTasksQueryVariables, "after">`. */
  variables: string;
  /** The cursor variable's name, e.g. `after`. */
  cursor: string;
  /** The same as an object key. */
  cursorKey: string;
  /** Where the connection is in the result, for the docs: `project.tasks`. */
  connection: string;
  /** The expression after `page` that reads the connection's `pageInfo`: `.project?.tasks.pageInfo`. */
  pageInfo: string;
}

/** A mutation's options and the invalidation its success runs. */
export interface MutationOptionsContext extends OperationOptionsContext {
  doc: string;
  variables: string | undefined;
  optional: boolean;
  /** `invalidateAfterCreateTask`; none when no query selects a type it changes. */
  invalidateFunction: string | undefined;
  /** The invalidated queries' names as string literals. */
  invalidated: string[];
  /** The same for the docs: `` `GetTask`, `ProjectTasks` ``. */
  invalidatedList: string;
  /** The changed types those queries select, for the docs. */
  typesList: string;
}
