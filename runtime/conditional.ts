/**
 * Conditional requests and caching headers (RFC 9110 section 13, RFC 9111):
 * - GET/HEAD: an `ETag` on every successful response (the handler's, or a hash of the body),
 *   `Cache-Control` per operation, and 304 with no body when `If-None-Match` or
 *   `If-Modified-Since` shows the client already holds the current representation;
 * - PUT/PATCH/DELETE of operations with `ifMatch`: 428 when a required `If-Match` is missing, 412
 *   when it names another version than the current one (lost-update protection).
 *
 * The stage cannot know a resource's current version before the handler loads it, so `If-Match`
 * is compared by `assertIfMatch(request, currentEtag)`, which the handler (or the `currentEtag`
 * option) calls with the ETag of what it loaded.
 */
import * as crypto from "node:crypto";
import { splitStage, type SplitStageFunction } from "./server-stage.js";
import { HttpProblem } from "./server-types.js";
import type { ServerRequest, ServerResponse } from "./server-types.js";

export type EtagKind = "strong" | "weak";

export interface ConditionalOptions {
  /**
   * The ETag computed when a handler sets none: `strong` (default) — the body's hash changes with
   * every byte, and only strong tags can ever satisfy `If-Match` — or `weak` (`W/"..."`, for
   * servers whose bytes may differ for the same content, e.g. after compression); `false` computes
   * none.
   */
  etag?: EtagKind | false;
  /**
   * `Cache-Control` of successful GET/HEAD responses when the operation declares none and the
   * handler sets none. Default `"private, no-cache"`: browsers may keep the response but must
   * revalidate it (cheap with the ETag: a 304), and shared caches never store data that may be
   * per-user.
   */
  defaultCacheControl?: string;
  /**
   * Loads the current ETag of the resource a PUT/PATCH/DELETE targets, for checking `If-Match`
   * before the handler runs (`undefined` = the resource does not exist). Without it the handler
   * calls `assertIfMatch` itself, usually the better place: it loads the resource anyway, and can
   * check and write in one transaction.
   */
  currentEtag?: (request: ServerRequest) => Promise<string | undefined>;
}

/**
 * The ETag of a body: a base64url SHA-256 of its bytes, quoted, `W/`-prefixed when weak. Handlers
 * use it to compute the current ETag of a resource the same way a GET computes it.
 * @public
 */
export function computeEtag(body: Uint8Array | string, kind: EtagKind = "strong"): string {
  const tag = `"${sha256(body)}"`;
  return kind === "weak" ? `W/${tag}` : tag;
}

/**
 * Base64url SHA-256: the one-shot `crypto.hash` where Node has it (20.12 and later; about a third
 * of the CPU of a `Hash` object for a small body), `createHash` before. A namespace import, so
 * that an older Node still loads the module.
 */
const sha256: (data: Uint8Array | string) => string =
  typeof crypto.hash === "function"
    ? (data) => crypto.hash("sha256", data, "base64url")
    : (data) => crypto.createHash("sha256").update(data).digest("base64url");

/** Requests whose `If-Match` was compared, to warn about operations that never compare it. */
const checked = new WeakSet<ServerRequest>();
const warned = new Set<string>();

/**
 * Compares the request's `If-Match` with the current ETag of the target resource (strong
 * comparison, as RFC 9110 requires; `*` matches any existing resource) and throws 412 when it does
 * not match, or 428 when the operation requires `If-Match` and none was sent. Without `If-Match`
 * on an operation where it is optional, it does nothing.
 *
 * @param currentEtag the resource's ETag now, quoted or bare; `undefined` when it does not exist
 */
export function assertIfMatch(request: ServerRequest, currentEtag: string | undefined): void {
  checked.add(request);
  const value = headerValue(request.headers["if-match"]);
  if (value === undefined) {
    if (request.operation.ifMatch === "required") {
      throw new HttpProblem(428, "Precondition Required", {
        detail: "This operation requires an If-Match header with the ETag of the version being changed.",
      });
    }
    return;
  }
  const current = currentEtag === undefined ? undefined : normalizeEtag(currentEtag);
  const matches = current !== undefined && entityTags(value).some((tag) => tag === "*" || strongMatch(tag, current));
  if (!matches) {
    throw new HttpProblem(412, "Precondition Failed", {
      detail: "The resource changed since the version in If-Match; fetch it again and reapply the change.",
    });
  }
}

/**
 * The conditional-request stage. A handler may set `etag`, `last-modified` and `cache-control`
 * response headers itself; its own values win over computed and per-operation ones. HEAD responses
 * must still carry the GET body when they pass this stage (the ETag is computed from it); the core
 * drops the body when it writes a HEAD response.
 */
export function conditional(options: ConditionalOptions = {}): SplitStageFunction {
  const kind = options.etag ?? "strong";
  const defaultCacheControl = options.defaultCacheControl ?? "private, no-cache";
  const { currentEtag } = options;

  /** ETag, Cache-Control and the 304 decision for a GET/HEAD response. */
  function read(request: ServerRequest, response: ServerResponse): ServerResponse {
    if (response.status < 200 || response.status >= 300) return response;
    // Completed in place: the response belongs to this request alone (stage contract).
    const headers = response.headers;
    let etag = firstValue(headers["etag"]);
    if (etag !== undefined) {
      etag = headers["etag"] = normalizeEtag(etag);
    } else if (kind !== false && response.body !== undefined) {
      etag = headers["etag"] = computeEtag(response.body, kind);
    }
    headers["cache-control"] ??= request.operation.cacheControl ?? defaultCacheControl;
    if (!notModified(request, etag, firstValue(headers["last-modified"]))) return response;
    // RFC 9110 15.4.5: a 304 keeps the validators and caching headers but describes no content.
    const kept: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!name.startsWith("content-") || name === "content-location") kept[name] = value;
    }
    return { status: 304, headers: kept };
  }

  return splitStage({
    before: (request) => {
      const mode = ifMatchMode(request);
      if (mode === undefined) return undefined;
      const sent = request.headers["if-match"] !== undefined;
      if (!sent && mode === "required") assertIfMatch(request, undefined);
      if (!sent || !currentEtag) return undefined;
      return currentEtag(request).then((etag) => void assertIfMatch(request, etag));
    },
    after: (request, response) => {
      if (request.method === "GET" || request.method === "HEAD") return read(request, response);
      if (ifMatchMode(request) !== undefined && request.headers["if-match"] !== undefined) warnUnchecked(request, response);
      return response;
    },
  });

  /** Warns once per operation when `If-Match` was sent but nothing compared it. */
  function warnUnchecked(request: ServerRequest, response: ServerResponse): void {
    if (!checked.has(request) && response.status < 300 && !warned.has(request.operation.id)) {
      warned.add(request.operation.id);
      process.emitWarning(
        `operation ${request.operation.id} received If-Match, but neither the currentEtag option nor the handler (assertIfMatch) compared it`,
        { code: "CODEGEN_IF_MATCH_UNCHECKED" },
      );
    }
  }
}

/** How a write checks `If-Match`; undefined for reads and operations without `ifMatch`. */
function ifMatchMode(request: ServerRequest): "optional" | "required" | undefined {
  const method = request.method;
  return method === "GET" || method === "HEAD" || method === "OPTIONS" ? undefined : request.operation.ifMatch;
}

/** Whether the client's cached copy is current (GET/HEAD; RFC 9110 13.2.2 order). */
function notModified(request: ServerRequest, etag: string | undefined, lastModified: string | undefined): boolean {
  const ifNoneMatch = headerValue(request.headers["if-none-match"]);
  if (ifNoneMatch !== undefined) {
    // Weak comparison: W/"x" and "x" are the same version for a cache.
    return entityTags(ifNoneMatch).some((tag) => tag === "*" || (etag !== undefined && opaque(tag) === opaque(etag)));
  }
  const ifModifiedSince = headerValue(request.headers["if-modified-since"]);
  if (ifModifiedSince === undefined || lastModified === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  const modified = Date.parse(lastModified);
  // An unparsable date, or one in the future, is ignored (RFC 9110 13.1.3).
  if (Number.isNaN(since) || Number.isNaN(modified) || since > Date.now()) return false;
  // HTTP dates have whole seconds.
  return Math.floor(modified / 1000) <= Math.floor(since / 1000);
}

/** The entity tags of an `If-Match`/`If-None-Match` list; bare tokens are taken as if quoted. */
function entityTags(value: string): string[] {
  return value.match(/(?:W\/)?"[^"]*"|[^\s,"]+/g) ?? [];
}

function opaque(tag: string): string {
  return tag.replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
}

function strongMatch(tag: string, current: string): boolean {
  return !tag.startsWith("W/") && !current.startsWith("W/") && opaque(tag) === opaque(current);
}

/** Quotes a bare ETag a handler set (`abc` → `"abc"`); well-formed ones are kept. */
function normalizeEtag(etag: string): string {
  const trimmed = etag.trim();
  return /^(?:W\/)?"[^"]*"$/.test(trimmed) ? trimmed : `"${trimmed.replace(/"/g, "")}"`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
