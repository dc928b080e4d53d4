/**
 * Cross-origin resource sharing (the CORS protocol of the WHATWG Fetch standard), the one
 * implementation behind every HTTP surface of the generated servers: REST (through its `cors`
 * stage), GraphQL over HTTP, gRPC-Web/Connect and SSE. WebSocket upgrades (GraphQL subscriptions,
 * realtime channels) check `Origin` with the same matcher. Every server takes the same `cors: CorsOptions`; each surface adds the methods and
 * headers its protocol needs (`CorsSurface`), so users list only their own extras.
 *
 * - An allowed origin gets `Access-Control-Allow-Origin` (its own origin; `*` only in wildcard
 *   mode), `Access-Control-Expose-Headers`, and with `credentials` `Access-Control-Allow-Credentials`.
 *   Another origin gets no CORS headers, so the browser keeps the response from the page.
 * - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered at once:
 *   204 with the methods and the requested headers that are allowed, and `Max-Age`; a 403 problem
 *   for an origin that is not allowed. Browsers send no credentials on preflights, so nothing else
 *   (authentication, rate limits, body reading) runs for them.
 * - Every response varies by `Origin` unless every origin gets the same `*`.
 * - `*` together with credentials is refused at setup: browsers reject that answer anyway.
 */
import { Buffer } from "node:buffer";

export interface CorsOptions {
  /**
   * Origins allowed to call from a browser: exact origins (`https://app.example.com`, no path),
   * subdomain patterns (`https://*.example.com`: any subdomain, at any depth, with that scheme and
   * port; not `example.com` itself), `"*"` for every origin (without credentials only), or a
   * function deciding per origin. `"null"` (sandboxed frames, `file:`) is never accepted in a list.
   */
  origins: readonly string[] | ((origin: string) => boolean);
  /**
   * Lets pages send cookies or `Authorization` with `credentials: "include"`: adds
   * `Access-Control-Allow-Credentials: true`. Refused together with `"*"`. Default false.
   */
  credentials?: boolean;
  /** Request headers preflights may ask for, beyond the server's own; `"*"` allows any. */
  allowHeaders?: readonly string[];
  /** Response headers scripts may read, beyond the server's own. */
  exposeHeaders?: readonly string[];
  /** Seconds a browser may cache a preflight answer (Chromium caps it at 7200). Default 600. */
  maxAge?: number;
}

/** What one HTTP surface accepts and sends: the lists its preflights and responses start from. */
export interface CorsSurface {
  /** The methods preflights are told about (a route may pass its own). */
  methods: readonly string[];
  /** Request headers the surface's clients send that are not CORS-safelisted. */
  allowHeaders: readonly string[];
  /** Response headers with meaning to the surface's clients (safelisted ones are readable anyway). */
  exposeHeaders: readonly string[];
}

/** A preflight's answer: 204 with the grants, or 403 for an origin that is not allowed. */
export interface PreflightAnswer {
  status: 204 | 403;
  headers: Record<string, string>;
  /** A Problem Details body (RFC 9457) for 403; none for 204. */
  body?: string;
}

/** The request fields CORS looks at (node:http and node:http2 requests both have them). */
export interface CorsRequest {
  method?: string | undefined;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** The response methods `applyCors` uses (node:http and node:http2 responses both have them). */
export interface CorsResponse {
  getHeader(name: string): number | string | string[] | undefined;
  setHeader(name: string, value: string): unknown;
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string): unknown;
}

const PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

export class CorsPolicy {
  /** Whether a browser page of `origin` may read this server's answers. */
  readonly allows: (origin: string) => boolean;
  private readonly wildcard: boolean;
  private readonly credentials: boolean;
  private readonly maxAge: string;
  private readonly methods: string;
  private readonly allowHeaders: ReadonlySet<string>;
  private readonly exposeHeaders: string;
  private readonly withoutOrigin: Readonly<Record<string, string>>;

  /** @throws TypeError for `"*"` with credentials, or a list entry that is not an origin; RangeError for a bad `maxAge`. */
  constructor(options: CorsOptions, surface: CorsSurface) {
    this.credentials = options.credentials ?? false;
    const maxAge = options.maxAge ?? 600;
    if (!Number.isSafeInteger(maxAge) || maxAge < 0) throw new RangeError(`cors: maxAge must be whole seconds, not ${maxAge}`);
    this.maxAge = String(maxAge);
    this.wildcard = Array.isArray(options.origins) && options.origins.includes("*");
    if (this.wildcard && this.credentials) {
      throw new TypeError(
        'cors: origins ["*"] cannot be combined with credentials: browsers reject "Access-Control-Allow-Origin: *" on credentialed requests. List the allowed origins.',
      );
    }
    this.allows = originMatcher(options.origins);
    this.methods = surface.methods.join(", ");
    this.allowHeaders = new Set([...surface.allowHeaders, ...(options.allowHeaders ?? [])].map((name) => name.toLowerCase()));
    this.exposeHeaders = unique([...surface.exposeHeaders, ...(options.exposeHeaders ?? [])]).join(", ");
    // Requests without `Origin` (same-origin pages and non-browser clients, most of them) share one answer.
    this.withoutOrigin = this.wildcard ? {} : { vary: "Origin" };
  }

  /** The CORS headers of an actual (not preflight) response to a request from `origin`. */
  responseHeaders(origin: string | undefined): Readonly<Record<string, string>> {
    if (origin === undefined || !this.allows(origin)) return this.withoutOrigin;
    const headers: Record<string, string> = { "access-control-allow-origin": this.wildcard ? "*" : origin };
    if (this.credentials) headers["access-control-allow-credentials"] = "true";
    if (this.exposeHeaders) headers["access-control-expose-headers"] = this.exposeHeaders;
    // The answer depends on Origin, so caches must keep one copy per origin.
    if (!this.wildcard) headers["vary"] = "Origin";
    return headers;
  }

  /**
   * The answer to a preflight from `origin` asking for `requestedHeaders`, with `methods` (the
   * route's) or the surface's. A method or header that is not allowed still gets 204 with the
   * allowed lists: the browser then refuses the request, and its console names what was missing.
   */
  preflight(origin: string, requestedHeaders: string | undefined, methods?: readonly string[]): PreflightAnswer {
    if (!this.allows(origin)) {
      const body = JSON.stringify({
        type: "about:blank",
        title: "Forbidden",
        status: 403,
        detail: "This origin is not allowed to call the API.",
      });
      return {
        status: 403,
        headers: { "content-type": "application/problem+json", "content-length": String(Buffer.byteLength(body)), vary: PREFLIGHT_VARY },
        body,
      };
    }
    const headers: Record<string, string> = {
      "access-control-allow-origin": this.wildcard ? "*" : origin,
      "access-control-allow-methods": methods ? methods.join(", ") : this.methods,
      "access-control-max-age": this.maxAge,
      vary: PREFLIGHT_VARY,
    };
    if (this.credentials) headers["access-control-allow-credentials"] = "true";
    // Only the requested headers that are allowed: a browser refuses the request if any is missing.
    const requested = (requestedHeaders ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== "");
    const granted = this.allowHeaders.has("*") ? requested : requested.filter((name) => this.allowHeaders.has(name));
    if (granted.length > 0) headers["access-control-allow-headers"] = granted.join(", ");
    return { status: 204, headers };
  }
}

/** Whether `request` is a CORS preflight (an `OPTIONS` without those headers is an ordinary one). */
export function isPreflight(request: CorsRequest): boolean {
  return (
    request.method === "OPTIONS" &&
    request.headers["origin"] !== undefined &&
    request.headers["access-control-request-method"] !== undefined
  );
}

/**
 * CORS for a node:http / node:http2 listener: answers a preflight and returns true, or puts the
 * CORS headers of the actual response on `response` (before the handler writes it) and returns false.
 */
export function applyCors(policy: CorsPolicy, request: CorsRequest, response: CorsResponse, methods?: readonly string[]): boolean {
  const origin = headerValue(request.headers["origin"]);
  if (origin !== undefined && isPreflight(request)) {
    const answer = policy.preflight(origin, headerValue(request.headers["access-control-request-headers"]), methods);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body ?? "");
    return true;
  }
  const headers = policy.responseHeaders(origin);
  for (const name in headers) {
    const value = headers[name]!;
    if (name === "vary") response.setHeader(name, mergeVary(response.getHeader(name), value));
    else response.setHeader(name, value);
  }
  return false;
}

/**
 * Decides per origin, by the rules of `CorsOptions.origins`; list entries are checked once, here.
 *
 * @throws TypeError for an entry that is not an origin or a subdomain pattern.
 */
export function originMatcher(origins: CorsOptions["origins"]): (origin: string) => boolean {
  if (typeof origins === "function") return origins;
  if (origins.includes("*")) return () => true;
  const exact = new Set<string>();
  const patterns: { scheme: string; suffix: string; port: string }[] = [];
  for (const entry of origins) {
    const origin = entry.replace(/\/$/, "").toLowerCase();
    const pattern = /^([a-z][a-z0-9+.-]*:\/\/)\*\.(.+)$/.exec(origin);
    // A pattern is checked as the origin it would be with one concrete subdomain.
    const parsed = parseOrigin(pattern ? `${pattern[1]}x.${pattern[2]}` : origin);
    if (parsed === undefined || parsed.origin !== (pattern ? `${pattern[1]}x.${pattern[2]}` : origin)) {
      throw new TypeError(
        `cors: ${JSON.stringify(entry)} is not an origin (scheme://host[:port], no path) or a subdomain pattern (scheme://*.host[:port]); "null" is never safe to allow`,
      );
    }
    if (pattern) patterns.push({ scheme: parsed.protocol, suffix: `.${parsed.hostname.slice(2)}`, port: parsed.port });
    else exact.add(origin);
  }
  return (origin) => {
    const candidate = origin.toLowerCase();
    if (exact.has(candidate)) return true;
    if (patterns.length === 0) return false;
    const parsed = parseOrigin(candidate);
    // Only a real origin (browsers send it serialized) whose host ends in `.suffix`, with more before it.
    if (parsed === undefined || parsed.origin !== candidate) return false;
    return patterns.some(
      ({ scheme, suffix, port }) =>
        parsed.protocol === scheme && parsed.port === port && parsed.hostname.endsWith(suffix) && parsed.hostname.length > suffix.length,
    );
  };
}

/**
 * Whether a WebSocket upgrade's `Origin` may connect (WebSocket has no same-origin policy: a page
 * of any site may open a socket with the user's cookies). `allows` is `CorsPolicy.allows` or an
 * `originMatcher`; without one only the server's own origin (the `Host` header's) may. A request
 * without `Origin` does not come from a browser page; authentication holds such clients off.
 */
export function upgradeOriginAllowed(request: CorsRequest, allows: ((origin: string) => boolean) | undefined): boolean {
  const origin = headerValue(request.headers["origin"]);
  if (origin === undefined) return true;
  if (allows) return allows(origin);
  return parseOrigin(origin)?.host === headerValue(request.headers["host"])?.toLowerCase();
}

function parseOrigin(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** One header's value; repeated fields joined as one list. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

function unique(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `Vary` with `fields` added to what it lists already. */
export function mergeVary(existing: number | string | string[] | undefined, fields: string): string {
  if (existing === undefined) return fields;
  const current = Array.isArray(existing) ? existing.join(", ") : String(existing);
  const have = current.toLowerCase().split(/\s*,\s*/);
  const missing = fields.split(/\s*,\s*/).filter((field) => !have.includes(field.toLowerCase()));
  return missing.length > 0 ? [current, ...missing].join(", ") : current;
}
