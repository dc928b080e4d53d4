/**
 * How each kind of OpenAPI security scheme puts its credential in a request. The generated client
 * names the ones its API declares (`securitySchemes = { bearerAuth: bearer }`), so a bundle holds
 * only those. mutualTLS has none: it is configured on the connection (a custom `fetch`).
 */
import type { BasicCredentials, SecuritySchemeSpec } from "./http.js";
import { appendCookie, encode } from "./http.js";

/** `Authorization: Bearer <token>`: HTTP `bearer`, OAuth 2 and OpenID Connect. */
export const bearer: SecuritySchemeSpec = (value, headers) => headers.set("Authorization", `Bearer ${String(value)}`);

/** `Authorization: Basic <base64 of user:password>` (RFC 7617, UTF-8). */
export const basic: SecuritySchemeSpec = (value, headers) => {
  const { username, password } = value as BasicCredentials;
  // btoa takes Latin-1: the UTF-8 bytes of the pair, one character each.
  headers.set("Authorization", `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${username}:${password}`)))}`);
};

/** `Authorization: <scheme> <credentials>`: any other HTTP scheme. */
export function httpScheme(scheme: string): SecuritySchemeSpec {
  return (value, headers) => headers.set("Authorization", `${scheme} ${String(value)}`);
}

/** An API key in a header, a query parameter or a cookie. */
export function apiKey(location: "header" | "query" | "cookie", name: string): SecuritySchemeSpec {
  return (value, headers, query) => {
    const text = String(value);
    if (location === "header") headers.set(name, text);
    else if (location === "query") query.push(`${encode(name)}=${encode(text)}`);
    else appendCookie(headers, name, text);
  };
}
