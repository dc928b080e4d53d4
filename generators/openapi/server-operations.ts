/**
 * Per operation, what a generated server declares: the request its handler receives (parameters
 * parsed, defaults applied, `filter[...]` grouped, `sort` parsed), the results it may return (one
 * union member per declared status, with that status's body and headers), and the spec the
 * runtime works from (parameter styles and types, validators, pagination, media types).
 *
 * Names and types come from `describeOperations`, so the server agrees with the client and with
 * `types.ts` on every one of them.
 */
import type { TypeEmitter } from '../core/emit/types/emit.js';
import type { ApiModel, MediaContent, Operation, Parameter, Response } from './model.js';
import type { JsonSchema, SchemaObject } from '../core/schema/json-schema.js';
import { isBinarySchema } from '../core/schema/binary.js';
import { docParts } from '../core/emit/types/doc.js';
import { jsDoc, jsonLiteral, objectKey, pascalCase, propertyKey, stringLiteral, uniqueName } from '../core/builder/names.js';
import { refName } from '../core/schema/json-schema.js';
import { isJsonMediaType, preferredContent, type OperationInfo, type ResponseCase } from './operation-types.js';

/** Resolves local type names (from types.ts) and validators to what server.ts imports. */
export interface ServerNames {
  /** A type expression with its types.ts names replaced by their local (imported) names. */
  type(expression: string): string;
  /** `validateX` from validators.ts for a `$ref` to a named schema, imported; undefined otherwise. */
  schemaValidator(schema: JsonSchema | undefined, direction: 'read' | 'write'): string | undefined;
  /** A validator emitted into server-validators.ts for `schema` (its refs resolved in the API's schemas). */
  ownValidator(suffix: string, schema: JsonSchema): string;
  /** A name from runtime/server.ts, imported as a type. */
  runtime(name: string): string;
}

export interface ServerOperation {
  info: OperationInfo;
  requestType: string;
  resultType: string;
  /** `export interface GetTaskRequest { ... }` */
  requestDeclaration: string;
  /** `export type GetTaskResult = ...` */
  resultDeclaration: string;
  /** Member of the handlers interface. */
  member: string;
  /** Entry of the `operations` object. */
  spec: string;
}

const LOCATIONS: Array<[Parameter['in'], string]> = [
  ['path', 'Path'],
  ['query', 'Query'],
  ['header', 'Headers'],
  ['cookie', 'Cookies'],
];
const FILTER = /^filter\[([^\][]+)\]$/;
const TOTAL_PROPERTIES = ['total', 'totalCount', 'total_count', 'totalItems', 'total_items', 'count'];
const PREV_CURSOR = /^prev(ious)?_?cursor$/i;

function isSuccess(status: string): boolean {
  return /^2(\d\d|XX)$/i.test(status);
}

/** Follows `$ref`s to named schemas. */
export function resolver(model: ApiModel): (schema: JsonSchema | undefined) => JsonSchema | undefined {
  const byName = new Map(model.schemas.map((schema) => [schema.name, schema.schema]));
  return (schema) => {
    for (let depth = 0; depth < 16 && typeof schema === 'object' && schema.$ref; depth++) {
      const name = refName(schema.$ref);
      schema = name === undefined ? undefined : byName.get(name);
    }
    return schema;
  };
}

type Resolve = ReturnType<typeof resolver>;
type Scalar = 'string' | 'integer' | 'number' | 'boolean' | 'unknown';
type Kind = Scalar | 'array' | 'object';

/** How the runtime reads a parameter's text: the schema's one non-null type, or `unknown`. */
function kindOf(schema: JsonSchema | undefined, resolve: Resolve, depth = 0): Kind {
  const resolved = resolve(schema);
  if (typeof resolved !== 'object' || depth > 8) return 'unknown';
  const declared =
    resolved.type === undefined ? [] : (Array.isArray(resolved.type) ? resolved.type : [resolved.type]).filter((type) => type !== 'null');
  if (declared.length === 1) return declared[0];
  if (declared.length > 1) return declared.every((type) => type === 'integer' || type === 'number') ? 'number' : 'unknown';
  const values = resolved.enum ?? (resolved.const !== undefined ? [resolved.const] : undefined);
  if (values?.length) {
    const kinds = new Set(
      values
        .filter((value) => value !== null)
        .map((value) => (typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value)),
    );
    if (kinds.size === 1) {
      const [kind] = kinds;
      if (kind === 'string' || kind === 'integer' || kind === 'number' || kind === 'boolean') return kind;
    }
    return 'unknown';
  }
  const members = resolved.allOf ?? resolved.anyOf ?? resolved.oneOf;
  if (members?.length) {
    const kinds = new Set(
      members.map((member) => kindOf(member, resolve, depth + 1)).filter((kind) => kind !== 'unknown' || !resolved.allOf),
    );
    if (kinds.size === 1) return [...kinds][0];
  }
  if (resolved.items !== undefined) return 'array';
  if (resolved.properties) return 'object';
  return 'unknown';
}

function scalarOf(kind: Kind): Scalar {
  return kind === 'array' || kind === 'object' ? 'unknown' : kind;
}

/** A form field typed `Blob` (core/schema/binary.ts): kept as the `File` it arrives as, for handler and validator alike. */
function isBinary(schema: JsonSchema | undefined, resolve: Resolve): boolean {
  const resolved = resolve(schema);
  return (
    typeof resolved === 'object' && isBinarySchema(resolved) && (resolved.type === undefined || kindOf(resolved, resolve) === 'string')
  );
}

/** Names a `sort` parameter accepts: its enum (without `-`), or the alternatives in its pattern. */
function sortFields(schema: JsonSchema, resolve: Resolve): string[] | undefined {
  let resolved = resolve(schema);
  if (typeof resolved === 'object' && kindOf(resolved, resolve) === 'array') resolved = resolve(resolved.items);
  if (typeof resolved !== 'object') return undefined;
  if (resolved.enum?.length && resolved.enum.every((value) => typeof value === 'string')) {
    return [...new Set((resolved.enum as string[]).map((value) => value.replace(/^[-+]/, '')).filter(Boolean))];
  }
  const alternatives = resolved.pattern ? /\(((?:\?:)?[A-Za-z0-9_.]+(?:\|[A-Za-z0-9_.]+)+)\)/.exec(resolved.pattern) : null;
  return alternatives ? alternatives[1].replace(/^\?:/, '').split('|') : undefined;
}

/** `application/json; charset=utf-8` → `application/json`. */
function mediaType(content: MediaContent): string {
  return content.mediaType.split(';', 1)[0].trim().toLowerCase();
}

function isForm(type: string): boolean {
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
}

function properties(schema: JsonSchema | undefined, resolve: Resolve): Array<[string, JsonSchema]> {
  const resolved = resolve(schema);
  if (typeof resolved !== 'object') return [];
  return [...Object.entries(resolved.properties ?? {}), ...(resolved.allOf ?? []).flatMap((member) => properties(member, resolve))];
}

/** A path with its parameters' names left out (`/tasks/{taskId}/` → `/tasks/{}`): routes equal under it match alike. */
function pathShape(path: string): string {
  return path.replace(/\{[^{}]+\}/g, '{}').replace(/\/+$/, '');
}

export class ServerOperations {
  private readonly resolve: Resolve;
  private readonly taken: Set<string>;
  /** The first GET operation of each path shape, for `locationProperty` (built on first use). */
  private getByShape: Map<string, Operation> | undefined;

  constructor(
    private readonly model: ApiModel,
    private readonly types: TypeEmitter,
    private readonly names: ServerNames,
    reserved: Iterable<string>,
  ) {
    this.resolve = resolver(model);
    this.taken = new Set(reserved);
  }

  describe(info: OperationInfo): ServerOperation {
    const base = pascalCase(info.method);
    const requestType = uniqueName(`${base}Request`, this.taken);
    const resultType = uniqueName(`${base}Result`, this.taken);
    const request = this.request(info, requestType);
    const result = this.result(info, resultType);
    const operation = info.operation;
    const lead = [operation.summary, operation.description !== operation.summary ? operation.description : undefined]
      .filter((part) => part?.trim())
      .join('\n\n');
    const doc = jsDoc(
      [
        [lead, `\`${operation.method.toUpperCase()} ${operation.path}\``].filter(Boolean).join('\n\n'),
        operation.deprecated ? '@deprecated' : undefined,
      ],
      '  ',
    );
    // `X | Promise<X>` written out rather than `MaybePromise<X>`: one alias instantiation less per
    // operation for tsc (3.7k of GitHub's server.ts's 4.0k).
    const member = `${doc}  ${propertyKey(info.method)}(request: ${requestType}, context: Context): ${resultType} | Promise<${resultType}>;`;
    return {
      info,
      requestType,
      resultType,
      requestDeclaration: request.declaration,
      resultDeclaration: result,
      member,
      spec: this.spec(info, request),
    };
  }

  // ---- request ---------------------------------------------------------------------------------

  /** Which query parameters are grouped under `filter`, and the request key of each parameter. */
  private layout(info: OperationInfo): { group: Map<Parameter, string>; key: Map<Parameter, string> } {
    const group = new Map<Parameter, string>();
    const key = new Map<Parameter, string>();
    const filters = info.parameters.filter(({ parameter }) => parameter.in === 'query' && FILTER.test(parameter.name));
    // Only when no other parameter already has the key `filter`.
    const groupable =
      filters.length > 0 &&
      !info.parameters.some(({ key: other, parameter }) => other === 'filter' && !filters.some((item) => item.parameter === parameter));
    for (const { parameter, key: clientKey } of info.parameters) {
      const filter = groupable && parameter.in === 'query' ? FILTER.exec(parameter.name) : null;
      if (filter) {
        group.set(parameter, 'filter');
        key.set(parameter, filter[1]);
      } else {
        key.set(parameter, clientKey);
      }
    }
    return { group, key };
  }

  private request(
    info: OperationInfo,
    name: string,
  ): { declaration: string; layout: ReturnType<ServerOperations['layout']>; sort?: { key: string; fields?: string[] } } {
    const layout = this.layout(info);
    const members: string[] = [];
    const filters: string[] = [];
    let sort: { key: string; fields?: string[] } | undefined;
    for (const { parameter, type } of info.parameters) {
      const key = layout.key.get(parameter)!;
      const grouped = layout.group.has(parameter);
      const indent = grouped ? '    ' : '  ';
      const facts = docParts(parameter.schema).filter((part) => !parameter.description || part.startsWith('@'));
      const wire =
        parameter.in === 'query' && (grouped || key === parameter.name)
          ? undefined
          : parameter.in === 'query'
            ? `Query parameter \`${parameter.name}\`.`
            : `The \`${parameter.name}\` ${parameter.in === 'path' ? 'path parameter' : parameter.in}.`;
      // A default is applied when the parameter is absent, so the handler always has a value.
      const hasDefault = typeof parameter.schema === 'object' && parameter.schema.default !== undefined;
      let optional = !(parameter.required || (hasDefault && !grouped));
      let memberType = grouped ? this.types.typeOf(parameter.schema, 'write', indent) : type;
      let note: string | undefined;
      if (parameter.in === 'query' && parameter.name === 'sort' && !grouped) {
        const fields = sortFields(parameter.schema, this.resolve);
        sort = { key, fields };
        memberType = `${this.names.runtime('SortField')}${fields ? `<${fields.map(stringLiteral).join(' | ')}>` : ''}[]`;
        // The schema's default is parsed like a given value (so handlers always see the order
        // clients get); only a sort without a default is empty when not given.
        const parsed = 'Parsed from the comma-separated `sort` text (`-` prefix: descending)';
        note = hasDefault
          ? `${parsed}; when not given, the default \`${String((parameter.schema as { default: unknown }).default)}\` parsed the same way.`
          : `${parsed}; empty when not given.`;
        optional = false;
      }
      const doc = jsDoc([parameter.description, wire, note, parameter.deprecated ? '@deprecated' : undefined, ...facts], indent);
      const line = `${doc}${indent}${propertyKey(key)}${optional ? '?' : ''}: ${this.names.type(memberType)};`;
      (grouped ? filters : members).push(line);
    }
    if (filters.length) {
      members.push(`  /** The \`filter[...]\` query parameters given, by field. */\n  filter: {\n${filters.join('\n')}\n  };`);
    }
    if (info.body) {
      const doc = jsDoc([info.operation.requestBody?.description ?? 'The request body, validated.', this.bodyNote(info)], '  ');
      members.push(`${doc}  body${info.body.required ? '' : '?'}: ${this.names.type(this.bodyType(info))};`);
    }
    const doc = jsDoc([
      `What \`${info.method}\` (\`${info.operation.method.toUpperCase()} ${info.operation.path}\`) receives, parsed and validated.`,
    ]);
    const declaration = members.length
      ? `${doc}export interface ${name} {\n${members.join('\n')}\n}\n`
      : `${doc}export type ${name} = Record<string, never>;\n`;
    return { declaration, layout, sort };
  }

  private bodyNote(info: OperationInfo): string | undefined {
    const types = (info.operation.requestBody?.contents ?? []).map(mediaType);
    if (types.length === 1 && types[0] === 'application/json') return undefined;
    return `Accepted as ${types.map((type) => `\`${type}\``).join(', ')}.`;
  }

  /** JSON and forms by schema (files as `File`s), text as a string, anything else as bytes. */
  private bodyType(info: OperationInfo): string {
    const contents = info.operation.requestBody?.contents ?? [];
    const types = contents.map((content) => {
      const type = mediaType(content);
      if (isJsonMediaType(type) || isForm(type))
        return content.schema === undefined ? 'unknown' : this.types.typeOf(content.schema, 'write', '  ');
      if (type.startsWith('text/')) return 'string';
      return 'Uint8Array';
    });
    return [...new Set(types)].join(' | ') || 'unknown';
  }

  // ---- result ----------------------------------------------------------------------------------

  /** The declared responses a handler may return, paired with their types. */
  private cases(info: OperationInfo): Array<{ response?: Response; item: ResponseCase; status: string }> {
    const responses = info.operation.responses;
    const success = responses.filter((response) => isSuccess(response.status));
    const errors = responses.filter((response) => !isSuccess(response.status));
    const result: Array<{ response?: Response; item: ResponseCase; status: string }> = [];
    if (success.length === info.success.length) {
      success.forEach((response, index) => result.push({ response, item: info.success[index], status: info.success[index].status }));
    } else {
      // No 2xx declared: a 200 with what `default` describes.
      for (const item of info.success) result.push({ item, status: item.status === 'number' ? '200' : item.status });
    }
    if (errors.length === info.errors.length) {
      errors.forEach((response, index) => {
        if (/^\d{3}$/.test(response.status)) result.push({ response, item: info.errors[index], status: info.errors[index].status });
      });
    }
    return result;
  }

  private result(info: OperationInfo, name: string): string {
    const location = this.locationProperty(info);
    const members = this.cases(info).map(({ response, item, status }) => {
      const parts = [`status: ${this.names.type(status)}`];
      // `body?: undefined` rather than no member: excess-property checks miss it in a union.
      parts.push(item.type === 'undefined' ? 'body?: undefined' : `body: ${this.names.type(item.type)}`);
      const headers = (response?.headers ?? []).filter((header) => header.name.toLowerCase() !== 'content-type');
      const fields = headers.map((header) => {
        const lower = header.name.toLowerCase();
        // A Location the core computes (see locationProperty) is the handler's to give or not.
        const required = header.required && !(lower === 'location' && location !== undefined && item.code === 201);
        const kind = kindOf(header.schema, this.resolve);
        return {
          text: `${propertyKey(lower)}${required ? '' : '?'}: ${kind === 'integer' || kind === 'number' ? 'number' : 'string'}`,
          required,
        };
      });
      // Declared headers are typed; any other header may be added beside them.
      const any = this.names.runtime('ResponseHeaders');
      const required = fields.some((field) => field.required);
      parts.push(`headers${required ? '' : '?'}: ${fields.length ? `${any} & { ${fields.map((field) => field.text).join('; ')} }` : any}`);
      const line = `{ ${parts.join('; ')} }`;
      return line.length <= 92 ? line : `{\n${parts.map((part) => `      ${part};`).join('\n')}\n    }`;
    });
    const doc = jsDoc([`What \`${info.method}\` may return, by status; throw an \`HttpProblem\` for other errors.`]);
    const body =
      members.length === 1 ? ` ${members[0].replace(/\n {4}/g, '\n')}` : `\n${members.map((member) => `  | ${member}`).join('\n')}`;
    return `${doc}export type ${name} =${body};\n`;
  }

  /**
   * The body property a 201's `Location` is computed from: when a GET route exists at
   * `<this path>/{id}` and the created body has that parameter's name (or `id`) as a property.
   */
  private locationProperty(info: OperationInfo): string | undefined {
    const operation = info.operation;
    if (operation.method !== 'post') return undefined;
    const created = info.success.find((item) => item.code === 201);
    const schema = created?.content?.schema;
    if (!schema) return undefined;
    if (!this.getByShape) {
      this.getByShape = new Map();
      for (const other of this.model.operations) {
        const shape = pathShape(other.path);
        if (other.method === 'get' && !this.getByShape.has(shape)) this.getByShape.set(shape, other);
      }
    }
    const member = this.getByShape.get(pathShape(`${operation.path.replace(/\/+$/, '')}/{}`));
    if (!member) return undefined;
    const last = /\{([^{}]+)\}\/?$/.exec(member.path)?.[1];
    const names = new Set(properties(schema, this.resolve).map(([property]) => property));
    if (last && names.has(last)) return last;
    return names.has('id') ? 'id' : undefined;
  }

  // ---- spec ------------------------------------------------------------------------------------

  private spec(info: OperationInfo, request: ReturnType<ServerOperations['request']>): string {
    const { operation } = info;
    const base = pascalCase(info.method);
    const lines = [
      `id: ${stringLiteral(info.method)}`,
      `method: ${stringLiteral(operation.method.toUpperCase())}`,
      `path: ${stringLiteral(operation.path)}`,
      `security: [${this.security(operation)
        .map((names) => `[${names.map(stringLiteral).join(', ')}]`)
        .join(', ')}]`,
    ];
    // Only operations that declare an `Idempotency-Key` header carry the flag (as the client's spec does).
    if (info.idempotencyKey) lines.push('idempotencyKey: true');
    const ifMatch = operation.parameters.find((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'if-match');
    if (ifMatch && ['put', 'patch', 'delete'].includes(operation.method))
      lines.push(`ifMatch: ${stringLiteral(ifMatch.required ? 'required' : 'optional')}`);

    if (info.parameters.length) {
      const params = info.parameters.map(({ parameter }) => `      ${this.parameterSpec(parameter, request.layout)},`);
      lines.push(`parameters: [\n${params.join('\n')}\n    ]`);
      const validators: string[] = [];
      for (const [location, suffix] of LOCATIONS) {
        const located = info.parameters.filter(({ parameter }) => parameter.in === location).map(({ parameter }) => parameter);
        if (!located.length) continue;
        const schema: SchemaObject = {
          type: 'object',
          properties: Object.fromEntries(located.map((parameter) => [parameter.name, parameter.schema])),
          required: located.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        };
        validators.push(`${location}: ${this.names.ownValidator(`${base}${suffix}`, schema)}`);
      }
      lines.push(`validate: { ${validators.join(', ')} }`);
    }
    if (operation.requestBody) lines.push(`body: ${this.bodySpec(info, base)}`);

    const responses = operation.responses
      .filter((response) => response.contents.length > 0)
      .map((response) => {
        const content = preferredContent(response.contents)!;
        const fields = [`contentType: ${stringLiteral(content.mediaType)}`];
        const validator = isJsonMediaType(content.mediaType) ? this.names.schemaValidator(content.schema, 'read') : undefined;
        if (validator) fields.push(`validate: ${validator}`);
        return `${objectKey(response.status.toUpperCase() === 'DEFAULT' ? 'default' : response.status.toUpperCase())}: { ${fields.join(', ')} }`;
      });
    lines.push(responses.length ? `responses: {\n${responses.map((line) => `      ${line},`).join('\n')}\n    }` : 'responses: {}');

    const location = this.locationProperty(info);
    if (location) lines.push(`location: { property: ${stringLiteral(location)} }`);
    const pagination = this.pagination(info);
    if (pagination) lines.push(`pagination: ${pagination}`);
    const pageSize = this.unboundedPageSize(info);
    if (pageSize) lines.push(`pageSize: { key: ${stringLiteral(pageSize)} }`);
    if (request.sort) {
      const fields = request.sort.fields ? `, fields: [${request.sort.fields.map(stringLiteral).join(', ')}]` : '';
      lines.push(`sort: { key: ${stringLiteral(request.sort.key)}${fields} }`);
    }
    const fieldsParam = info.parameters.find(({ parameter }) => parameter.in === 'query' && parameter.name === 'fields');
    if (fieldsParam) {
      const items = operation.pagination?.itemsProperty;
      lines.push(
        `fields: { key: ${stringLiteral(request.layout.key.get(fieldsParam.parameter)!)}${items ? `, items: ${stringLiteral(items)}` : ''} }`,
      );
    }
    return `  ${objectKey(info.method)}: {\n${lines.map((line) => `    ${line},`).join('\n')}\n  },`;
  }

  private parameterSpec(parameter: Parameter, layout: ReturnType<ServerOperations['layout']>): string {
    const kind = kindOf(parameter.schema, this.resolve);
    const fields = [
      `name: ${stringLiteral(parameter.name)}`,
      `in: ${stringLiteral(parameter.in)}`,
      `key: ${stringLiteral(layout.key.get(parameter)!)}`,
    ];
    const group = layout.group.get(parameter);
    if (group) fields.push(`group: ${stringLiteral(group)}`);
    fields.push(`type: ${stringLiteral(kind)}`);
    const resolved = this.resolve(parameter.schema);
    if (kind === 'array' && typeof resolved === 'object')
      fields.push(`items: ${stringLiteral(scalarOf(kindOf(resolved.items, this.resolve)))}`);
    if (kind === 'object') {
      const props = properties(parameter.schema, this.resolve).map(
        ([name, schema]) => `${objectKey(name)}: ${stringLiteral(scalarOf(kindOf(schema, this.resolve)))}`,
      );
      if (props.length) fields.push(`properties: { ${props.join(', ')} }`);
    }
    const defaultStyle = parameter.in === 'query' || parameter.in === 'cookie' ? 'form' : 'simple';
    if (parameter.style !== defaultStyle) fields.push(`style: ${stringLiteral(parameter.style)}`);
    if (parameter.explode !== (parameter.style === 'form')) fields.push(`explode: ${parameter.explode}`);
    const fallback = typeof parameter.schema === 'object' ? parameter.schema.default : undefined;
    if (fallback !== undefined && !parameter.required) {
      try {
        fields.push(`default: ${jsonLiteral(fallback)}`);
      } catch {
        // A default JSON cannot write (a cycle from YAML anchors) is left out.
      }
    }
    return `{ ${fields.join(', ')} }`;
  }

  private bodySpec(info: OperationInfo, base: string): string {
    const body = info.operation.requestBody!;
    const types = [...new Set(body.contents.map(mediaType))];
    const fields = [`required: ${body.required}`, `mediaTypes: [${types.map(stringLiteral).join(', ')}]`];
    const content = preferredContent(body.contents);
    const structured = content && (isJsonMediaType(content.mediaType) || isForm(mediaType(content)));
    if (content?.schema !== undefined && structured) {
      fields.push(
        `validate: ${this.names.schemaValidator(content.schema, 'write') ?? this.names.ownValidator(`${base}Body`, content.schema)}`,
      );
    }
    // A text body is checked against its string schema; a binary one by the byte counts its schema allows.
    const text = body.contents.find(
      (item) => mediaType(item).startsWith('text/') && item.schema !== undefined && !isBinary(item.schema, this.resolve),
    );
    if (text?.schema !== undefined) {
      fields.push(
        `validateText: ${this.names.schemaValidator(text.schema, 'write') ?? this.names.ownValidator(`${base}Text`, text.schema)}`,
      );
    }
    const bytes = body.contents
      .map((item) => this.resolve(item.schema))
      .find((schema) => typeof schema === 'object' && isBinary(schema, this.resolve));
    if (typeof bytes === 'object' && (bytes.minLength !== undefined || bytes.maxLength !== undefined)) {
      const limits = [
        bytes.minLength === undefined ? '' : `minLength: ${bytes.minLength}`,
        bytes.maxLength === undefined ? '' : `maxLength: ${bytes.maxLength}`,
      ];
      fields.push(`bytes: { ${limits.filter(Boolean).join(', ')} }`);
    }
    const form = body.contents.find((item) => isForm(mediaType(item)) && item.schema !== undefined);
    if (form) {
      const specs = properties(form.schema, this.resolve).map(([name, schema]) => {
        const kind = kindOf(schema, this.resolve);
        const resolved = this.resolve(schema);
        if (isBinary(schema, this.resolve)) return `${objectKey(name)}: { type: "binary" }`;
        if (kind === 'array' && typeof resolved === 'object') {
          const items = isBinary(resolved.items, this.resolve) ? 'binary' : scalarOf(kindOf(resolved.items, this.resolve));
          return `${objectKey(name)}: { type: "array", items: ${stringLiteral(items)} }`;
        }
        return `${objectKey(name)}: { type: ${stringLiteral(scalarOf(kind))} }`;
      });
      if (specs.length) fields.push(`fields: { ${specs.join(', ')} }`);
    }
    return `{ ${fields.join(', ')} }`;
  }

  private pagination(info: OperationInfo): string | undefined {
    const pagination = info.operation.pagination;
    if (!pagination) return undefined;
    const ok = info.success.find((item) => item.code === 200)?.content?.schema;
    const props = properties(ok, this.resolve).map(([name]) => name);
    const keyOf = (wire: string) => info.parameters.find(({ parameter }) => parameter.in === 'query' && parameter.name === wire)?.key;
    if (pagination.kind === 'cursor') {
      const fields = [
        `kind: "cursor"`,
        `cursor: ${stringLiteral(pagination.cursorParam)}`,
        `items: ${stringLiteral(pagination.itemsProperty)}`,
        `next: ${stringLiteral(pagination.nextCursorProperty)}`,
      ];
      const prev = props.find((name) => PREV_CURSOR.test(name));
      if (prev) fields.push(`prev: ${stringLiteral(prev)}`);
      return `{ ${fields.join(', ')} }`;
    }
    const page = keyOf(pagination.pageParam);
    const size = keyOf(pagination.pageSizeParam);
    if (!page || !size) return undefined;
    const fields = [
      `kind: "page"`,
      `page: { name: ${stringLiteral(pagination.pageParam)}, key: ${stringLiteral(page)} }`,
      `pageSize: { name: ${stringLiteral(pagination.pageSizeParam)}, key: ${stringLiteral(size)} }`,
    ];
    if (pagination.itemsProperty) fields.push(`items: ${stringLiteral(pagination.itemsProperty)}`);
    const total = TOTAL_PROPERTIES.find((name) => props.includes(name));
    if (total) fields.push(`total: ${stringLiteral(total)}`);
    return `{ ${fields.join(', ')} }`;
  }

  /** The request key of a page-size parameter whose schema sets no `maximum`. */
  private unboundedPageSize(info: OperationInfo): string | undefined {
    const pagination = info.operation.pagination;
    if (!pagination) return undefined;
    const wire = pagination.kind === 'cursor' ? pagination.limitParam : pagination.pageSizeParam;
    const found = info.parameters.find(({ parameter }) => parameter.in === 'query' && parameter.name === wire);
    if (!found) return undefined;
    const schema = this.resolve(found.parameter.schema);
    return typeof schema === 'object' && schema.maximum === undefined && schema.exclusiveMaximum === undefined ? found.key : undefined;
  }

  /** Alternatives of scheme names; schemes a request cannot carry (mutualTLS) are left out. */
  private security(operation: Operation): string[][] {
    const requirements = operation.security ?? this.model.security;
    const usable = (name: string) =>
      Object.hasOwn(this.model.securitySchemes, name) && this.model.securitySchemes[name].type !== 'mutualTLS';
    if (
      requirements.some((requirement) => Object.keys(requirement).every((name) => !usable(name)) && Object.keys(requirement).length > 0)
    ) {
      // An alternative satisfied by the TLS layer alone: nothing to check in the request.
      return [];
    }
    return requirements.map((requirement) => Object.keys(requirement).filter(usable));
  }
}
