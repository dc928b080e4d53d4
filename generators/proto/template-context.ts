/**
 * What each template of the proto style receives. A user's `templates/proto/<file>.hbs` overrides
 * the built-in one and gets the same context. Blocks of code (imports, declarations, members) come
 * printed by the generator's file builder, which has imported every name they use; the fixed code
 * and prose around them are the template's.
 */

/** Shared by every template that starts with `{{> header}}`. */
interface HeaderContext {
  /** The input file(s) the output was generated from, relative to the config's folder (the header line names them). */
  source: string;
}

/**
 * A `<file>_pb.ts` module: the message types, enums, schemas, extensions and service descriptors
 * of one `.proto` file, in protoc-gen-es v2's shape.
 * @template proto/messages.ts.hbs
 */
export interface MessagesContext extends HeaderContext {
  /** The `.proto` file's own comments (syntax, editions features, package) as `//` lines, each block followed by a blank line; empty when it has none. */
  fileComments: string;
  /** The import statements, derived from the declarations. */
  imports: string;
  /** The declarations in protoc-gen-es's order: the file descriptor, then for each message, enum, extension and service its types and its constant. */
  declarations: DeclarationContext[];
}

/** One declaration of a `_pb.ts` module: exactly one of its fields is set. */
export interface DeclarationContext {
  /** `export const`: the file descriptor (`file_acme_tasks_v1_tasks`), a message's or enum's schema, an extension, a service. */
  constant: { doc: string; name: string; type: string; init: string } | undefined;
  /** `export type Name = ...;` for a type written in one piece (a message without fields, a JSON form). */
  alias: { doc: string; name: string; type: string } | undefined;
  /** `export type Name = ...{ members };`: a message's type (`base` is `Message<"acme.tasks.v1.Task"> & `) or its JSON form (`base` empty). */
  object: { doc: string; name: string; base: string; members: MemberContext[] } | undefined;
  /** `export enum Name { ... }`: an enum with its values (`localName` and number). */
  enum: { doc: string; name: string; values: { doc: string; key: string; number: number }[] } | undefined;
}

/** A member of a message type or JSON type: a field, or a oneof as the union of its cases. */
export interface MemberContext {
  /** The member's JSDoc, indented; may be empty. */
  doc: string;
  /** Its property key (`projectId`, `"@type"`). */
  key: string;
  /** Printed with `?`. */
  optional: boolean;
  /** Its type (an optional message field's ends with `| undefined`, as protoc-gen-es writes it). */
  type: string;
}

/** One rpc of a handler interface in `server.ts`. */
export interface HandlerMemberContext {
  /** The rpc's JSDoc (its proto comment, else its name and call mode), indented for an interface member. */
  doc: string;
  /** The handler's name (`getTask`), as a property key. */
  name: string;
  /** The request message's type (`GetTaskRequest`), as imported. */
  input: string;
  /** The response message's schema (`TaskSchema`), as imported; a handler answers `MessageInitShape<typeof TaskSchema>`. */
  outputSchema: string;
  /** The client streams requests: the handler takes `requests: AsyncIterable<...>`. */
  streamsRequests: boolean;
  /** The server streams responses: the handler returns an `AsyncIterable`, else one answer, plain or as a promise. */
  streamsResponses: boolean;
}

/**
 * `server.ts`: a handler interface per service, `GrpcServices` and `createGrpcServer`, which serves
 * them (gRPC, gRPC-Web, Connect, REST routes of `google.api.http` rules) on one port. The
 * template places the file's imports and re-exports with `{{importBlock}}` and `{{exportBlock}}`,
 * and names the runtime exports its own code uses with `{{runtime "serveGrpc" from="grpc-server"}}`;
 * it imports `MessageInitShape` with `{{import "MessageInitShape" from="@bufbuild/protobuf" type=true}}`.
 * @template proto/server.ts.hbs
 */
export interface ServerContext extends HeaderContext {
  /** Every service of the requested files. */
  services: {
    /** The service's JSDoc (its proto comment and what the interface is). */
    doc: string;
    /** The service's full proto name (`acme.tasks.v1.TaskService`). */
    typeName: string;
    /** The service's key in `GrpcServices` (`TaskService`). */
    key: string;
    /** The handler interface's name (`TaskServiceHandlers`). */
    handlersType: string;
    /** The service's descriptor (`TaskService` of its `_pb.ts`), as imported. */
    descriptor: string;
    /** The service's REST routes const (`TaskServiceHttpRules` of `http-rules.ts`), as imported; undefined without routes. */
    rules: string | undefined;
    /** The service's rpcs. */
    members: HandlerMemberContext[];
  }[];
  /** The generated binary codecs of the messages the services read and write, as imported and comma-separated (`TaskCodec, GetTaskRequestCodec`); empty when there are none. */
  codecs: string;
  /** Their generated JSON codecs, the same way (`TaskJsonCodec, GetTaskRequestJsonCodec`); empty when there are none. */
  jsonCodecs: string;
}

/** One rpc of a client interface in `client.ts` or `client-web.ts`. */
export interface ClientMemberContext {
  /** The rpc's JSDoc (its proto comment, else its name and call mode), indented for an interface member. */
  doc: string;
  /** The method's name (`getTask`), as a property key. */
  name: string;
  /** The request message's schema (`GetTaskRequestSchema`), as imported; a call takes `MessageInitShape<typeof ...>`. */
  inputSchema: string;
  /** The response message's type (`Task`), as imported. */
  output: string;
  /** The client streams requests: the method takes `requests: AsyncIterable<...>`. */
  streamsRequests: boolean;
  /** The server streams responses: the method returns an `AsyncIterable`, else a `Promise`. */
  streamsResponses: boolean;
}

/** One service of `client.ts` or `client-web.ts`. */
export interface ClientServiceContext {
  /** The client interface's JSDoc (the service's proto comment and what the client is). */
  doc: string;
  /** The client interface's name (`TaskServiceClient`, `TaskServiceWebClient`). */
  clientType: string;
  /** The function that makes one service's client (`createTaskServiceClient`). */
  createClient: string;
  /** The service's descriptor (`TaskService` of its `_pb.ts`), as imported. */
  descriptor: string;
  /** The service's member of `createClient(options)`'s result (`taskService`), as a property key. */
  property: string;
  /** The service's full proto name (`acme.tasks.v1.TaskService`). */
  typeName: string;
  /** The methods: all of them in `client.ts`, the unary and server-streaming ones in `client-web.ts`. */
  members: ClientMemberContext[];
}

/**
 * `client.ts`: Node clients of the services (gRPC over HTTP/2, every call mode), one per service
 * and `createClient` for all over one session. The template places the file's imports and
 * re-exports with `{{importBlock}}` and `{{exportBlock}}`, and names the runtime exports its own
 * code uses with `{{runtime "serviceClient" from="grpc-client"}}`; it imports `MessageInitShape` with `{{import "MessageInitShape" from="@bufbuild/protobuf" type=true}}`.
 * @template proto/client.ts.hbs
 */
export interface ClientContext extends HeaderContext {
  /** The client property of the service the header's example calls (`taskService`). */
  firstKey: string;
  /** The method the header's example calls: the first unary one, else `someMethod`. */
  firstMethod: string;
  /** Every service. */
  services: ClientServiceContext[];
}

/**
 * `client-web.ts`: browser clients of the services (gRPC-Web or Connect's JSON protocol through
 * `fetch`; unary and server-streaming methods). The template places the file's imports and
 * re-exports with `{{importBlock}}` and `{{exportBlock}}`, and names the runtime exports its own
 * code uses with `{{runtime "serviceClient" from="grpc-client"}}`; the imports include `Transport`
 * and, with `{{import}}`, `MessageInitShape`.
 * @template proto/client-web.ts.hbs
 */
export interface WebClientContext extends HeaderContext {
  /** The services with a method a browser can call. */
  services: ClientServiceContext[];
}

/**
 * `http-rules.ts`: the REST routes of each service's methods, from their `google.api.http` rules,
 * which `server.ts` serves and `client-rest.ts` calls. The template places the file's imports with
 * `{{importBlock}}` and names the runtime exports its own code uses with
 * `{{runtime "HttpRules" from="grpc-transcoding-path"}}`.
 * @template proto/http-rules.ts.hbs
 */
export interface HttpRulesContext extends HeaderContext {
  /** The services with routes. */
  services: {
    /** The service's full proto name (`acme.tasks.v1.TaskService`). */
    typeName: string;
    /** The routes const's name (`TaskServiceHttpRules`). */
    constName: string;
    /** The methods with routes, in declaration order. */
    methods: {
      /** The method's `localName` (`getTask`), as a property key. */
      key: string;
      /** Its routes as object literals (`{ method: "GET", path: "/v1/tasks/{id}" }`): the main rule, then its `additional_bindings`. */
      bindings: string[];
    }[];
  }[];
}

/** One method of a REST client in `client-rest.ts`. */
export interface RestMethodContext {
  /** The method's JSDoc: its proto comment and its route (`GET /v1/tasks/{id}`), indented for an interface member. */
  doc: string;
  /** The method's name (`getTask`), as a property key. */
  name: string;
  /** The request message's schema, as imported; a call takes `MessageInitShape<typeof ...>`. */
  inputSchema: string;
  /** The response message's type, as imported. */
  output: string;
  /** The server streams responses: the method returns an `AsyncIterable` (`connection.serverStream`), else a `Promise` (`connection.unary`). */
  streamsResponses: boolean;
  /** The method's descriptor (`TaskService.method.getTask`). */
  method: string;
  /** The route it calls: its first rule (`TaskServiceHttpRules.getTask[0]`). */
  rule: string;
}

/**
 * `client-rest.ts`: REST clients of the services' `google.api.http` routes, plain HTTP and JSON
 * through `fetch`. The template places the file's imports and re-exports with `{{importBlock}}`
 * and `{{exportBlock}}`, and names the runtime exports its own code uses with
 * `{{runtime "createRestConnection" from="grpc-rest-client"}}`; it imports `MessageInitShape` with `{{import "MessageInitShape" from="@bufbuild/protobuf" type=true}}`.
 * @template proto/client-rest.ts.hbs
 */
export interface RestClientContext extends HeaderContext {
  /** The client property of the first service with routes (`taskService`), for the header's example. */
  firstClient: string;
  /** Its first method with a route, for the header's example. */
  firstMethod: string;
  /** The services with routes. */
  services: {
    /** The client interface's JSDoc. */
    doc: string;
    /** The service's full proto name. */
    typeName: string;
    /** The client interface's name (`TaskServiceRestClient`). */
    clientType: string;
    /** The function that makes one service's client (`createTaskServiceRestClient`). */
    createClient: string;
    /** The module-private function that makes it over a connection (`taskServiceRestService`). */
    restService: string;
    /** The service's member of `createRestClient(options)`'s result (`taskService`), as a property key. */
    key: string;
    /** The methods with routes. */
    methods: RestMethodContext[];
  }[];
}

/**
 * The user's handler file, written once (then only added to): a stub per rpc, grouped by service,
 * in `export const handlers = { ... } satisfies GrpcServices`. The imports include `Code`,
 * `ConnectError` and `GrpcServices` from the generated server.
 * @template proto/handlers.ts.hbs
 */
export interface HandlersContext {
  /** How the handler file imports the generated `server.ts` (`../../out/grpc/server.js`). */
  serverImport: string;
  /** The import statements. */
  imports: string;
  /** Each service's member of `handlers` (`TaskService: { async getTask() { ... } }`), indented. */
  services: string[];
}

/**
 * A `<file>_codec.ts` module: per message of one `.proto` file, its binary `write*`/`read*`
 * functions and its `MessageCodec` (`TaskCodec`), then private codecs of the well-known types they use.
 * @template proto/codec.ts.hbs
 */
export interface CodecsContext extends HeaderContext {
  /** The import statements, derived from the code. */
  imports: string;
  /** Per message, in `nestedTypes` order: its `write*` and `read*` functions and its `*Codec` constant, as code. */
  codecs: string[];
  /** The codecs of well-known types the file's messages use (their `_pb` ships with the runtime), and sets of closed enums' values, as code. */
  privateCodecs: string[];
}

/**
 * A `<file>_json.ts` module: per message of one `.proto` file, its `write*Json`/`read*Json`
 * functions and its `*JsonCodec` constant (proto3 JSON through generated code, reflection behind it).
 * @template proto/json-codec.ts.hbs
 */
export interface JsonCodecsContext extends HeaderContext {
  /** The import statements, derived from the code. */
  imports: string;
  /** Per message, in `nestedTypes` order: its `write*Json` and `read*Json` functions and its `*JsonCodec` constant, as code. */
  codecs: string[];
  /** Module-level constants of the enums the codecs use: names by number, numbers by name, closed enums' values. */
  enums: string[];
}

/**
 * `query.ts`: TanStack Query options per method (`@tanstack/query-core` types) over the clients of
 * `client-web.ts`. Type and runtime names come printed by the file builder.
 * @template proto/query.ts.hbs
 */
export interface QueryFileContext extends HeaderContext {
  /** The first element of every key, a string literal: the API's name. */
  apiName: string;
  /** The same, safe inside a comment. */
  apiNameDoc: string;
  /** Reads and server-streaming methods, in declaration order. */
  queries: ProtoQueryContext[];
  /** Reads with AIP-158 `page_token`/`next_page_token`. */
  infinite: ProtoInfiniteContext[];
  /** The other unary methods. */
  mutations: ProtoMutationContext[];
}

/** What every method's options print. */
interface ProtoMethodOptionsContext {
  /** The method's full name in backticks, for the docs. */
  method: string;
  /** The full name as a string literal (`"acme.tasks.v1.TaskService.GetTask"`): the key's second element. */
  key: string;
  /** The service's client type, e.g. `TaskServiceWebClient`. */
  client: string;
  /** The client's method, e.g. `getTask`. */
  call: string;
  /** The input type, e.g. `MessageInitShape<typeof GetTaskRequestSchema>` (without the page token for infinite queries). */
  input: string;
  /** The request's schema (a value), which keys the input. */
  schema: string;
  /** The data of a call: the response message type (a list of them for a streamed query). */
  data: string;
  /** The method's comment as JSDoc. */
  doc: string;
  optionsFunction: string;
}

/** A read's or a server stream's query. */
export interface ProtoQueryContext extends ProtoMethodOptionsContext {
  /** Server streaming: the query function is `experimental_streamedQuery`. */
  streamed: boolean;
  keyType: string;
  keyFunction: string;
}

/** An AIP-158 read's infinite query. */
export interface ProtoInfiniteContext extends ProtoMethodOptionsContext {
  keyType: string;
  keyFunction: string;
  /** The request's `page_token` as an object key, e.g. `pageToken`. */
  pageTokenKey: string;
  /** The response's `next_page_token` property, e.g. `nextPageToken`. */
  nextPageToken: string;
}

/** A unary write's mutation options and the invalidation its success runs. */
export interface ProtoMutationContext extends ProtoMethodOptionsContext {
  /** `invalidateAfterCreateTask`; none when no read answers with a message it changes. */
  invalidateFunction: string | undefined;
  /** The invalidated methods' full names as string literals. */
  invalidated: string[];
  /** The same for the docs. */
  invalidatedList: string;
  /** The changed messages those reads answer with, for the docs. */
  typesList: string;
}

/**
 * `pubsub.ts`: the typed topics of the streaming methods, by service, and `createPubSub(fanOut)`.
 * The template places the file's imports and re-exports with `{{importBlock}}` and `{{exportBlock}}`.
 * @template proto/pubsub.ts.hbs
 */
export interface PubSubContext extends HeaderContext {
  /** A topic without a key (else the first), as the file's usage example reaches it: `pubsub.TaskService.syncTasks`. */
  example: string;
  /** The runtime's `FanOut` type, as imported. */
  fanOut: string;
  /** The runtime's `MemoryFanOut`, as imported: the default fan-out. */
  memoryFanOut: string;
  /** Each topic once (a shared one serves several methods), as a local of `createPubSub`. */
  topics: {
    /** The local's JSDoc, indented for the function body: the methods sharing it; empty for a topic of one method. */
    doc: string;
    /** The local's name (`syncTasks`). */
    local: string;
    /** The bound topic, constructed: `new StreamTopic(fanOut, new Topic<…>("…", noKey, binaryTopicCodec(TaskEventCodec)))`. */
    init: string;
  }[];
  /** The services with at least one topic, in declaration order. */
  services: {
    /** The topics interface's JSDoc. */
    doc: string;
    /** The service's full proto name (`acme.tasks.v1.TaskService`). */
    typeName: string;
    /** The service's key (`TaskService`), as in `GrpcServices`, as a property key. */
    key: string;
    /** The topics interface's name (`TaskServiceTopics`). */
    topicsType: string;
    /** One per streaming method with a topic. */
    members: {
      /** The rpc's comment and what its topic carries, indented for an interface member. */
      doc: string;
      /** The method's name (`syncTasks`), as a property key. */
      name: string;
      /** The bound topic's type (`StreamTopic<TaskEvent>`, `KeyedStreamTopic<Pick<…>, Task>`). */
      type: string;
      /** Its entry in `createPubSub`'s result: `syncTasks`, or `watchTasks: taskChanges` for a shared topic. */
      entry: string;
    }[];
  }[];
}
