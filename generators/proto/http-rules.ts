/**
 * The REST routes of a proto API: each method's `google.api.http` rule (extension 72295728 of
 * `MethodOptions`, declared by google/api/annotations.proto), its `additional_bindings` after it,
 * checked here as the server's transcoder (runtime/grpc-transcoding.ts) will use
 * them, so a rule that cannot work stops generation with its location instead of the server's
 * start. Methods that stream requests get no routes (only gRPC can carry their streams).
 */
import {
  getExtension,
  hasExtension,
  type DescExtension,
  type DescField,
  type DescMessage,
  type DescMethod,
  type DescService,
} from '@bufbuild/protobuf';
import { error, type SourceLocation } from '../core/diagnostics.js';
import type { LoadedProto } from './load.js';

/** One HTTP binding, as `HttpRule` of the runtime has it. */
export interface HttpBinding {
  method: string;
  path: string;
  body?: string;
  responseBody?: string;
}

/** The shape of `google.api.HttpRule` as `getExtension` returns it. */
interface HttpRuleMessage {
  pattern:
    | { case: 'get' | 'put' | 'post' | 'delete' | 'patch'; value: string }
    | { case: 'custom'; value: { kind: string; path: string } }
    | { case: undefined; value?: undefined };
  body: string;
  responseBody: string;
  additionalBindings: HttpRuleMessage[];
}

const HTTP_EXTENSION = 'google.api.http';

/** Messages whose JSON form is one string or number (as the runtime's `STRING_FORM`). */
const STRING_FORM = new Set(
  [
    'Timestamp',
    'Duration',
    'FieldMask',
    'DoubleValue',
    'FloatValue',
    'Int64Value',
    'UInt64Value',
    'Int32Value',
    'UInt32Value',
    'BoolValue',
    'StringValue',
    'BytesValue',
  ].map((name) => `google.protobuf.${name}`),
);

/** Grammar of http.proto's "Path template syntax", as one expression. */
const LITERAL = '[^/{}*=:]+';
const SEGMENT = `(?:\\*\\*|\\*|${LITERAL})`;
const VARIABLE = `\\{[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*(?:=${SEGMENT}(?:/${SEGMENT})*)?\\}`;
const TEMPLATE = new RegExp(`^/(?:${SEGMENT}|${VARIABLE})(?:/(?:${SEGMENT}|${VARIABLE}))*(?::${LITERAL})?$`);

/** The routes of each method of `service` that has rules, by method `localName`, in declaration order. */
export function httpRulesOf(proto: LoadedProto, service: DescService): Map<string, HttpBinding[]> {
  const rules = new Map<string, HttpBinding[]>();
  const extension = proto.registry.getExtension(HTTP_EXTENSION);
  if (extension === undefined) return rules;
  const seen = new Map<string, string>();
  service.methods.forEach((method, index) => {
    const options = method.proto.options;
    if (options === undefined || !hasExtension(options, extension)) return;
    if (method.methodKind === 'client_streaming' || method.methodKind === 'bidi_streaming') return;
    const where = locationOf(proto, service, index);
    const rule = getExtension(options, extension as DescExtension) as unknown as HttpRuleMessage;
    const bindings = [rule, ...rule.additionalBindings].map((binding, i) => {
      if (i > 0 && binding.additionalBindings.length > 0)
        throw error(
          `${method.name}: an additional binding cannot have additional_bindings of its own`,
          where,
          "list every binding in the rule's own additional_bindings",
        );
      return checkBinding(method, binding, where);
    });
    for (const binding of bindings) {
      const key = `${binding.method} ${binding.path.replace(/\{[^}=]+(=([^}]*))?\}/g, (_, __, segments: string | undefined) => `{${segments ?? '*'}}`)}`;
      const other = seen.get(key);
      if (other !== undefined)
        throw error(
          `${method.name}: the route ${binding.method} ${binding.path} is also ${other}'s`,
          where,
          'give one of the methods another path',
        );
      seen.set(key, method.name);
    }
    rules.set(method.localName, bindings);
  });
  return rules;
}

function checkBinding(method: DescMethod, rule: HttpRuleMessage, where: SourceLocation | undefined): HttpBinding {
  const fail = (what: string, hint: string) => error(`${method.name}: google.api.http ${what}`, where, hint);
  const pattern = rule.pattern;
  if (pattern.case === undefined)
    throw fail('has no pattern', 'set one of get, put, post, delete, patch or custom, e.g. get: "/v1/{name=tasks/*}"');
  const httpMethod = pattern.case === 'custom' ? pattern.value.kind : pattern.case.toUpperCase();
  const path = pattern.case === 'custom' ? pattern.value.path : pattern.value;
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(httpMethod))
    throw fail(`custom kind ${JSON.stringify(httpMethod)} is not an HTTP method`, 'use a method token such as "HEAD" or "SEARCH"');
  const at = `${httpMethod} ${JSON.stringify(path)}`;
  if (!TEMPLATE.test(path) || /\*\*./.test(path.replace(/:[^/}]*$/, '').replace(/\}$/, ''))) {
    throw fail(
      `${at} is not a path template`,
      'write "/" segments of literals, "*", a final "**" and {field} or {field=segments} variables, then an optional ":verb", e.g. "/v1/{name=projects/*/tasks/*}:cancel"',
    );
  }
  const variables = [...path.matchAll(/\{([^}=]+)/g)].map((match) => match[1]!);
  const twice = variables.find((name, i) => variables.indexOf(name) !== i);
  if (twice !== undefined) throw fail(`${at} binds ${twice} twice`, 'bind each field once');
  for (const name of variables) {
    const fields = resolve(method.input, name);
    const last = fields?.[fields.length - 1];
    if (last === undefined)
      throw fail(`${at}: ${method.input.typeName} has no field ${name}`, `name a field of ${method.input.typeName}, by its proto name`);
    if (!isSingularUrlValue(last))
      throw fail(
        `${at}: the path variable ${name} is a ${kindOf(last)}`,
        'bind a singular scalar, enum or string-valued field (Timestamp, Duration, wrappers) to the path',
      );
  }
  const binding: HttpBinding = { method: httpMethod, path };
  if (rule.body !== '') {
    if (httpMethod === 'GET') throw fail(`${at} has a body`, 'a GET request has no body: remove `body`, or use post');
    if (rule.body !== '*' && resolve(method.input, rule.body) === undefined)
      throw fail(
        `body "${rule.body}" is not a field of ${method.input.typeName}`,
        'name a field of the request, or "*" for every field the path does not set',
      );
    binding.body = rule.body;
  }
  if (rule.responseBody !== '') {
    if (!method.output.fields.some((field) => field.name === rule.responseBody))
      throw fail(
        `response_body "${rule.responseBody}" is not a field of ${method.output.typeName}`,
        'name a top-level field of the response by its proto name',
      );
    binding.responseBody = rule.responseBody;
  }
  return binding;
}

/** The fields along a dotted path of proto names, or undefined when one is missing. */
function resolve(message: DescMessage, path: string): DescField[] | undefined {
  const fields: DescField[] = [];
  let at: DescMessage | undefined = message;
  for (const part of path.split('.')) {
    const field: DescField | undefined = at?.fields.find((candidate) => candidate.name === part);
    if (field === undefined) return undefined;
    fields.push(field);
    at = field.fieldKind === 'message' && !STRING_FORM.has(field.message.typeName) ? field.message : undefined;
  }
  return fields;
}

function isSingularUrlValue(field: DescField): boolean {
  return (
    field.fieldKind === 'scalar' || field.fieldKind === 'enum' || (field.fieldKind === 'message' && STRING_FORM.has(field.message.typeName))
  );
}

function kindOf(field: DescField): string {
  return field.fieldKind === 'message' ? `message (${field.message.typeName})` : field.fieldKind;
}

/** Where the method's `google.api.http` option is written (else the method), from `source_code_info`. */
function locationOf(proto: LoadedProto, service: DescService, index: number): SourceLocation | undefined {
  const file = service.file;
  const serviceIndex = file.services.indexOf(service);
  const method = [6, serviceIndex, 2, index];
  const locations = file.proto.sourceCodeInfo?.location ?? [];
  const find = (path: number[]) =>
    locations.find((location) => location.path.length === path.length && location.path.every((part, i) => part === path[i]));
  const location = find([...method, 4, 72295728]) ?? find(method);
  if (location === undefined) return undefined;
  return { file: proto.displayNames.get(file.proto.name) ?? file.proto.name, line: location.span[0]! + 1, column: location.span[1]! + 1 };
}
