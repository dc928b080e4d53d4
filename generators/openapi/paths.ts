/**
 * `paths.ts` (option `openapiTypescript`): the API's types in openapi-typescript's shape — `paths`,
 * `webhooks`, `components`, `$defs` and `operations` — so code written on openapi-fetch or
 * openapi-react-query compiles against our output unchanged.
 *
 * The shape is openapi-typescript 7's, member for member where those libraries read it: a path
 * item has every method (`put?: never` when absent) and its `parameters`; an operation has
 * `parameters: { query?, header?, path?, cookie? }` (a location is required when one of its
 * parameters is, `never` when it has none), `requestBody` (`{ content: { <media type>: T } }`,
 * optional unless required, `never` when absent) and `responses` by status (numeric keys, `"4XX"`,
 * `default`), each `{ headers: { …; [name: string]: unknown }; content: { … } }` (`content?: never`
 * without a body). Shapes are never repeated: every schema is named by its type in `types.ts`
 * (`components["schemas"]["Task"]` is `Task`), request bodies by its write variant (`TaskInput`).
 *
 * A separate file, written on request: a project's `tsc` checks every file it includes, so the
 * types of users who do not call openapi-fetch stay as they are (bench/ measures `tsc` on the whole
 * output).
 */
import { FileBuilder, typeSymbol, type ImportSymbol } from '../core/builder/file.js';
import { commentText, jsDoc, propertyKey, stringLiteral } from '../core/builder/names.js';
import type { Direction, TypeEmitter } from '../core/emit/types/emit.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { ApiModel, HttpMethod, MediaContent, Operation, Parameter, Response } from './model.js';
import type { PathsContext } from './template-context.js';

/** openapi-typescript's order of a path item's methods. */
const METHODS: HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const LOCATIONS: Parameter['in'][] = ['query', 'header', 'path', 'cookie'];
/** What the file declares, and the globals the type emitter may print: imports must not shadow them. */
const DECLARED = ['paths', 'webhooks', 'components', '$defs', 'operations', 'Record', 'Blob', 'Headers', 'NonNullable'];

/** Prints a type of the type emitter at an indentation, its named types imported from types.ts. */
type Printer = (schema: JsonSchema, direction: Direction, indent: string) => string;

export function emitPaths(model: ApiModel, types: TypeEmitter, templates: TemplateRenderer, source: string): GeneratedFile {
  const file = new FileBuilder('paths.ts', DECLARED);
  const known = new Map<string, ImportSymbol>();
  for (const { name } of model.schemas)
    for (const type of [types.typeName(name, 'read'), types.typeName(name, 'write')]) known.set(type, typeSymbol(type, './types'));
  const print: Printer = (schema, direction, indent) => file.rewrite(types.typeOf(schema, direction, indent), known);

  const keys = operationKeys(model.operations);
  const byPath = new Map<string, Operation[]>();
  for (const operation of model.operations) {
    const onPath = byPath.get(operation.path);
    if (onPath) onPath.push(operation);
    else byPath.set(operation.path, [operation]);
  }

  const paths = [...byPath].map(([path, operations]) => {
    const methods = METHODS.map((method) => {
      const operation = operations.find((item) => item.method === method);
      if (!operation) return `    ${method}?: never;\n`;
      const doc = jsDoc([operation.summary, operation.description, operation.deprecated && '@deprecated'], '    ');
      return `${doc}    ${method}: operations[${stringLiteral(keys.get(operation)!)}];\n`;
    });
    // The path's own parameters: those of its template, which every operation on it declares alike.
    const pathParameters = operations[0]!.parameters.filter((parameter) => parameter.in === 'path');
    return `  ${stringLiteral(path)}: {\n${parametersMember(pathParameters, print, '    ')}${methods.join('')}  };\n`;
  });

  // The document's own component schemas under their keys; those of other files under their names,
  // as openapi-typescript's bundling of the document adds them.
  const schemas = model.schemas
    .filter((schema) => schema.origin === 'component')
    .map(({ name, componentKey }) => `    ${propertyKey(componentKey ?? name)}: ${file.use(known.get(types.typeName(name, 'read'))!)};\n`);

  const operations = model.operations.map((operation) => {
    const indent = '    ';
    const body = operation.requestBody;
    const requestBody = body
      ? `${indent}requestBody${body.required ? '' : '?'}: {\n${contentMember(body.contents, 'write', print, `${indent}  `)}${indent}};\n`
      : `${indent}requestBody?: never;\n`;
    const responses = operation.responses.map((response) => responseMember(response, print, `${indent}  `));
    return (
      `  ${propertyKey(keys.get(operation)!)}: {\n` +
      parametersMember(operation.parameters, print, indent) +
      requestBody +
      `${indent}responses: {\n${responses.join('')}${indent}};\n` +
      '  };\n'
    );
  });

  const context: PathsContext = {
    source,
    title: commentText(model.title),
    version: commentText(model.version),
    imports: file.imports(),
    // One member each, without its final line break (the template writes it).
    paths: paths.map((member) => member.trimEnd()),
    schemas: schemas.map((member) => member.trimEnd()),
    operations: operations.map((member) => member.trimEnd()),
  };
  return { path: 'paths.ts', content: templates.render('openapi/paths.ts.hbs', context) };
}

/** Each operation's key in `operations`: its `operationId`, as openapi-fetch users name it; our name when it has none or shares it. */
function operationKeys(operations: Operation[]): Map<Operation, string> {
  const counts = new Map<string, number>();
  for (const { operationId } of operations) if (operationId !== undefined) counts.set(operationId, (counts.get(operationId) ?? 0) + 1);
  const keys = new Map<Operation, string>();
  const taken = new Set<string>();
  for (const operation of operations) {
    const id = operation.operationId;
    const key = id !== undefined && counts.get(id) === 1 ? id : operation.name;
    keys.set(operation, taken.has(key) ? `${key}_${operation.method}` : key);
    taken.add(keys.get(operation)!);
  }
  return keys;
}

/** `parameters: { query?: …; header?: …; path?: …; cookie?: … }`: a location is required when one of its parameters is. */
function parametersMember(parameters: Parameter[], print: Printer, indent: string): string {
  const inner = `${indent}  `;
  const locations = LOCATIONS.map((location) => {
    const members = parameters.filter((parameter) => parameter.in === location);
    if (members.length === 0) return `${inner}${location}?: never;\n`;
    const required = members.some((parameter) => parameter.required);
    const lines = members.map((parameter) => {
      const doc = jsDoc([parameter.description, parameter.deprecated && '@deprecated'], `${inner}  `);
      const type = print(parameter.schema, 'write', `${inner}  `);
      return `${doc}${inner}  ${propertyKey(parameter.name)}${parameter.required ? '' : '?'}: ${type};\n`;
    });
    return `${inner}${location}${required ? '' : '?'}: {\n${lines.join('')}${inner}};\n`;
  });
  return `${indent}parameters: {\n${locations.join('')}${indent}};\n`;
}

/** `content: { "application/json": T; … }`: every media type, typed by its schema. */
function contentMember(contents: MediaContent[], direction: Direction, print: Printer, indent: string): string {
  const lines = contents.map(
    ({ mediaType, schema }) =>
      `${indent}  ${stringLiteral(mediaType)}: ${schema === undefined ? 'unknown' : print(schema, direction, `${indent}  `)};\n`,
  );
  return `${indent}content: {\n${lines.join('')}${indent}};\n`;
}

/** `200: { headers: { …; [name: string]: unknown }; content: { … } }`; numeric statuses as number keys, which openapi-fetch matches. */
function responseMember(response: Response, print: Printer, indent: string): string {
  const status = /^\d{3}$/.test(response.status)
    ? response.status
    : response.status === 'default'
      ? 'default'
      : stringLiteral(response.status.toUpperCase());
  const inner = `${indent}  `;
  const headers = response.headers.map((header) => {
    const doc = jsDoc([header.description], `${inner}  `);
    return `${doc}${inner}  ${propertyKey(header.name)}${header.required ? '' : '?'}: ${print(header.schema, 'read', `${inner}  `)};\n`;
  });
  const content = response.contents.length ? contentMember(response.contents, 'read', print, inner) : `${inner}content?: never;\n`;
  return (
    jsDoc([response.description], indent) +
    `${indent}${status}: {\n` +
    `${inner}headers: {\n${headers.join('')}${inner}  [name: string]: unknown;\n${inner}};\n` +
    content +
    `${indent}};\n`
  );
}
