/**
 * What each template of the OpenAPI style receives. A user's `templates/openapi/<file>.hbs`
 * overrides the built-in one and gets the same context. Blocks of code (imports, re-exports,
 * declarations, members) come printed by the generator's file builder, which has imported every
 * name they use and, by their own names, the runtime names the template's fixed code prints; the
 * fixed code and prose around them are the template's.
 */

/** Shared by every template that starts with `{{> header}}`. */
interface HeaderContext {
  /** The input file the output was generated from, relative to the config's folder (the header line names it). */
  source: string;
}

/**
 * `types.ts`: a type per schema (and its `Input` shape when reads and writes differ), then the
 * params, responses and errors of each operation.
 * @template openapi/types.ts.hbs
 */
export interface TypesContext extends HeaderContext {
  /** The document's `info.title`, escaped for a comment. */
  title: string;
  /** The document's `info.version`, escaped for a comment. */
  version: string;
  /** The schemas' declarations, printed by the type emitter every style shares. */
  schemas: string;
  /** The name of the status helper type the template declares (`HttpStatus`, unless a schema took it); absent when no response needs it. */
  statusType?: string;
  /** Per operation, its `<Operation>Params`, `<Operation>Response` and `<Operation>Error` declarations. */
  operations: string[];
}

/**
 * `paths.ts` (option `openapiTypescript`): the types in openapi-typescript's shape, for
 * openapi-fetch and openapi-react-query, naming the types of `types.ts`.
 * @template openapi/paths.ts.hbs
 */
export interface PathsContext extends HeaderContext {
  /** The document's `info.title`, escaped for a comment. */
  title: string;
  /** The document's `info.version`, escaped for a comment. */
  version: string;
  /** The import statements: the types of `types.ts` the members name. */
  imports: string;
  /** The members of `paths`: one per path, with its `parameters` and every method (`put?: never` when absent). */
  paths: string[];
  /** The members of `components["schemas"]`: each component schema under its key as written, typed by its `types.ts` type. */
  schemas: string[];
  /** The members of `operations`: one per operation, by `operationId`, with its parameters, request body and responses. */
  operations: string[];
}

/**
 * `validators.ts` (`isX`/`validateX` per schema), `server-validators.ts` (the server's checks
 * of each operation's parameters by location, and of inline bodies, with the types they narrow to),
 * `server-routes.ts` (the server's operation specs and route tree, which the runtime serves from)
 * and `client-operations.ts` (the client's `<method>Operation` constants, which client.ts re-exports).
 * With `validators: js` (the default) it renders each module twice, as `.js` (the code, untyped)
 * and as `.d.ts` (the exported signatures, and the narrowed types), each with its own imports.
 * @template openapi/module.ts.hbs
 */
export interface ModuleContext extends HeaderContext {
  /** The import statements: the types, the runtime's validation helpers and, for `server-validators.ts`, the validators of `validators.ts` it calls. */
  imports: string;
  /** The declarations: for `server-validators.ts` the narrowed types first, then constants and functions, printed by the validator emitter every style shares. */
  code: string;
}

/**
 * `response-validators.ts`: the validators of each operation's 2xx JSON bodies, the map the client's
 * `validateResponses` option takes, in a module of its own so that only apps that use it bundle it.
 * With `validators: js` (the default) it renders twice, as `.js` (the map, untyped) and as `.d.ts`
 * (the constant declared as `ResponseValidators`).
 * @template openapi/response-validators.ts.hbs
 */
export interface ResponseValidatorsContext extends HeaderContext {
  /** The import statements: `ResponseValidators` and `checkResponses` of the runtime, and the validators the map names (of these, the `.js` imports the values and the `.d.ts` the type). */
  imports: string;
  /** One `<method>: { <status>: validate<Type>, … },` line per operation with a validated body; absent in the `.d.ts`, which declares the constant. */
  entries?: string[];
  /** Whether the constant is annotated `: ResponseValidators` (`.ts` and `.d.ts`, not `.js`). */
  typed: boolean;
}

/**
 * `client.ts`: `createClient(options)`, an object with one method per operation, the
 * `<method>Operation` constants it sends, and `createHttpClient` to send them alone. The template places
 * the file's imports and re-exports (the runtime's public API: errors, options, cache, response
 * validation) with `{{importBlock}}` and `{{exportBlock}}`, and names the runtime exports its own code uses
 * with `{{runtime "HttpClient" from="http"}}`.
 * @template openapi/client.ts.hbs
 */
export interface ClientContext extends HeaderContext {
  /** The first server's URL as a string literal; absent when the document has no servers (the options then require `baseUrl`). */
  defaultBaseUrl?: string;
  /** The JSDoc of `DEFAULT_BASE_URL` (the server's description, escaped); absent without servers. */
  serverDoc?: string;
  /** The credentials interface, when the document has security schemes a request can carry. */
  credentials?: {
    /** Its name, `<Api>Credentials`. */
    name: string;
    /** One optional member per security scheme, with its JSDoc. */
    members: string[];
  };
  /** `securitySchemes` entries, one per scheme: how the runtime applies its credential. */
  securitySchemes: string[];
  /** The options type's name, `<Api>ClientOptions`. */
  optionsType: string;
  /** The client interface's name, `<Api>Client`. */
  clientName: string;
  /** Whether `client-operations` exists (the `<method>Operation` constants), which client.ts re-exports. */
  operationsModule: boolean;
  /** The client interface's members: each operation's method (and item iterator when paginated), with JSDoc. */
  methods: string[];
  /** `createClient`'s JSDoc: the API's title, version, description and an example call. */
  createDoc: string;
  /** Whether an operation is paginated: then `createClient` passes `paginate` for the `<method>All` methods. */
  paginated: boolean;
  /** `createHttpClient`'s example as JSDoc lines (` * …`); absent without operations. */
  httpClientExample?: string;
  /** The defaults `createHttpClient` passes to the runtime: `{ baseUrl: DEFAULT_BASE_URL, securitySchemes }`, or what of it exists. */
  httpDefaults: string;
  /** Whether the document has operations: then the errors interface and `isApiError` are written. */
  hasOperations: boolean;
  /** The errors interface's name, `<Api>Errors`. */
  errorsType: string;
  /** Its members: each method's error responses. */
  errors: string[];
  /** `isApiError`'s example as JSDoc lines (` * …`); absent without operations. */
  isApiErrorExample?: string;
}

/**
 * `server.ts`: per operation a request type, a result type and a spec; the typed handlers
 * interface; the route tree; `createServer(handlers, options)`, a listener for `node:http`. The
 * template places the file's imports and re-exports with `{{importBlock}}` and `{{exportBlock}}`, and names
 * the runtime exports its own code uses with `{{runtime "Listener" from="server"}}`.
 * @template openapi/server.ts.hbs
 */
export interface ServerContext extends HeaderContext {
  /** The file's JSDoc, naming the API (title and version, escaped). */
  doc: string;
  /** The path prefixes of the document's servers, as an array literal. */
  basePaths: string;
  /** Per operation, `<Operation>Request`: what its handler receives. */
  requests: string[];
  /** Per operation, `<Operation>Result`: what its handler may return. */
  results: string[];
  /** The handlers interface's JSDoc (it names the API's title, escaped). */
  handlersDoc: string;
  /** The handlers interface's name, `<Api>Handlers`. */
  handlersType: string;
  /** Its members: one handler per operation, with JSDoc. */
  members: string[];
  /** The options type's name, `<Api>ServerOptions`. */
  optionsType: string;
  /** `securitySchemes` entries, one per scheme the authentication stage knows. */
  securitySchemes: string[];
  /** The `routes` property of `createListener`'s spec: `routes`, or `routes: <local>` when the import is aliased (the specs and the route tree, from server-routes). */
  routes: string;
  /** The name of the API, `<Api>`, for `createServer`'s JSDoc. */
  apiName: string;
  /** `createServer`'s example as JSDoc lines (` * …`); absent when there is no operation to show. */
  createExample?: string;
}

/**
 * The user's handlers file, written once with a stub per operation (then only added to).
 * @template openapi/handlers.ts.hbs
 */
export interface HandlersContext {
  /** The document's `info.title` (the template prints it on one line). */
  title: string;
  /** The import statements: `HttpProblem` and the handlers type, from the generated `server.ts`. */
  imports: string;
  /** The handlers interface's name, `<Api>Handlers`. */
  handlersType: string;
  /** One stub per operation: its JSDoc and a method that throws a 501 problem. */
  stubs: string[];
}

/**
 * `mock.ts` (written by `codegen mock` only): `mockHandlers`, one handler per operation answering
 * its sample, and `serveMock(options)`, which serves them on the generated server. The template
 * places the imports with `{{importBlock}}` and names what its own code uses with `{{runtime}}` and `{{import}}`.
 * @template openapi/mock.ts.hbs
 */
export interface MockContext extends HeaderContext {
  /** The document's title and version, escaped for a comment. */
  title: string;
  /** Which variant of the sample values (`codegen mock --seed`): the same number, the same values. */
  variant: number;
  /** The handlers interface of server.ts, e.g. `TasksApiHandlers`. */
  handlersType: string;
  /** One `async <operation>() { return { status, body, headers }; },` member per operation (a 501 `HttpProblem` where no sample could be built), with its JSDoc. */
  handlers: string[];
}

/**
 * `msw.ts` (`emit: [msw]`): a Mock Service Worker handler factory per operation, answering its
 * sample or an override, and `handlers`, each factory's default. The template places the imports
 * with `{{importBlock}}`.
 * @template openapi/msw.ts.hbs
 */
export interface MswContext extends HeaderContext {
  /** The document's title and version, escaped for a comment. */
  title: string;
  /** Which variant of the sample values (`codegen mock --seed`): the same number, the same values. */
  variant: number;
  /**
   * Per operation, with JSDoc: `export const <operation>Sample: <Body> = …;` when it answers a body,
   * then `export function <operation>Handler(override?) { return http.<method>(...); }`.
   */
  handlers: string[];
  /** The factories' names, in the order of `handlers`. */
  factories: string[];
  /** The override the module's JSDoc shows: a factory given its sample with one property changed. */
  example: { factory: string; sample: string; property: string } | null;
}
