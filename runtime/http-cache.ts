/**
 * Conditional GETs for the REST client's `cache` option: `etagCache()` remembers the `ETag` and
 * the body of each textual 2xx answer per URL and credentials, sends `If-None-Match` on the next
 * GET of that URL, and answers a `304` with the remembered body (status and headers of the
 * remembered answer, updated by the 304's). Only apps that pass it bundle it.
 */
import type { Fetch } from "./client-common.js";
import type { HttpCache } from "./http.js";

/** Fields describing a body, which a 304 (no body) does not update. */
const BODY_FIELDS = new Set(["content-length", "content-type", "content-encoding"]);

/**
 * What the cache stores for one URL.
 * @public
 */
export interface CachedResponse {
  etag: string;
  status: number;
  headers: Array<[string, string]>;
  /** The response body as text (only textual bodies are cached). */
  body: string;
}

/**
 * Storage of remembered answers. `MemoryCache` is the default; any async store fits.
 * @public
 */
export interface ResponseCache {
  get(key: string): CachedResponse | undefined | Promise<CachedResponse | undefined>;
  set(key: string, value: CachedResponse): void | Promise<void>;
}

/**
 * An in-memory `ResponseCache` that forgets the least recently used entry beyond `maxEntries`.
 * @public
 */
export class MemoryCache implements ResponseCache {
  readonly #entries = new Map<string, CachedResponse>();

  constructor(readonly maxEntries = 500) {}

  get(key: string): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, value: CachedResponse): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.maxEntries) break;
      this.#entries.delete(oldest);
    }
  }
}

function entries(headers: Headers): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  headers.forEach((value, name) => list.push([name, value]));
  return list;
}

/**
 * The `cache` option: conditional GETs against `store` (default: a `MemoryCache` of 500 URLs).
 * @public
 */
export function etagCache(store: ResponseCache = new MemoryCache()): HttpCache {
  return {
    async fetch(request: Request, next: Fetch): Promise<Response> {
      const key = `${request.url} ${request.headers.get("Authorization") ?? ""}`;
      const cached = request.headers.has("If-None-Match") ? undefined : await store.get(key);
      if (cached) request.headers.set("If-None-Match", cached.etag);
      const response = await next(request);
      if (response.status === 304 && cached) {
        const headers = new Headers(cached.headers);
        // The remembered body keeps its own length, type and encoding (RFC 9111 §3.2): a server or
        // adapter that puts a default Content-Type on every bodiless answer must not change it.
        response.headers.forEach((value, name) => {
          if (!BODY_FIELDS.has(name)) headers.set(name, value);
        });
        await store.set(key, { ...cached, headers: entries(headers) });
        return new Response(cached.body, { status: cached.status, headers });
      }
      const etag = response.headers.get("ETag");
      const textual = /json|^text\/|xml/i.test(response.headers.get("Content-Type") ?? "");
      if (!response.ok || !etag || !textual || !response.body || /\bno-store\b/i.test(response.headers.get("Cache-Control") ?? ""))
        return response;
      // Kept as it is read: a body read in part only (too large, aborted) is never stored.
      const decoder = new TextDecoder();
      let body = "";
      const keep = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          body += decoder.decode(chunk, { stream: true });
          controller.enqueue(chunk);
        },
        async flush() {
          await store.set(key, { etag, status: response.status, headers: entries(response.headers), body: body + decoder.decode() });
        },
      });
      return new Response(response.body.pipeThrough(keep), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  };
}
