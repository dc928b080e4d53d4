/**
 * The REST server's CORS stage (the CORS protocol of the WHATWG Fetch standard) over the shared
 * `CorsPolicy`. This stage runs first, so it also puts its headers on the problems thrown by
 * later stages: without them a browser would hide a 401 or 429 from the page behind a generic
 * network error.
 */
import { CorsPolicy, isPreflight, mergeVary, type CorsOptions, type CorsSurface } from "./cors-policy.js";
import { splitStage, type SplitStageFunction } from "./server-stage.js";
import { HttpProblem } from "./server-types.js";
import type { ServerRequest, ServerResponse } from "./server-types.js";

export type { CorsOptions } from "./cors-policy.js";

/** Request headers a preflight may ask for by default: those the generated client sends. */
export const DEFAULT_ALLOW_HEADERS: readonly string[] = [
  "Authorization",
  "Content-Type",
  "Idempotency-Key",
  "If-Match",
  "If-None-Match",
  "If-Modified-Since",
  "Trace-Id",
];

/**
 * Response headers scripts may read by default: the ones the conventions give meaning to (the
 * CORS-safelisted ones, such as `Cache-Control` and `Last-Modified`, are readable anyway).
 */
export const DEFAULT_EXPOSE_HEADERS: readonly string[] = [
  "Trace-Id",
  "ETag",
  "Location",
  "Link",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
  "Idempotent-Replayed",
  "WWW-Authenticate",
];

/** Methods a preflight is told about when neither `allowMethods` nor the operation lists them. */
const DEFAULT_METHODS: readonly string[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** What REST clients send and read, beyond the safelisted headers. */
export const REST_CORS: CorsSurface = {
  methods: DEFAULT_METHODS,
  allowHeaders: DEFAULT_ALLOW_HEADERS,
  exposeHeaders: DEFAULT_EXPOSE_HEADERS,
};

export interface RestCorsOptions extends CorsOptions {
  /**
   * The methods of the preflighted path. Default: the `allow` list of the request's operation when
   * the server core provides one, else GET, HEAD, POST, PUT, PATCH and DELETE.
   */
  allowMethods?: (request: ServerRequest) => readonly string[];
}

/**
 * The CORS stage: `CorsPolicy` (runtime/cors-policy.ts, shared by every style) on the stage
 * contract. A preflight is answered here without running later stages; a refused one is a 403
 * problem. The headers also go on problems thrown by later stages.
 *
 * @throws TypeError at setup for `origins: ["*"]` with credentials, or an origin that is not one.
 */
export function cors(options: RestCorsOptions): SplitStageFunction {
  const policy = new CorsPolicy(options, REST_CORS);
  const allowMethods = options.allowMethods ?? operationMethods;
  const headersOf = (request: ServerRequest) => policy.responseHeaders(headerValue(request.headers["origin"]));

  return splitStage({
    before: (request) => {
      const origin = headerValue(request.headers["origin"]);
      return origin !== undefined && isPreflight(request) ? preflight(request, origin) : undefined;
    },
    after: (request, response) => {
      // The response belongs to this request alone (stage contract): completed in place, not copied.
      mergeHeaders(response.headers, headersOf(request));
      return response;
    },
    failed: (request, problem) => mergeHeaders(problem.headers, headersOf(request)),
  });

  /** A preflight is answered here, without running later stages. */
  function preflight(request: ServerRequest, origin: string): ServerResponse {
    const answer = policy.preflight(origin, headerValue(request.headers["access-control-request-headers"]), allowMethods(request));
    if (answer.status === 403) {
      // `!`: CorsPolicy's 403 answer always carries Vary.
      throw new HttpProblem(403, "Forbidden", {
        detail: "This origin is not allowed to call the API.",
        headers: { vary: answer.headers["vary"]! },
      });
    }
    return { status: 204, headers: answer.headers };
  }
}

/** The `allow` list the server core may put on an operation (the methods of its path). */
function operationMethods(request: ServerRequest): readonly string[] {
  const operation = request.operation;
  if ("allow" in operation && Array.isArray(operation.allow)) {
    const methods = operation.allow.filter((method: unknown): method is string => typeof method === "string");
    if (methods.length > 0) return methods;
  }
  return DEFAULT_METHODS;
}

/** One header's value; repeated fields joined as one list. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Adds `extra` to `target`, appending to an existing `Vary` rather than replacing it. */
function mergeHeaders(target: Record<string, string | string[]>, extra: Readonly<Record<string, string>>): void {
  for (const name in extra) {
    const value = extra[name]!;
    const existing = target[name];
    target[name] = name === "vary" && existing !== undefined ? mergeVary(existing, value) : value;
  }
}
