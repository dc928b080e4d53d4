/**
 * Fields of a request message as `google.api.http` rules name them (`task.name`, by proto name or
 * JSON name, googleapis google/api/http.proto), over the message's proto3 JSON form
 * (https://protobuf.dev/programming-guides/json/): the server writes path variables and query
 * parameters into that JSON before `fromJson`, the REST client reads them out of `toJson`'s.
 */
import {
  createRegistry,
  ScalarType,
  type DescField,
  type DescFile,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Registry,
} from "@bufbuild/protobuf";

/** The registry of every file `roots` reach through their imports, so `Any` fields in JSON resolve. */
export function jsonRegistry(roots: Iterable<DescFile>): Registry {
  const files = new Set<DescFile>();
  const visit = (file: DescFile) => {
    if (files.has(file)) return;
    files.add(file);
    for (const dependency of file.dependencies) visit(dependency);
  };
  for (const root of roots) visit(root);
  return createRegistry(...files);
}

/** Well-known messages whose JSON form is one string or number, so one URL value sets them. */
const STRING_FORM = new Set([
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
  "google.protobuf.FieldMask",
  "google.protobuf.DoubleValue",
  "google.protobuf.FloatValue",
  "google.protobuf.Int64Value",
  "google.protobuf.UInt64Value",
  "google.protobuf.Int32Value",
  "google.protobuf.UInt32Value",
  "google.protobuf.BoolValue",
  "google.protobuf.StringValue",
  "google.protobuf.BytesValue",
]);

/**
 * The fields along `path` from `message`, each part a proto name (`page_size`) or a JSON name
 * (`pageSize`).
 *
 * @throws Error naming the first part that is not a field, or that goes through a non-message.
 */
export function resolveFieldPath(message: DescMessage, path: readonly string[]): DescField[] {
  const fields: DescField[] = [];
  let at: DescMessage | undefined = message;
  for (const part of path) {
    const field: DescField | undefined = at?.fields.find((candidate) => candidate.name === part || candidate.jsonName === part);
    if (at === undefined || field === undefined) {
      throw new Error(`${at ? at.typeName : fields.map((f) => f.name).join(".")} has no field "${part}"`);
    }
    fields.push(field);
    at = field.fieldKind === "message" && !STRING_FORM.has(field.message.typeName) ? field.message : undefined;
  }
  return fields;
}

/** Whether one URL value sets the field: a scalar, an enum, a string-form message, or a list of them. */
export function isUrlValue(field: DescField): boolean {
  switch (field.fieldKind) {
    case "scalar":
    case "enum":
      return true;
    case "message":
      return STRING_FORM.has(field.message.typeName);
    case "list":
      return field.listKind !== "message" || STRING_FORM.has(field.message.typeName);
    case "map":
      return false;
  }
}

/** Whether the field is a map whose values one URL value sets (`labels[env]=prod`, as grpc-gateway reads them). */
export function isUrlMap(field: DescField): boolean {
  return field.fieldKind === "map" && (field.mapKind !== "message" || STRING_FORM.has(field.message.typeName));
}

/**
 * The proto3 JSON value of a URL value (path variable or query parameter) for `field`: `true` and
 * `false` for booleans, an enum by name or number, anything else as the string JSON accepts for it
 * (numbers, base64 bytes, RFC 3339 timestamps, `1.5s` durations, `a,b` field masks).
 *
 * @throws Error for a boolean that is neither `true` nor `false`.
 */
export function urlValueJson(field: DescField, raw: string): JsonValue {
  // A list or a map: the kind of one element (of a map: one value).
  const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind === "map" ? field.mapKind : field.fieldKind;
  const isBool = kind === "scalar" && field.scalar === ScalarType.BOOL;
  const message = kind === "message" ? field.message : undefined;
  if (isBool || message?.typeName === "google.protobuf.BoolValue") {
    if (raw === "true" || raw === "false") return raw === "true";
    throw new Error(`${field.name} must be true or false, not ${JSON.stringify(raw)}`);
  }
  const isEnum = kind === "enum";
  if (isEnum && /^-?\d+$/.test(raw)) return Number(raw);
  return raw;
}

/** Sets the value at `fields` in a JSON object, making the objects on the way; `append` adds to a list. */
export function setJsonField(target: JsonObject, fields: readonly DescField[], value: JsonValue, append = false): void {
  let object = target;
  fields.forEach((field, i) => {
    // The JSON name wins; the proto name (which fromJson also accepts) would make two values.
    const existing = object[field.jsonName] ?? object[field.name];
    if (field.name !== field.jsonName) delete object[field.name];
    if (i === fields.length - 1) {
      object[field.jsonName] = append ? [...(Array.isArray(existing) ? existing : []), value] : value;
      return;
    }
    const next: JsonObject = existing !== null && typeof existing === "object" && !Array.isArray(existing) ? existing : {};
    object[field.jsonName] = next;
    object = next;
  });
}

/** Sets `key` of the map at `fields` in a JSON object, making the objects on the way. */
export function setJsonMapEntry(target: JsonObject, fields: readonly DescField[], key: string, value: JsonValue): void {
  let object = target;
  for (const field of fields) {
    const existing = object[field.jsonName] ?? object[field.name];
    if (field.name !== field.jsonName) delete object[field.name];
    const next: JsonObject = existing !== null && typeof existing === "object" && !Array.isArray(existing) ? existing : {};
    object[field.jsonName] = next;
    object = next;
  }
  object[key] = value;
}

/** Removes and returns the value at `fields` of a JSON object (`toJson`'s: keys are JSON names). */
export function takeJsonField(source: JsonObject, fields: readonly DescField[]): JsonValue | undefined {
  let object: JsonObject = source;
  for (const field of fields.slice(0, -1)) {
    const next = object[field.jsonName];
    if (next === null || typeof next !== "object" || Array.isArray(next)) return undefined;
    object = next;
  }
  const last = fields[fields.length - 1]!;
  const value = object[last.jsonName];
  delete object[last.jsonName];
  return value;
}
