/**
 * Swagger 2.0 paths, operations, parameters and responses as OpenAPI 3.0, the way swagger2openapi
 * maps them: a `body` parameter becomes the `requestBody` (one content entry per `consumes` type,
 * application/json when none is given); `formData` parameters become the properties of one object
 * body, multipart/form-data when `consumes` lists it (or a parameter is a file),
 * application/x-www-form-urlencoded otherwise; other parameters get a `schema` from their
 * type/format/items/... and a `style`/`explode` from `collectionFormat` (csv by default); a
 * response `schema` becomes one content entry per `produces` type (application/json when none is
 * given, where swagger2openapi writes `*` `/` `*`), its headers get a `schema`, its `examples`
 * become content examples.
 */
import type { Problems, Where } from '../core/schema/json-documents.js';
import { at, closest, deref, describe, isObject, locate, own, setOwn } from '../core/schema/json-documents.js';
import type { Conversion } from './swagger2-conversion.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
const LOCATIONS = ['query', 'header', 'path', 'formData', 'body'];
/** The keywords of a 2.0 non-body parameter, header or `items` that describe its value. */
const VALUE_KEYWORDS = new Set([
  'type',
  'format',
  'items',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'enum',
  'multipleOf',
  'x-nullable',
]);

interface Param {
  raw: Record<string, unknown>;
  where: Where;
}

/** Parameters of one level (path item or operation), split by what they become in 3.x. */
interface Params {
  parameters: unknown[];
  body?: Param;
  form: Param[];
}

/** `paths` as 3.0; `conversion.response` is set here too (responses need the document's `produces`). */
export function convertOperations(conversion: Conversion, data: Record<string, unknown>): unknown {
  const root: Where = { doc: conversion.root, path: undefined };
  const consumes = mediaTypes(data.consumes, at(root, 'consumes'), conversion.problems) ?? [];
  const produces = mediaTypes(data.produces, at(root, 'produces'), conversion.problems) ?? [];
  const operations = new Operations(conversion, consumes, produces);
  conversion.response = (value, where) => operations.response(value, where, produces);
  const paths = data.paths;
  if (!isObject(paths)) return paths;
  return conversion.map(paths, at(root, 'paths'), (item, itemAt) =>
    itemAt.path?.key.startsWith('x-') ? item : operations.pathItem(item, itemAt),
  );
}

/** `consumes`/`produces`: a list of media types (a single string is read as a list of one, with a warning). */
function mediaTypes(value: unknown, where: Where, problems: Problems): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    problems.warn(
      `"${where.path?.key ?? ''}" must be a list of media types, not a string; read as a list of this one`,
      locate(where),
      `write ${where.path?.key ?? ''}: [${value}]`,
    );
    return [value];
  }
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return [...new Set(value as string[])];
  problems.add(
    `"${where.path?.key ?? ''}" must be a list of media types, not ${describe(value)}`,
    locate(where),
    'write e.g. [application/json]',
  );
  return undefined;
}

/** `parameter "name"`, for messages. */
function label(raw: Record<string, unknown>): string {
  return typeof raw.name === 'string' ? `parameter "${raw.name}"` : 'a parameter';
}

class Operations {
  constructor(
    private readonly conversion: Conversion,
    private readonly consumes: string[],
    private readonly produces: string[],
  ) {}

  private get problems(): Problems {
    return this.conversion.problems;
  }

  pathItem(value: unknown, itemAt: Where): unknown {
    const resolved = deref(this.conversion.docs, value, itemAt, this.problems);
    if (!resolved) return {};
    const { value: item, where } = resolved;
    if (!isObject(item)) return item;
    const out = this.conversion.node<Record<string, unknown>>({}, where);
    const shared = this.parameters(item.parameters, at(where, 'parameters'));
    if (shared.parameters.length || Array.isArray(item.parameters))
      out.parameters = this.conversion.node(shared.parameters, at(where, 'parameters'));
    else if (item.parameters !== undefined) out.parameters = item.parameters;
    for (const method of METHODS) {
      const raw = item[method];
      if (raw === undefined) continue;
      out[method] = isObject(raw) ? this.operation(raw, at(where, method), shared) : raw;
    }
    return out;
  }

  private operation(raw: Record<string, unknown>, where: Where, shared: Params): Record<string, unknown> {
    const out = this.conversion.node<Record<string, unknown>>({}, where);
    const consumes = mediaTypes(raw.consumes, at(where, 'consumes'), this.problems) ?? this.consumes;
    const produces = mediaTypes(raw.produces, at(where, 'produces'), this.problems) ?? this.produces;
    const params = this.parameters(raw.parameters, at(where, 'parameters'));
    for (const key of Object.keys(raw)) {
      if (key === 'parameters') {
        out.parameters = Array.isArray(raw.parameters) ? this.conversion.node(params.parameters, at(where, 'parameters')) : raw.parameters;
        const body = this.requestBody(params, shared, consumes);
        if (body) out.requestBody = body;
      } else if (key === 'responses') {
        out.responses = isObject(raw.responses) ? this.responses(raw.responses, at(where, key), produces) : raw.responses;
      } else if (key === 'security') {
        out.security = this.conversion.security(raw.security, at(where, key));
      } else if (!['consumes', 'produces', 'schemes'].includes(key)) {
        setOwn(out, key, raw[key]);
      }
    }
    if (raw.parameters === undefined) {
      const body = this.requestBody(params, shared, consumes);
      if (body) out.requestBody = body;
    }
    return out;
  }

  /** Resolves and converts a list of parameters; body and form parameters are set aside for the request body. */
  private parameters(value: unknown, listAt: Where): Params {
    const out: Params = { parameters: [], form: [] };
    if (!Array.isArray(value)) return out;
    value.forEach((item, i) => {
      const ref = isObject(item) ? item.$ref : undefined;
      if (typeof ref === 'string' && ref.includes('#/definitions/')) {
        this.problems.add(
          `a parameter $ref must point to a parameter, not to the schema "${ref}"`,
          locate(at(listAt, i, '$ref')),
          `write { name: ..., in: body, schema: { $ref: "${ref}" } }`,
        );
        return;
      }
      const resolved = deref(this.conversion.docs, item, at(listAt, i), this.problems);
      if (!resolved) return;
      const { value: raw, where } = resolved;
      if (!isObject(raw)) {
        out.parameters.push(raw);
        return;
      }
      const place = raw.in;
      if (typeof place !== 'string' || !LOCATIONS.includes(place)) {
        const near = typeof place === 'string' ? closest(place, LOCATIONS) : undefined;
        this.problems.add(
          `${label(raw)}: "in" must be one of ${LOCATIONS.join(', ')}, not ${describe(place)}`,
          locate(place === undefined ? where : at(where, 'in')),
          near ? `did you mean "${near}"?` : 'write e.g. in: query',
        );
        return;
      }
      if (place === 'body') {
        if (raw.schema === undefined)
          this.problems.add(`body ${label(raw)} needs a "schema"`, locate(where), 'add e.g. schema: { $ref: "#/definitions/Pet" }');
        if (out.body)
          this.problems.add('an operation has at most one body parameter', locate(where), 'describe the whole body with one schema');
        else out.body = { raw, where };
      } else if (place === 'formData') {
        if (typeof raw.name === 'string' && raw.name !== '') out.form.push({ raw, where });
        else
          this.problems.add(
            `a formData parameter needs a "name" string, not ${describe(raw.name)}`,
            locate(raw.name === undefined ? where : at(where, 'name')),
            "write e.g. name: file (the form field's name)",
          );
      } else out.parameters.push(this.parameter(raw, where));
    });
    return out;
  }

  /** A query, header or path parameter: its value keywords become its `schema`, `collectionFormat` its style. */
  private parameter(raw: Record<string, unknown>, where: Where): Record<string, unknown> {
    const out = this.conversion.node<Record<string, unknown>>({}, where);
    for (const key of ['name', 'in', 'description', 'required', 'allowEmptyValue', 'x-example']) {
      if (raw[key] !== undefined) out[key === 'x-example' ? 'example' : key] = raw[key];
    }
    if (raw['x-deprecated'] === true) out.deprecated = true;
    if (raw.type === 'file') {
      this.problems.add(
        `${label(raw)}: "type: file" is only allowed in formData parameters`,
        locate(at(where, 'type')),
        'write in: formData (and consumes: [multipart/form-data])',
      );
    }
    out.schema = this.valueSchema(raw, where, label(raw));
    const style = this.style(raw, where);
    if (style) Object.assign(out, style);
    return out;
  }

  /**
   * The schema of a non-body parameter or header, `what` for messages (2.0 writes its keywords on
   * the parameter itself).
   */
  private valueSchema(raw: Record<string, unknown>, where: Where, what: string): unknown {
    const keywords: Record<string, unknown> = {};
    for (const key of Object.keys(raw)) if (VALUE_KEYWORDS.has(key)) setOwn(keywords, key, raw[key]);
    if (keywords.type === undefined && keywords.items === undefined) {
      // The spec requires a type here; swagger2openapi reads none as a string, and so does a server.
      this.problems.warn(
        `${what} has no "type"; read as a string`,
        locate(where),
        'write type: string (Swagger 2.0 requires a type on every parameter that is not in: body, and on every header)',
      );
      keywords.type = 'string';
    }
    return this.conversion.schema(keywords, where);
  }

  /** `collectionFormat` (csv when an array gives none) → 3.x `style`/`explode`. */
  private style(raw: Record<string, unknown>, where: Where): { style?: string; explode?: boolean } | undefined {
    if (raw.type !== 'array') return undefined;
    const format = raw.collectionFormat ?? 'csv';
    const place = raw.in;
    const formatAt = raw.collectionFormat === undefined ? where : at(where, 'collectionFormat');
    const query = place === 'query';
    switch (format) {
      case 'csv':
        return query ? { style: 'form', explode: false } : { style: 'simple' };
      case 'multi':
        if (query) return { explode: true };
        break;
      case 'ssv':
      case 'pipes':
        if (query) return { style: format === 'ssv' ? 'spaceDelimited' : 'pipeDelimited' };
        break;
      case 'tsv':
        this.problems.add(
          `${label(raw)}: collectionFormat "tsv" has no OpenAPI 3 equivalent, so codegen cannot serialize it`,
          locate(formatAt),
          'use csv, ssv or pipes (or multi for repeated query parameters)',
        );
        return undefined;
      default:
        this.problems.add(
          `${label(raw)}: "collectionFormat" must be one of csv, ssv, tsv, pipes, multi, not ${describe(format)}`,
          locate(formatAt),
          'write e.g. collectionFormat: csv',
        );
        return undefined;
    }
    this.problems.add(
      `${label(raw)}: collectionFormat "${String(format)}" is only allowed in query${format === 'multi' ? ' and formData' : ''} parameters`,
      locate(formatAt),
      'use csv (comma-separated), the only format for path and header parameters',
    );
    return undefined;
  }

  /** The body parameter, or the form parameters (the operation's own override the path item's by name). */
  private requestBody(operation: Params, shared: Params, consumes: string[]): Record<string, unknown> | undefined {
    const body = operation.body ?? shared.body;
    const form = new Map<string, Param>();
    for (const param of [...shared.form, ...operation.form]) form.set(String(param.raw.name), param);
    if (body && form.size) {
      const [first] = form.values();
      this.problems.add(
        'an operation cannot have both a body parameter and formData parameters',
        locate(first.where),
        'send the form fields as properties of the body schema, or drop the body parameter',
      );
      return undefined;
    }
    if (body) return this.bodyParameter(body, consumes);
    if (form.size) return this.formBody([...form.values()], consumes);
    return undefined;
  }

  private bodyParameter({ raw, where }: Param, consumes: string[]): Record<string, unknown> {
    const out = this.conversion.node<Record<string, unknown>>({}, where);
    if (typeof raw.description === 'string') out.description = raw.description;
    if (raw.required !== undefined) out.required = raw.required;
    const content = this.conversion.node<Record<string, unknown>>({}, where);
    for (const mediaType of consumes.length ? consumes : ['application/json']) {
      const media = this.conversion.node<Record<string, unknown>>({}, where);
      if (raw.schema !== undefined) media.schema = this.conversion.schema(raw.schema, at(where, 'schema'));
      setOwn(content, mediaType, media);
    }
    out.content = content;
    return out;
  }

  /** formData parameters → one object schema; a file is a binary string. */
  private formBody(params: Param[], consumes: string[]): Record<string, unknown> {
    const multipart = consumes.includes('multipart/form-data') || params.some(({ raw }) => raw.type === 'file');
    const mediaType = multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const { raw, where } of params) {
      const name = String(raw.name);
      const schema = this.valueSchema(raw, where, label(raw)) as Record<string, unknown>;
      if (typeof raw.description === 'string') schema.description = raw.description;
      if (raw['x-example'] !== undefined) schema.example = raw['x-example'];
      setOwn(properties, name, schema);
      if (raw.required === true) required.push(name);
    }
    const first = params[0].where;
    const schema: Record<string, unknown> = { type: 'object', properties: this.conversion.node(properties, first) };
    if (required.length) schema.required = required;
    const out: Record<string, unknown> = { content: { [mediaType]: { schema: this.conversion.node(schema, first) } } };
    if (required.length) out.required = true;
    return this.conversion.node(out, first);
  }

  private responses(value: Record<string, unknown>, where: Where, produces: string[]): Record<string, unknown> {
    return this.conversion.map(value, where, (item, itemAt) =>
      itemAt.path?.key.startsWith('x-') ? item : this.response(item, itemAt, produces),
    );
  }

  /** A response (or a `$ref` to one): `schema` → content per `produces` type, headers → header objects with a schema. */
  response(raw: unknown, where: Where, produces: string[]): unknown {
    if (!isObject(raw)) return raw;
    if (raw.$ref !== undefined) {
      const ref = this.conversion.reference(raw.$ref, at(where, '$ref'), 'response');
      return ref === undefined ? this.conversion.node({ description: '' }, where) : this.conversion.node({ $ref: ref }, where);
    }
    const out = this.conversion.node<Record<string, unknown>>({}, where);
    if (raw.description !== undefined) out.description = raw.description;
    if (raw.headers !== undefined) {
      out.headers = isObject(raw.headers)
        ? this.conversion.map(raw.headers, at(where, 'headers'), (header, headerAt) => this.header(header, headerAt))
        : raw.headers;
    }
    const examples = isObject(raw.examples) ? raw.examples : {};
    const content = this.conversion.node<Record<string, unknown>>({}, where);
    if (raw.schema !== undefined) {
      // No `produces`: JSON, as hey-api and openapi-generator read it (swagger2openapi's `*/*` would
      // type a JSON body as a Blob); a file stays `*/*`.
      const file = isObject(raw.schema) && raw.schema.type === 'file';
      for (const mediaType of produces.length ? produces : [file ? '*/*' : 'application/json']) {
        setOwn(content, mediaType, this.conversion.node({ schema: this.conversion.schema(raw.schema, at(where, 'schema')) }, where));
      }
    }
    for (const mediaType of Object.keys(examples)) {
      let media = own(content, mediaType) as Record<string, unknown> | undefined;
      if (!media) setOwn(content, mediaType, (media = this.conversion.node({}, where)));
      media.examples = { response: { value: examples[mediaType] } };
    }
    if (Object.keys(content).length) out.content = content;
    return out;
  }

  private header(raw: unknown, where: Where): unknown {
    if (!isObject(raw)) return raw;
    const out = this.conversion.node<Record<string, unknown>>({}, where);
    if (raw.description !== undefined) out.description = raw.description;
    out.schema = this.valueSchema(raw, where, `header "${where.path?.key ?? ''}"`);
    return out;
  }
}
