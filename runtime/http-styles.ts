/**
 * Parameter styles of OpenAPI beyond the default one of scalars and arrays, which the core
 * (`http.ts`) serialises itself: object values in any location, `label` and `matrix` paths,
 * `spaceDelimited`, `pipeDelimited` and `deepObject` queries. A generated operation description
 * names the style its parameter needs (`style: deepObject`), so only the styles an app's
 * operations use are in its bundle.
 */
import type { ParameterStyle } from "./http.js";
import { scalar } from "./http.js";

/** Plain objects, whose properties are serialised one by one (not arrays, dates or files). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Blob);
}

/** The defined properties of an object as `[name, value]`, each through `code`. */
function pairs(value: Record<string, unknown>, code: (text: string) => string): Array<[string, string]> {
  return Object.entries(value)
    .filter(([, item]) => item !== undefined && item !== null)
    .map(([key, item]) => [code(key), code(scalar(item))]);
}

/** RFC 6570 expansions `{x}`, `{.x}` and `{;x}` (lists and maps per explode). */
function expansion(prefix: "" | "." | ";"): ParameterStyle {
  return (name, value, explode, code) => {
    const named = (text: string): string => (prefix === ";" ? `${code(name)}=${text}` : text);
    const separator = explode && prefix ? prefix : ",";
    if (Array.isArray(value)) {
      const items = value.map((item) => code(scalar(item)));
      return prefix + (explode ? items.map(named).join(separator) : named(items.join(",")));
    }
    if (isObject(value)) {
      const entries = pairs(value, code);
      return prefix + (explode ? entries.map(([key, item]) => `${key}=${item}`).join(separator) : named(entries.flat().join(",")));
    }
    return prefix + named(code(scalar(value)));
  };
}

/** `simple`, the default in the path and headers: `a,b`; objects `k,v,k2,v2` (exploded: `k=v,k2=v2`). */
export const simple = expansion("");
/** `label` (path): `.a.b` exploded, `.a,b` not. */
export const label = expansion(".");
/** `matrix` (path): `;x=a;x=b` exploded, `;x=a,b` not. */
export const matrix = expansion(";");

/** `form`, the default in the query and cookies: objects as `k=v&k2=v2` exploded, `x=k,v,k2,v2` not. */
export const form: ParameterStyle = (name, value, explode, code) => {
  if (isObject(value)) {
    const entries = pairs(value, code);
    return explode ? entries.map(([key, item]) => `${key}=${item}`).join("&") : `${code(name)}=${entries.flat().join(",")}`;
  }
  const items = (Array.isArray(value) ? value : [value]).map((item) => code(scalar(item)));
  if (explode) return items.map((item) => `${code(name)}=${item}`).join("&");
  return items.length ? `${code(name)}=${items.join(",")}` : "";
};

function delimited(separator: string): ParameterStyle {
  return (name, value, explode, code) =>
    !explode && Array.isArray(value) && value.length
      ? `${code(name)}=${value.map((item) => code(scalar(item))).join(separator)}`
      : form(name, value, explode, code);
}

/** `spaceDelimited` (query arrays): `x=a%20b`. */
export const spaceDelimited = delimited("%20");
/** `pipeDelimited` (query arrays): `x=a%7Cb`. */
export const pipeDelimited = delimited("%7C");

/** `deepObject` (query objects): `x[k]=v`, nested objects as `x[k][k2]=v`, arrays as repeated pairs. */
export const deepObject: ParameterStyle = (name, value, _explode, code) => {
  const result: string[] = [];
  const walk = (prefix: string, item: unknown): void => {
    if (isObject(item)) {
      for (const [key, child] of Object.entries(item)) if (child !== undefined && child !== null) walk(`${prefix}[${key}]`, child);
    } else {
      for (const element of Array.isArray(item) ? item : [item]) result.push(`${code(prefix)}=${code(scalar(element))}`);
    }
  };
  walk(name, value);
  return result.join("&");
};
