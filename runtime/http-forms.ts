/**
 * Request bodies of HTML forms: `application/x-www-form-urlencoded` and `multipart/form-data`.
 * A generated operation description with such a body names its encoder (`encodeBody:
 * multipartBody`), so only apps that send forms bundle this module.
 */
import type { BodyEncoder } from "./http.js";
import { scalar } from "./http.js";

/** The defined fields of a form's value, each as the list of its parts. */
function fields(value: unknown): Array<[string, unknown[]]> {
  return Object.entries(typeof value === "object" && value !== null ? value : {})
    .filter(([, item]) => item !== undefined && item !== null)
    .map(([name, item]) => [name, Array.isArray(item) ? item : [item]]);
}

/** `application/x-www-form-urlencoded`: `a=1&b=x+y`; a list repeats its field. */
export const formBody: BodyEncoder = (value) => {
  const form = new URLSearchParams();
  for (const [name, parts] of fields(value)) for (const part of parts) form.append(name, scalar(part));
  return form;
};

/** `multipart/form-data`: files as they are, objects as JSON parts, anything else as text. */
export const multipartBody: BodyEncoder = (value, headers) => {
  // fetch writes Content-Type with the boundary itself.
  headers.delete("Content-Type");
  const form = new FormData();
  for (const [name, parts] of fields(value)) {
    for (const part of parts) {
      if (part instanceof Blob) form.append(name, part);
      else if (typeof part === "object" && part !== null && !(part instanceof Date))
        form.append(name, new Blob([JSON.stringify(part)], { type: "application/json" }));
      else form.append(name, scalar(part));
    }
  }
  return form;
};
