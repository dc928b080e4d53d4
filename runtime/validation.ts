/**
 * Run-time support for the generated validators: result types, and the few checks that are
 * clearer as functions than inlined (deep equality, code-point length, formats). Nothing here
 * interprets a schema; every function is a plain check on a value.
 */

/** One failed check: where in the value (a JSON pointer, "" for the root), which keyword, why. */
export interface ValidationError {
  path: string;
  keyword: string;
  message: string;
}

/** What `validateX` returns: the value, typed, when it is valid; every error otherwise. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[] };

/**
 * Where a collecting pass records errors: the list the whole pass shares. A check records an
 * error at a pointer relative to the value it checks; `callAt` moves the errors a call recorded
 * under the path of the value it called on. So a pass builds a path only for an error, and
 * allocates nothing while the value is valid.
 */
export class ErrorCollector {
  readonly errors: ValidationError[] = [];

  /** Records a failed check at `relative` (a pointer from the value being checked, "" for itself). */
  add(relative: string, keyword: string, message: string): void {
    this.errors.push({ path: relative, keyword, message });
  }

  /** Prefixes the paths of the errors recorded since `start` with `path`. */
  under(start: number, path: string): void {
    const errors = this.errors;
    for (let i = start; i < errors.length; i++) {
      const error = errors[i] as ValidationError;
      error.path = path + error.path;
    }
  }
}

/** A generated check: with `errors`, it records every failure there instead of stopping at the first. */
export type Check = (value: unknown, errors?: ErrorCollector) => boolean;

/**
 * `validateX`: one collecting pass. It costs about what a yes/no pass costs on a valid value (no
 * path or collector is built before an error), and an invalid value is checked once, not twice.
 */
export function validate<T>(value: unknown, check: Check): ValidationResult<T> {
  const collector = new ErrorCollector();
  if (check(value, collector)) return { ok: true, value: value as T };
  return { ok: false, errors: collector.errors };
}

/**
 * `check` on a value inside the one being checked, in a collecting pass: the errors it records
 * are moved under `path` then `index` (an item's index, or a property name, escaped), joined only
 * when there is an error. A yes/no pass calls `check` directly, where the optimiser can inline it.
 */
export function callAt(value: unknown, errors: ErrorCollector, path: string, check: Check, index?: number | string): boolean {
  const start = errors.errors.length;
  if (check(value, errors)) return true;
  errors.under(start, index === undefined ? path : path + (typeof index === "string" ? pointerToken(index) : index));
  return false;
}

// ---- helpers of the generated check functions ---------------------------------------------------
// Shared by every validator module (validators.ts, server-validators.ts) instead of declared in
// each; a bundle keeps the ones its validators call.

/** The errors of another module's `validateX`, recorded in `errors` (at the value it checks); whether it passed. */
export function collected(result: ValidationResult<unknown>, errors: ErrorCollector): boolean {
  if (!result.ok) for (const error of result.errors) errors.add(error.path, error.keyword, error.message);
  return result.ok;
}

/** A failed check: recorded at `relative` when errors are collected. False, for `ok`. */
export function fail(errors: ErrorCollector | undefined, relative: string, keyword: string, message: string): false {
  if (errors) errors.add(relative, keyword, message);
  return false;
}

/** A value not of the expected type: `required` when it is missing. */
export function failType(errors: ErrorCollector | undefined, relative: string, value: unknown, message: string): false {
  return value === undefined ? fail(errors, relative, "required", "is required") : fail(errors, relative, "type", message);
}

/*
 * Property checks, 1 (valid) or 0, so that a run of properties is one `&` expression: `req*` for
 * a required property, `opt*` for an optional one; the errors are `required`, `type`, `format`.
 */

/** A required property checked by another check function (a `$ref`, a hoisted subschema). */
export function reqRef(value: unknown, errors: ErrorCollector | undefined, path: string, check: Check): number {
  if (value === undefined) {
    fail(errors, path, "required", "is required");
    return 0;
  }
  return (errors === undefined ? check(value) : callAt(value, errors, path, check)) ? 1 : 0;
}

export function optRef(value: unknown, errors: ErrorCollector | undefined, path: string, check: Check): number {
  if (value === undefined) return 1;
  return (errors === undefined ? check(value) : callAt(value, errors, path, check)) ? 1 : 0;
}

export function reqString(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  return 1;
}

export function optString(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqString(value, errors, path);
}

export function reqStringOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  return 1;
}

export function optStringOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqStringOrNull(value, errors, path);
}

export function reqInteger(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    failType(errors, path, value, "must be an integer");
    return 0;
  }
  return 1;
}

export function optInteger(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqInteger(value, errors, path);
}

export function reqIntegerOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!((typeof value === "number" && Number.isInteger(value)) || value === null)) {
    failType(errors, path, value, "must be an integer or null");
    return 0;
  }
  return 1;
}

export function optIntegerOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqIntegerOrNull(value, errors, path);
}

export function reqNumber(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    failType(errors, path, value, "must be a number");
    return 0;
  }
  return 1;
}

export function optNumber(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqNumber(value, errors, path);
}

export function reqNumberOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!((typeof value === "number" && Number.isFinite(value)) || value === null)) {
    failType(errors, path, value, "must be a number or null");
    return 0;
  }
  return 1;
}

export function optNumberOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqNumberOrNull(value, errors, path);
}

export function reqBoolean(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "boolean") {
    failType(errors, path, value, "must be a boolean");
    return 0;
  }
  return 1;
}

export function optBoolean(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqBoolean(value, errors, path);
}

export function reqBooleanOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "boolean" || value === null)) {
    failType(errors, path, value, "must be a boolean or null");
    return 0;
  }
  return 1;
}

export function optBooleanOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqBooleanOrNull(value, errors, path);
}

export function reqDateTime(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validDateTime(value)) {
    fail(errors, path, "format", "must be a valid date-time");
    return 0;
  }
  return 1;
}

export function optDateTime(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqDateTime(value, errors, path);
}

export function reqDateTimeOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validDateTime(value)) {
    fail(errors, path, "format", "must be a valid date-time");
    return 0;
  }
  return 1;
}

export function optDateTimeOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqDateTimeOrNull(value, errors, path);
}

export function reqDate(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validDate(value)) {
    fail(errors, path, "format", "must be a valid date");
    return 0;
  }
  return 1;
}

export function optDate(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqDate(value, errors, path);
}

export function reqDateOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validDate(value)) {
    fail(errors, path, "format", "must be a valid date");
    return 0;
  }
  return 1;
}

export function optDateOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqDateOrNull(value, errors, path);
}

export function reqTime(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validTime(value)) {
    fail(errors, path, "format", "must be a valid time");
    return 0;
  }
  return 1;
}

export function optTime(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqTime(value, errors, path);
}

export function reqTimeOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validTime(value)) {
    fail(errors, path, "format", "must be a valid time");
    return 0;
  }
  return 1;
}

export function optTimeOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqTimeOrNull(value, errors, path);
}

export function reqEmail(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validEmail(value)) {
    fail(errors, path, "format", "must be a valid email");
    return 0;
  }
  return 1;
}

export function optEmail(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqEmail(value, errors, path);
}

export function reqEmailOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validEmail(value)) {
    fail(errors, path, "format", "must be a valid email");
    return 0;
  }
  return 1;
}

export function optEmailOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqEmailOrNull(value, errors, path);
}

export function reqUuid(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validUuid(value)) {
    fail(errors, path, "format", "must be a valid uuid");
    return 0;
  }
  return 1;
}

export function optUuid(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqUuid(value, errors, path);
}

export function reqUuidOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validUuid(value)) {
    fail(errors, path, "format", "must be a valid uuid");
    return 0;
  }
  return 1;
}

export function optUuidOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqUuidOrNull(value, errors, path);
}

export function reqUri(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validUri(value)) {
    fail(errors, path, "format", "must be a valid uri");
    return 0;
  }
  return 1;
}

export function optUri(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqUri(value, errors, path);
}

export function reqUriOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validUri(value)) {
    fail(errors, path, "format", "must be a valid uri");
    return 0;
  }
  return 1;
}

export function optUriOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqUriOrNull(value, errors, path);
}

export function reqUriReference(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validUriReference(value)) {
    fail(errors, path, "format", "must be a valid uri-reference");
    return 0;
  }
  return 1;
}

export function optUriReference(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqUriReference(value, errors, path);
}

export function reqUriReferenceOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validUriReference(value)) {
    fail(errors, path, "format", "must be a valid uri-reference");
    return 0;
  }
  return 1;
}

export function optUriReferenceOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqUriReferenceOrNull(value, errors, path);
}

export function reqIpv4(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validIpv4(value)) {
    fail(errors, path, "format", "must be a valid ipv4");
    return 0;
  }
  return 1;
}

export function optIpv4(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqIpv4(value, errors, path);
}

export function reqIpv4OrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validIpv4(value)) {
    fail(errors, path, "format", "must be a valid ipv4");
    return 0;
  }
  return 1;
}

export function optIpv4OrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqIpv4OrNull(value, errors, path);
}

export function reqIpv6(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validIpv6(value)) {
    fail(errors, path, "format", "must be a valid ipv6");
    return 0;
  }
  return 1;
}

export function optIpv6(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqIpv6(value, errors, path);
}

export function reqIpv6OrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validIpv6(value)) {
    fail(errors, path, "format", "must be a valid ipv6");
    return 0;
  }
  return 1;
}

export function optIpv6OrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqIpv6OrNull(value, errors, path);
}

export function reqHostname(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (typeof value !== "string") {
    failType(errors, path, value, "must be a string");
    return 0;
  }
  if (!validHostname(value)) {
    fail(errors, path, "format", "must be a valid hostname");
    return 0;
  }
  return 1;
}

export function optHostname(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqHostname(value, errors, path);
}

export function reqHostnameOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  if (!(typeof value === "string" || value === null)) {
    failType(errors, path, value, "must be a string or null");
    return 0;
  }
  if (value !== null && !validHostname(value)) {
    fail(errors, path, "format", "must be a valid hostname");
    return 0;
  }
  return 1;
}

export function optHostnameOrNull(value: unknown, errors: ErrorCollector | undefined, path: string): number {
  return value === undefined ? 1 : reqHostnameOrNull(value, errors, path);
}

/** A property name or array index as a JSON pointer segment (`~` → `~0`, `/` → `~1`). */
export function pointerToken(key: string | number): string {
  if (typeof key === "number") return String(key);
  return key.indexOf("~") === -1 && key.indexOf("/") === -1 ? key : key.replace(/~/g, "~0").replace(/\//g, "~1");
}

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** Own-property test, for names that every object inherits (`constructor`, `__proto__`, ...). */
export function hasOwn(object: object, key: string): boolean {
  return hasOwnProperty.call(object, key);
}

/** Number of (enumerable) properties, without allocating a key array. */
export function propertyCount(object: object): number {
  let count = 0;
  for (const key in object) if (hasOwnProperty.call(object, key)) count++;
  return count;
}

/** Length in Unicode code points, as JSON Schema counts it (a surrogate pair is one). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

/** JSON equality: 1 equals 1.0, key order does not matter, arrays compare item by item. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameItem(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!hasOwnProperty.call(left, key)) continue;
    if (!sameItem(left[key], right[key]) || !hasOwnProperty.call(right, key)) return false;
    count++;
  }
  return count === propertyCount(right);
}

/**
 * deepEqual on the members of two objects or arrays: primitives are compared here, without a
 * call (`uniqueItems` over objects mostly meets objects whose first member differs).
 */
function sameItem(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === "object" && a !== null && deepEqual(a, b));
}

/** `enum` with object or array members. */
export function deepIncludes(values: readonly unknown[], value: unknown): boolean {
  for (let i = 0; i < values.length; i++) if (deepEqual(values[i], value)) return true;
  return false;
}

/**
 * Index of the first item equal to an earlier one, or -1 (for `uniqueItems`). Linear in the size
 * of the array: short arrays compare pairwise, longer ones look each item up by its canonical
 * form (primitives as themselves, objects and arrays as canonical text), so 60,000 distinct
 * objects cost one pass, not 1.8 billion comparisons.
 */
export function duplicateIndex(items: readonly unknown[]): number {
  const length = items.length;
  if (length < 2) return -1;
  if (length <= 16) {
    for (let j = 1; j < length; j++) {
      for (let i = 0; i < j; i++) if (deepEqual(items[i], items[j])) return j;
    }
    return -1;
  }
  const primitives = new Set<unknown>();
  const composites = new Set<string>();
  for (let j = 0; j < length; j++) {
    const item = items[j];
    if (typeof item === "object" && item !== null) {
      const key = canonical(item);
      if (composites.has(key)) return j;
      composites.add(key);
    } else {
      // -0 and 0 are one JSON number; Set already treats them as equal.
      if (primitives.has(item)) return j;
      primitives.add(item);
    }
  }
  return -1;
}

/**
 * Text that is equal for two values exactly when deepEqual says they are: keys sorted, strings
 * quoted, numbers as JavaScript prints them (1 and 1.0 are one number, -0 prints as 0).
 */
function canonical(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
    case "boolean":
    case "bigint":
      return String(value);
    case "undefined":
      return "undefined";
    case "object":
      break;
    default:
      // A function or symbol is never in parsed JSON; described by its text.
      return `#${String(value)}`;
  }
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i ? "," : "") + canonical(value[i]);
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length > 1) keys.sort();
  let text = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    // Quoted as JSON only when it needs escaping (most keys do not, and this is the hot path).
    text += (i ? "," : "") + (PLAIN_KEY.test(key) ? `"${key}"` : JSON.stringify(key)) + ":" + canonical(object[key]);
  }
  return `${text}}`;
}

const PLAIN_KEY = /^[^"\\\u0000-\u001f\u2028\u2029]*$/;

/**
 * `multipleOf` for decimals: 19.99 is a multiple of 0.01 although 19.99 / 0.01 is
 * 1998.9999999999998 in binary floating point, so allow the rounding error of one division.
 */
export function divisibleBy(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  if (Number.isInteger(quotient)) return true;
  return Math.abs(quotient - Math.round(quotient)) <= Math.abs(quotient) * 4 * Number.EPSILON;
}

// ---- formats ------------------------------------------------------------------------------
// Checked without allocating: a regular expression for the shape, then arithmetic on char codes.

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[zZ]|[+-]\d{2}:\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[tT]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[zZ]|[+-]\d{2}:\d{2})$/;

function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
}

function dateAt(text: string, at: number): boolean {
  const year = twoDigits(text, at) * 100 + twoDigits(text, at + 2);
  const month = twoDigits(text, at + 5);
  const day = twoDigits(text, at + 8);
  if (month < 1 || month > 12 || day < 1) return false;
  if (day <= (DAYS_IN_MONTH[month] ?? 0)) return true;
  return month === 2 && day === 29 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** RFC 3339 `partial-time time-offset` starting at `at` (the shape is already checked). */
function timeAt(text: string, at: number): boolean {
  const hour = twoDigits(text, at);
  const minute = twoDigits(text, at + 3);
  const second = twoDigits(text, at + 6);
  if (hour > 23 || minute > 59 || second > 60) return false;
  const last = text.charCodeAt(text.length - 1);
  let offset = 0;
  if (last !== 0x5a && last !== 0x7a) {
    const end = text.length;
    const offsetHour = twoDigits(text, end - 5);
    const offsetMinute = twoDigits(text, end - 2);
    if (offsetHour > 23 || offsetMinute > 59) return false;
    offset = (offsetHour * 60 + offsetMinute) * (text.charCodeAt(end - 6) === 0x2d ? -1 : 1);
  }
  if (second < 60) return true;
  // A leap second is 23:59:60 in UTC, whatever the local offset.
  const utc = (((hour * 60 + minute - offset) % 1440) + 1440) % 1440;
  return utc === 23 * 60 + 59;
}

/** `date`: RFC 3339 full-date, with real month lengths and leap years. */
export function validDate(text: string): boolean {
  return DATE.test(text) && dateAt(text, 0);
}

/** `time`: RFC 3339 full-time (the offset is required). */
export function validTime(text: string): boolean {
  return TIME.test(text) && timeAt(text, 0);
}

/** `date-time`: RFC 3339 date-time. */
export function validDateTime(text: string): boolean {
  return DATE_TIME.test(text) && dateAt(text, 0) && timeAt(text, 11);
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** `uuid`: RFC 4122 textual form, any version and variant. */
export function validUuid(text: string): boolean {
  return UUID.test(text);
}

// Building blocks from the RFC 3986 grammar, as regular-expression source.
const DEC_OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = `(?:${DEC_OCTET}\\.){3}${DEC_OCTET}`;
const H16 = "[0-9a-fA-F]{1,4}";
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
]
  .map((alternative) => `(?:${alternative})`)
  .join("|");
const IPV4_FORMAT = new RegExp(`^${IPV4}$`);
const IPV6_FORMAT = new RegExp(`^(?:${IPV6})$`);

/** `ipv4`: dotted decimal, four octets, no leading zeros. */
export function validIpv4(text: string): boolean {
  return IPV4_FORMAT.test(text);
}

/** `ipv6`: RFC 4291 text form (no zone, no brackets, no prefix length). */
export function validIpv6(text: string): boolean {
  return IPV6_FORMAT.test(text);
}

const PCT = "%[0-9a-fA-F]{2}";
const UNRESERVED_SUB = "A-Za-z0-9\\-._~!$&'()*+,;=";
const PCHAR = `(?:[${UNRESERVED_SUB}:@]|${PCT})`;
const IP_LITERAL = `\\[(?:${IPV6}|[vV][0-9a-fA-F]+\\.[${UNRESERVED_SUB}:]+)\\]`;
const AUTHORITY = `(?:(?:[${UNRESERVED_SUB}:]|${PCT})*@)?(?:${IP_LITERAL}|(?:[${UNRESERVED_SUB}]|${PCT})*)(?::\\d*)?`;
const PATH_ABEMPTY = `(?:/${PCHAR}*)*`;
const PATH_ABSOLUTE = `/(?:${PCHAR}+${PATH_ABEMPTY})?`;
const PATH_ROOTLESS = `${PCHAR}+${PATH_ABEMPTY}`;
const PATH_NOSCHEME = `(?:[${UNRESERVED_SUB}@]|${PCT})+${PATH_ABEMPTY}`;
const QUERY_FRAGMENT = `(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?`;
const URI = `[A-Za-z][A-Za-z0-9+\\-.]*:(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_ROOTLESS}|)${QUERY_FRAGMENT}`;
const RELATIVE_REF = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_NOSCHEME}|)${QUERY_FRAGMENT}`;
const URI_FORMAT = new RegExp(`^${URI}$`);
const URI_REFERENCE_FORMAT = new RegExp(`^(?:${URI}|${RELATIVE_REF})$`);

/** `uri`: an absolute RFC 3986 URI (scheme required). */
export function validUri(text: string): boolean {
  return URI_FORMAT.test(text);
}

/** `uri-reference`: an RFC 3986 URI or relative reference. */
export function validUriReference(text: string): boolean {
  return URI_REFERENCE_FORMAT.test(text);
}

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const HOSTNAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);
const A_LABEL = /(?:^|\.)xn--/i;

/** `hostname`: RFC 1123 labels; A-labels (`xn--`) must also decode to a valid IDNA2008 label. */
export function validHostname(text: string): boolean {
  if (!HOSTNAME.test(text)) return false;
  if (!A_LABEL.test(text)) return true;
  for (const label of text.split(".")) {
    if (label.length > 4 && label.slice(0, 4).toLowerCase() === "xn--" && !validULabel(decodePunycode(label.slice(4)))) return false;
  }
  return true;
}

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const LOCAL_PART = `(?:${ATEXT}+(?:\\.${ATEXT}+)*|"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*")`;
const EMAIL = new RegExp(`^${LOCAL_PART}@(?:${LABEL}(?:\\.${LABEL})*|\\[${IPV4}\\]|\\[IPv6:(?:${IPV6})\\])$`);

/** `email`: RFC 5321 mailbox (dot-atom or quoted local part; host name or address literal). */
export function validEmail(text: string): boolean {
  return EMAIL.test(text);
}

// ---- IDNA2008 A-labels (RFC 5890-5893), only reached for host names containing `xn--` ----

/** RFC 3492 decoding; undefined when the text is not valid Punycode. */
function decodePunycode(input: string): number[] | undefined {
  const output: number[] = [];
  const basicEnd = input.lastIndexOf("-");
  for (let i = 0; i < Math.max(basicEnd, 0); i++) output.push(input.charCodeAt(i));
  let n = 128;
  let bias = 72;
  let i = 0;
  for (let at = basicEnd > 0 ? basicEnd + 1 : 0; at < input.length; ) {
    const oldI = i;
    for (let weight = 1, k = 36; ; k += 36) {
      if (at >= input.length) return undefined;
      const code = input.charCodeAt(at++);
      const digit =
        code >= 48 && code <= 57 ? code - 22 : code >= 65 && code <= 90 ? code - 65 : code >= 97 && code <= 122 ? code - 97 : 36;
      if (digit >= 36) return undefined;
      i += digit * weight;
      const threshold = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (digit < threshold) break;
      weight *= 36 - threshold;
    }
    let delta = oldI === 0 ? Math.floor((i - oldI) / 700) : (i - oldI) >> 1;
    delta += Math.floor(delta / (output.length + 1));
    let k = 0;
    for (; delta > 455; k += 36) delta = Math.floor(delta / 35);
    bias = k + Math.floor((36 * delta) / (delta + 38));
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return undefined;
    output.splice(i++, 0, n);
  }
  return output;
}

const PVALID_EXCEPTIONS = new Set([0xdf, 0x3c2, 0x6fd, 0x6fe, 0xf0b, 0x3007]);
const DISALLOWED_EXCEPTIONS = new Set([0x640, 0x7fa, 0x302e, 0x302f, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303b]);
const LETTER_DIGIT_MARK = /^[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}]$/u;
const MARK = /^\p{M}$/u;
const GREEK = /^\p{Script=Greek}$/u;
const HEBREW = /^\p{Script=Hebrew}$/u;
const KANA_HAN = /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u;
const JOINING = /^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Mandaic}]$/u;
const VIRAMA =
  /^[\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d3b\u0d3c\u0d4d\u0dca\u0e3a\u0eba\u0f84\u1039\u103a\u1714\u1734\u17d2\u1a60\u1b44\u1baa\u1bab\u1bf2\u1bf3\u2d7f\ua806\ua8c4\ua953\ua9c0\uaaf6\uabed]$/;

/** RFC 5891 section 5.4 and the RFC 5892 contextual rules, on the decoded code points. */
function validULabel(points: number[] | undefined): boolean {
  if (!points || points.length === 0) return false;
  const chars = points.map((point) => String.fromCodePoint(point));
  // '' before the first and after the last character.
  const charAt = (index: number) => chars[index] ?? "";
  if (MARK.test(charAt(0))) return false;
  if (charAt(2) === "-" && charAt(3) === "-") return false;
  let arabicDigits = false;
  let extendedDigits = false;
  for (const [i, point] of points.entries()) {
    const char = charAt(i);
    if (DISALLOWED_EXCEPTIONS.has(point)) return false;
    if (point >= 0x660 && point <= 0x669) arabicDigits = true;
    if (point >= 0x6f0 && point <= 0x6f9) extendedDigits = true;
    if (point === 0xb7) {
      if (charAt(i - 1) !== "l" || charAt(i + 1) !== "l") return false;
    } else if (point === 0x375) {
      if (!GREEK.test(charAt(i + 1))) return false;
    } else if (point === 0x5f3 || point === 0x5f4) {
      if (!HEBREW.test(charAt(i - 1))) return false;
    } else if (point === 0x30fb) {
      if (!chars.some((other) => other !== "\u30fb" && KANA_HAN.test(other))) return false;
    } else if (point === 0x200d) {
      if (!VIRAMA.test(charAt(i - 1))) return false;
    } else if (point === 0x200c) {
      if (!VIRAMA.test(charAt(i - 1)) && !(JOINING.test(charAt(i - 1)) && JOINING.test(charAt(i + 1)))) return false;
    } else if (!PVALID_EXCEPTIONS.has(point) && char !== "-" && !LETTER_DIGIT_MARK.test(char)) {
      return false;
    }
  }
  return !(arabicDigits && extendedDigits);
}

// ---- Standard Schema --------------------------------------------------------------------------
// Every generated validator is also a Standard Schema v1 (https://standardschema.dev), the interface
// Zod, Valibot and ArkType implement, so it plugs into whatever accepts one (Hono's `sValidator`,
// tRPC inputs, TanStack Form…). The interface is declared here, member for member the same as
// `@standard-schema/spec`'s `StandardSchemaV1`, so nothing depends on that package.

/** A Standard Schema v1: `~standard.validate(value)` answers `{ value }` or `{ issues }`. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1Props<Input, Output>;
}

export interface StandardSchemaV1Props<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (
    value: unknown,
    options?: StandardSchemaV1Options | undefined,
  ) => StandardSchemaV1Result<Output> | Promise<StandardSchemaV1Result<Output>>;
  /** Types only (never set at run time), for `InferInput`/`InferOutput`. */
  readonly types?: StandardSchemaV1Types<Input, Output> | undefined;
}

export interface StandardSchemaV1Options {
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

export type StandardSchemaV1Result<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaV1Issue> };

export interface StandardSchemaV1Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

export interface StandardSchemaV1Types<Input = unknown, Output = Input> {
  readonly input: Input;
  readonly output: Output;
}

/**
 * `validateX` as a Standard Schema (`XSchema` in the generated modules): the same single pass, its
 * errors as issues (`standardIssues`). Synchronous, whatever the interface allows.
 */
export function standardSchema<T>(validate: (value: unknown) => ValidationResult<T>): StandardSchemaV1<T> {
  return {
    "~standard": {
      version: 1,
      vendor: "codegen",
      validate(value) {
        const result = validate(value);
        return result.ok ? { value: result.value } : { issues: standardIssues(value, result.errors) };
      },
    },
  };
}

/**
 * Our errors as Standard Schema issues. The JSON pointer becomes path segments (`~1` → `/`,
 * `~0` → `~`), a segment indexing an array of `value` a number; the root has no path. The message
 * names where, as a consumer shows it alone: `title is required`, `labels[0].name must match…`,
 * `value must be an object`.
 */
export function standardIssues(value: unknown, errors: readonly ValidationError[]): StandardSchemaV1Issue[] {
  return errors.map((error) => {
    if (error.path === "") return { message: `value ${error.message}` };
    const path: Array<string | number> = [];
    let at: unknown = value;
    for (const token of error.path.slice(1).split("/")) {
      const key = token.indexOf("~") === -1 ? token : token.replace(/~1/g, "/").replace(/~0/g, "~");
      const segment = Array.isArray(at) && /^(?:0|[1-9]\d*)$/.test(key) ? Number(key) : key;
      path.push(segment);
      at = typeof at === "object" && at !== null && hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
    }
    return { message: `${pathText(path)} ${error.message}`, path };
  });
}

/** `labels[0].name`, `["content-type"]`: a path as a reader would write it. */
function pathText(path: ReadonlyArray<string | number>): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}
