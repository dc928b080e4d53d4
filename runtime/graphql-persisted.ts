/**
 * Persisted queries: a request may name its query instead of sending it.
 *
 * - `queryId` (the conventions' persisted form) and `documentId` (GraphQL over HTTP's, optionally
 *   prefixed `sha256:`) name an operation registered at build time (`persistedOperations` of
 *   operations.ts, keyed by the SHA-256 of its text).
 * - Automatic persisted queries (`extensions.persistedQuery.sha256Hash`, Apollo's protocol): an
 *   unknown hash is answered PERSISTED_QUERY_NOT_FOUND; the client then sends the hash with the
 *   query, the server checks the hash and remembers the query (in a bounded LRU).
 *
 * In allow-list mode only registered operations run: nothing is remembered, and a query sent as
 * text runs only when it is, character for character, a registered one.
 */
import { createHash } from "node:crypto";
import { ErrorCode, codedError } from "./graphql-errors.js";

export interface PersistedOptions {
  /** Allow-list mode. */
  only: boolean;
  /** Whether APQ may register new queries (never in allow-list mode). */
  automatic: boolean;
  /** Most queries APQ remembers. */
  automaticEntries: number;
}

/** The request fields persisted queries use, after graphql-http's own parsing of the body or URL. */
export interface PersistedRequest {
  query?: unknown;
  queryId?: unknown;
  documentId?: unknown;
  extensions?: unknown;
}

export class PersistedQueries {
  private readonly registered: ReadonlyMap<string, string>;
  private readonly texts: ReadonlySet<string>;
  private readonly remembered = new Map<string, string>();

  constructor(
    operations: Readonly<Record<string, string>>,
    private readonly options: PersistedOptions,
  ) {
    this.registered = new Map(Object.entries(operations));
    this.texts = new Set(this.registered.values());
  }

  /** Whether a query may run in allow-list mode. */
  allows(query: string): boolean {
    return !this.options.only || this.texts.has(query);
  }

  /**
   * The query text `request` stands for: its own `query` (checked against an APQ hash when it
   * sends one), or the registered/remembered text of its id. Throws a `GraphQLError` with a code.
   */
  resolve(request: PersistedRequest): unknown {
    const apq = persistedQueryOf(request.extensions);
    if (typeof request.query === "string") {
      if (apq) this.remember(apq, request.query);
      return request.query;
    }
    const id = apq ?? idOf(request.queryId) ?? idOf(request.documentId);
    if (id === undefined) return request.query;
    const text = this.registered.get(id) ?? this.recall(id);
    if (text === undefined) throw codedError("PersistedQueryNotFound", ErrorCode.PersistedQueryNotFound);
    return text;
  }

  private remember(hash: string, query: string): void {
    if (createHash("sha256").update(query).digest("hex") !== hash) {
      throw codedError("provided sha does not match query", ErrorCode.PersistedQueryHashMismatch);
    }
    if (!this.options.automatic || this.options.only || this.registered.has(hash)) return;
    this.remembered.delete(hash);
    this.remembered.set(hash, query);
    if (this.remembered.size > this.options.automaticEntries) {
      const eldest = this.remembered.keys().next();
      if (!eldest.done) this.remembered.delete(eldest.value);
    }
  }

  private recall(hash: string): string | undefined {
    const text = this.remembered.get(hash);
    if (text !== undefined) {
      this.remembered.delete(hash);
      this.remembered.set(hash, text);
    }
    return text;
  }
}

/** The hash of `extensions.persistedQuery`, when the request uses APQ. */
function persistedQueryOf(extensions: unknown): string | undefined {
  if (typeof extensions !== "object" || extensions === null) return undefined;
  const persisted = (extensions as { persistedQuery?: unknown }).persistedQuery;
  if (persisted === undefined) return undefined;
  if (typeof persisted !== "object" || persisted === null)
    throw codedError("extensions.persistedQuery must be an object.", ErrorCode.BadUserInput);
  const { version, sha256Hash } = persisted as { version?: unknown; sha256Hash?: unknown };
  if (version !== 1) throw codedError("Unsupported persisted query version; use 1.", ErrorCode.PersistedQueryNotSupported);
  if (typeof sha256Hash !== "string") throw codedError("persistedQuery.sha256Hash must be a string.", ErrorCode.BadUserInput);
  return sha256Hash.toLowerCase();
}

function idOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return value.startsWith("sha256:") ? value.slice("sha256:".length) : value;
}
