/**
 * What the TanStack Query options of a GraphQL API (`query.ts`) need of the client: a result with
 * errors becomes a rejection, because TanStack Query knows success and failure, not partial
 * success. The partial data stays on the error (`GraphQLResponseError.data`), as graphql-request
 * and Apollo Client's default error policy keep it.
 */
import { ClientError } from "./client-common.js";
import type { GraphQLRequestError, GraphQLResult, GraphQLResultError } from "./graphql-client.js";

/**
 * The server answered with GraphQL errors (`errors` is not empty, or there is no `data`).
 * @public
 */
export class GraphQLResponseError<Data = unknown> extends ClientError {
  override readonly name = "GraphQLResponseError";
  readonly kind = "response";
  /** The answer's `errors`, in the server's order. */
  readonly errors: readonly GraphQLResultError[];
  /** The fields that did resolve (a failed field is null), or null when nothing was executed. */
  readonly data: Data | null;

  constructor(operation: string, result: GraphQLResult<Data>) {
    const first = result.errors[0]?.message ?? "the response has no data";
    const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more)` : "";
    super(operation, `${operation}: ${first}${more}`);
    this.errors = result.errors;
    this.data = result.data;
  }
}

/**
 * What a query or mutation of `query.ts` fails with: no GraphQL response, or one with errors.
 * @public
 */
export type GraphQLQueryError<Data = unknown> = GraphQLRequestError | GraphQLResponseError<Data>;

/** The data of `result`, which must have no errors. */
export function resultData<Data>(operation: string, result: GraphQLResult<Data>): Data {
  if (result.errors.length > 0 || result.data === null) throw new GraphQLResponseError(operation, result);
  return result.data;
}
