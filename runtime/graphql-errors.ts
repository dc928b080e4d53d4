/**
 * The errors of a generated GraphQL server: every one carries `extensions.code`, none carries a
 * stack, and in production nothing a client sees reveals the server's internals: an unexpected
 * resolver error becomes "Internal server error" (a `GraphQLError` thrown on purpose keeps its
 * message) and "Did you mean ...?" suggestions, which spell out the schema, are removed.
 */
import { GraphQLError, type GraphQLErrorExtensions } from "graphql";

/** The `extensions.code` values this server answers with, beside the user's own. */
export const ErrorCode = {
  /** The query text does not parse. */
  ParseFailed: "GRAPHQL_PARSE_FAILED",
  /** The document is not valid against the schema. */
  ValidationFailed: "GRAPHQL_VALIDATION_FAILED",
  /** A variable or argument value has the wrong type. */
  BadUserInput: "BAD_USER_INPUT",
  /** The field needs a signed-in viewer. */
  Unauthenticated: "UNAUTHENTICATED",
  /** The viewer's role is too low for the field. */
  Forbidden: "FORBIDDEN",
  Internal: "INTERNAL_SERVER_ERROR",
  DepthLimit: "DEPTH_LIMIT_EXCEEDED",
  ComplexityLimit: "COMPLEXITY_LIMIT_EXCEEDED",
  AliasLimit: "ALIAS_LIMIT_EXCEEDED",
  TokenLimit: "TOKEN_LIMIT_EXCEEDED",
  PageSizeLimit: "PAGE_SIZE_LIMIT_EXCEEDED",
  IntrospectionDisabled: "INTROSPECTION_DISABLED",
  Timeout: "TIMEOUT",
  PayloadTooLarge: "PAYLOAD_TOO_LARGE",
  /** The request body did not arrive within `bodyTimeout` (HTTP 408). */
  RequestTimeout: "REQUEST_TIMEOUT",
  /** The client spent its rate-limit budget (HTTP 429, with `Retry-After`). */
  RateLimited: "RATE_LIMITED",
  /** WebSocket: one connection has as many operations in progress as it may. */
  OperationLimit: "OPERATION_LIMIT_EXCEEDED",
  /** Never sent: what resolvers see as `signal.reason` when the HTTP client went away. */
  ClientClosedRequest: "CLIENT_CLOSED_REQUEST",
  /** APQ: the hash is not known (yet); send it again with the query. */
  PersistedQueryNotFound: "PERSISTED_QUERY_NOT_FOUND",
  /** The sent query does not hash to the sent `sha256Hash`. */
  PersistedQueryHashMismatch: "PERSISTED_QUERY_HASH_MISMATCH",
  /** An unknown `persistedQuery.version`. */
  PersistedQueryNotSupported: "PERSISTED_QUERY_NOT_SUPPORTED",
  /** Allow-list mode: the query is not one of the registered operations. */
  PersistedQueryNotInList: "PERSISTED_QUERY_NOT_IN_LIST",
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A client-facing error with a code (and, when known, the AST nodes it is about). */
export function codedError(message: string, code: string, nodes?: GraphQLError["nodes"]): GraphQLError {
  return new GraphQLError(message, { nodes: nodes ?? null, extensions: { code } });
}

/** `error` with `code` added when it has none; the rest (locations, path) is kept. */
export function withCode(error: GraphQLError, code: string, message = error.message): GraphQLError {
  // graphql-jit's errors have no `extensions` unless their original error had some.
  const extensions: GraphQLErrorExtensions | undefined = error.extensions;
  const existing = extensions?.["code"];
  if (typeof existing === "string" && message === error.message) return error;
  return rebuilt(error, message, { ...extensions, code: typeof existing === "string" ? existing : code }, error.originalError);
}

/**
 * A new error of `message` in place of `error` (same path and locations). graphql-jit's errors
 * carry their `locations` but not the AST nodes graphql-js would compute them from.
 */
function rebuilt(error: GraphQLError, message: string, extensions: GraphQLErrorExtensions, originalError?: Error): GraphQLError {
  const copy = new GraphQLError(message, {
    nodes: error.nodes ?? null,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError,
    extensions,
  });
  if (copy.locations === undefined && error.locations !== undefined) Object.assign(copy, { locations: error.locations });
  return copy;
}

const SUGGESTION = / ?Did you mean [^?]*\?$/;

/** A message without graphql-js's "Did you mean ...?" tail. */
export function withoutSuggestions(message: string): string {
  return message.replace(SUGGESTION, "");
}

export interface ErrorFormatOptions {
  production: boolean;
  /** Told of every unexpected error before it is masked. */
  onError: (error: unknown) => void;
}

/**
 * The `formatError` of graphql-http and of the WebSocket server. An error with a `path` whose
 * original error is not a `GraphQLError` was thrown by a resolver by accident: it is logged and
 * masked. Request errors of graphql-http (plain `Error`s such as "Unparsable JSON body") are
 * written by the library and safe to show.
 */
export function errorFormatter(options: ErrorFormatOptions): (error: Readonly<GraphQLError | Error>) => GraphQLError | Error {
  return (error) => {
    if (!(error instanceof GraphQLError)) return error;
    const original = error.originalError;
    if (error.path !== undefined && original !== undefined && !(original instanceof GraphQLError)) {
      options.onError(original);
      const message = options.production ? "Internal server error" : original.message;
      return rebuilt(error, message, { code: ErrorCode.Internal });
    }
    if (options.production && SUGGESTION.test(error.message))
      return withCode(error, ErrorCode.BadUserInput, withoutSuggestions(error.message));
    return error;
  };
}
