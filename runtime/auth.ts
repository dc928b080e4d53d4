/**
 * Authentication and authorization from the OpenAPI `securitySchemes` and each operation's
 * `security` (HTTP authentication: RFC 9110 section 11): no or rejected credentials → 401 with a
 * `WWW-Authenticate` challenge; authenticated but not permitted → 403. The stage only reads
 * credentials off the request; what makes them valid (token signatures, password hashes, key
 * lookups) is the application's `verify`.
 */
import { Buffer } from "node:buffer";
import { splitStage, type SplitStageFunction } from "./server-stage.js";
import { HttpProblem } from "./server-types.js";
import type { ServerRequest } from "./server-types.js";

/**
 * An OpenAPI Security Scheme Object, as the generator copies it from `components.securitySchemes`.
 * `http` supports the `bearer` and `basic` schemes; `oauth2` and `openIdConnect` carry bearer tokens.
 */
export type SchemeSpec =
  | { type: "http"; scheme: string; bearerFormat?: string; description?: string }
  | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string; description?: string }
  | { type: "oauth2"; flows?: unknown; description?: string }
  | { type: "openIdConnect"; openIdConnectUrl?: string; description?: string };

/**
 * Credentials found on a request for the security scheme named `scheme`.
 * @public
 */
export type Credentials =
  | { scheme: string; type: "bearer"; token: string }
  | { scheme: string; type: "basic"; username: string; password: string }
  | { scheme: string; type: "apiKey"; apiKey: string };

export interface AuthenticateOptions<Principal> {
  /** The API's security schemes by name (the names operations use in `security`). */
  schemes: Readonly<Record<string, SchemeSpec>>;
  /**
   * Checks one set of credentials: returns who they belong to, or `undefined` to reject them
   * (→ 401). Throw an `HttpProblem` (e.g. 403 for a blocked account) to answer with it instead.
   */
  verify: (credentials: Credentials, request: ServerRequest) => Promise<Principal | undefined>;
  /**
   * Decides whether an authenticated principal may run the request's operation
   * (`request.operation.id`); false → 403. Default: everyone authenticated may.
   */
  authorize?: (principal: Principal, request: ServerRequest) => boolean | Promise<boolean>;
  /** The `realm` of the challenges. Default `"api"`. */
  realm?: string;
}

type Kind = "bearer" | "basic" | "apiKey";

/** Credentials of one scheme: found, absent, or present but unreadable (counts as rejected). */
type Extracted = Credentials | undefined | "malformed";

/**
 * The authentication stage. `request.operation.security` lists alternatives (any one suffices),
 * each a set of schemes that must all verify; an empty list makes the operation public, and an
 * empty alternative (`security: [{}]` in OpenAPI) makes credentials optional. The first alternative
 * whose credentials all verify wins: its first scheme's principal becomes `request.principal`, then
 * `authorize` runs. Credentials that were sent but rejected answer 401 even where anonymous access
 * is allowed, so a client with an expired token learns it instead of silently getting less.
 *
 * @throws TypeError at setup for a scheme this stage cannot read (e.g. `http` `digest`).
 */
export function authenticate<Principal>(options: AuthenticateOptions<Principal>): SplitStageFunction {
  const realm = quote(options.realm ?? "api");
  const kinds = new Map<string, Kind>();
  for (const [name, spec] of Object.entries(options.schemes)) kinds.set(name, schemeKind(name, spec));

  function kindOf(name: string): Kind {
    const kind = kinds.get(name);
    if (kind === undefined) throw new Error(`authenticate: operation security names ${JSON.stringify(name)}, which is not in schemes`);
    return kind;
  }

  /** The `WWW-Authenticate` value for the schemes of `security`, marking rejected bearer tokens. */
  function challenges(security: string[][], rejected: ReadonlySet<string>): string {
    const seen = new Set<string>();
    for (const name of security.flat()) {
      const spec = options.schemes[name];
      const kind = kindOf(name);
      if (kind === "bearer") {
        seen.add(rejected.has(name) ? `Bearer realm=${realm}, error="invalid_token"` : `Bearer realm=${realm}`);
      } else if (kind === "basic") {
        seen.add(`Basic realm=${realm}, charset="UTF-8"`);
      } else if (spec?.type === "apiKey") {
        // No registered challenge exists for API keys; this one at least says where the key goes.
        seen.add(`ApiKey realm=${realm}, in=${quote(spec.in)}, name=${quote(spec.name)}`);
      }
    }
    // Any bearer challenge with an error makes the plain one redundant.
    if (seen.has(`Bearer realm=${realm}, error="invalid_token"`)) seen.delete(`Bearer realm=${realm}`);
    return [...seen].join(", ");
  }

  /** Whether `principal` may run the request; `authorize` is awaited only when it returns a promise. */
  async function authorized(principal: Principal, request: ServerRequest): Promise<boolean> {
    if (!options.authorize) return true;
    const allowed = options.authorize(principal, request);
    return typeof allowed === "boolean" ? allowed : await allowed;
  }

  function forbidden(bearer: boolean): HttpProblem {
    return new HttpProblem(403, "Forbidden", {
      detail: "The credentials are valid but do not allow this operation.",
      headers: bearer ? { "www-authenticate": `Bearer realm=${realm}, error="insufficient_scope"` } : {},
    });
  }

  function unauthorized(security: string[][], rejected: ReadonlySet<string>): HttpProblem {
    return new HttpProblem(401, "Unauthorized", {
      detail: rejected.size > 0 ? "The credentials sent were not accepted." : "This operation requires authentication.",
      headers: { "www-authenticate": challenges(security, rejected) },
    });
  }

  /**
   * The common case, `security: [{ scheme: [] }]`: the same decisions without the bookkeeping of
   * alternatives, and a promise only where `verify` or `authorize` returns one.
   */
  function single(request: ServerRequest, security: string[][], name: string): undefined | Promise<undefined> {
    const kind = kindOf(name);
    const credentials = extract(name, kind, options.schemes[name], request);
    if (credentials === undefined) throw unauthorized(security, NONE);
    if (credentials === "malformed") throw unauthorized(security, new Set([name]));
    // Declared as a promise, but a `verify` that answers at once need not cost a microtask turn.
    const verified: Principal | undefined | PromiseLike<Principal | undefined> = options.verify(credentials, request);
    const admit = (principal: Principal | undefined): undefined | Promise<undefined> => {
      if (principal === undefined) throw unauthorized(security, new Set([name]));
      request.principal = principal;
      if (!options.authorize) return undefined;
      const allowed = options.authorize(principal, request);
      if (typeof allowed !== "boolean") return allowed.then((yes) => permit(yes, kind));
      return permit(allowed, kind);
    };
    return isThenable(verified) ? Promise.resolve(verified).then(admit) : admit(verified);
  }

  function permit(allowed: boolean, kind: Kind): undefined {
    if (!allowed) throw forbidden(kind === "bearer");
    return undefined;
  }

  return splitStage({
    before: (request) => {
      const security = request.operation.security;
      if (security.length === 0) return undefined;
      const only = security.length === 1 && security[0]?.length === 1 ? security[0][0] : undefined;
      return only !== undefined ? single(request, security, only) : any(request, security);
    },
  });

  /** Alternatives of scheme sets: the first whose credentials all verify wins. */
  async function any(request: ServerRequest, security: string[][]): Promise<undefined> {
    const extracted = new Map<string, Extracted>();
    const verified = new Map<string, Principal | undefined>();
    const rejected = new Set<string>();
    let anonymous = false;

    for (const alternative of security) {
      if (alternative.length === 0) {
        anonymous = true;
        continue;
      }
      const principals: Principal[] = [];
      let satisfied = true;
      for (const name of alternative) {
        if (!extracted.has(name)) extracted.set(name, extract(name, kindOf(name), options.schemes[name], request));
        const credentials = extracted.get(name);
        if (credentials === "malformed") rejected.add(name);
        if (credentials === undefined || credentials === "malformed") {
          satisfied = false;
          break;
        }
        if (!verified.has(name)) verified.set(name, await options.verify(credentials, request));
        const result = verified.get(name);
        if (result === undefined) {
          rejected.add(name);
          satisfied = false;
          break;
        }
        principals.push(result);
      }
      const principal = principals[0];
      if (!satisfied || principal === undefined) continue;

      request.principal = principal;
      if (options.authorize && !(await authorized(principal, request)))
        throw forbidden(alternative.some((name) => kindOf(name) === "bearer"));
      return undefined;
    }

    if (anonymous && rejected.size === 0) return undefined;
    throw unauthorized(security, rejected);
  }
}

/** A promise or another thenable. */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

const NONE: ReadonlySet<string> = new Set();

function schemeKind(name: string, spec: SchemeSpec): Kind {
  switch (spec.type) {
    case "http": {
      const scheme = spec.scheme.toLowerCase();
      if (scheme === "bearer" || scheme === "basic") return scheme;
      throw new TypeError(
        `authenticate: scheme ${JSON.stringify(name)} uses HTTP ${JSON.stringify(spec.scheme)}; only bearer and basic are supported`,
      );
    }
    case "apiKey":
      if (!["header", "query", "cookie"].includes(spec.in) || !spec.name) {
        throw new TypeError(`authenticate: apiKey scheme ${JSON.stringify(name)} needs a name and in: header, query or cookie`);
      }
      return "apiKey";
    case "oauth2":
    case "openIdConnect":
      return "bearer";
    default:
      throw new TypeError(`authenticate: scheme ${JSON.stringify(name)} has an unsupported type`);
  }
}

/** Reads the credentials of one scheme off the request. */
function extract(name: string, kind: Kind, spec: SchemeSpec | undefined, request: ServerRequest): Extracted {
  if (kind === "apiKey") {
    if (spec?.type !== "apiKey") return undefined;
    const apiKey =
      spec.in === "header"
        ? headerValue(request.headers[spec.name.toLowerCase()])
        : spec.in === "query"
          ? (request.url.searchParams.get(spec.name) ?? undefined)
          : cookie(headerValue(request.headers["cookie"]), spec.name);
    return apiKey ? { scheme: name, type: "apiKey", apiKey } : undefined;
  }

  const authorization = /^\s*(\S+)(?:\s+(.*?))?\s*$/.exec(headerValue(request.headers["authorization"]) ?? "");
  if (authorization?.[1]?.toLowerCase() !== kind) return undefined;
  const value = authorization[2] ?? "";
  if (kind === "bearer") {
    // RFC 6750 b64token; anything else cannot be a token this API issued.
    return /^[A-Za-z0-9\-._~+/]+=*$/.test(value) ? { scheme: name, type: "bearer", token: value } : "malformed";
  }
  if (!/^[A-Za-z0-9+/]+=*$/.test(value)) return "malformed";
  // RFC 7617 with charset="UTF-8": the user-id ends at the first colon; the password may hold more.
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "malformed";
  return { scheme: name, type: "basic", username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The value of cookie `name` in a `Cookie` header, without surrounding quotes. */
function cookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
    return pair
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
  }
  return undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

/** An RFC 9110 quoted-string. */
function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, "\\$&")}"`;
}
