/**
 * Persisted operations for the GraphQL client's `persisted` option: the operation goes by its id
 * (the SHA-256 of its text, as generated in `operations.ts`) instead of its text. Only apps that
 * pass one of these bundle this module.
 */
import type { GraphQLResult, PersistedQueries } from "./graphql-client.js";

/**
 * `{ queryId, variables, operationName }` and no text: for servers that run only the operations
 * they know (an allow-list, such as the generated server's `persistedOperations`).
 * @public
 */
export function persistedQueryIds(): PersistedQueries {
  return { send: (operation, payload, get, send) => send({ ...payload, queryId: operation.id }, get) };
}

/** `missing` when the server does not know the hash yet; `unsupported` when it has no APQ. */
function persistedQueryMiss(result: GraphQLResult<unknown>): "missing" | "unsupported" | undefined {
  if (result.data !== null) return undefined;
  for (const error of result.errors) {
    const code = error.extensions?.["code"];
    if (error.message === "PersistedQueryNotFound" || code === "PERSISTED_QUERY_NOT_FOUND") return "missing";
    if (error.message === "PersistedQueryNotSupported" || code === "PERSISTED_QUERY_NOT_SUPPORTED") return "unsupported";
  }
  return undefined;
}

/**
 * Automatic Persisted Queries (Apollo's protocol): the SHA-256 hash in `extensions.persistedQuery`
 * first, and the text too only when the server answers `PersistedQueryNotFound`. A server that
 * answers `PersistedQueryNotSupported` gets the text at once from then on.
 * @public
 */
export function automaticPersistedQueries(): PersistedQueries {
  let supported = true;
  return {
    async send(operation, payload, get, send) {
      const extensions = { persistedQuery: { version: 1, sha256Hash: operation.id } };
      if (supported) {
        const hashed = await send({ ...payload, extensions }, get);
        const miss = persistedQueryMiss(hashed);
        if (miss === undefined) return hashed;
        if (miss === "unsupported") supported = false;
      }
      // The text goes by POST: a query in the URL may be too long, and only the hashed GET is cacheable.
      return send({ ...payload, query: operation.document, ...(supported ? { extensions } : {}) }, false);
    },
  };
}
