/**
 * The response each REST mock answers an operation with (`codegen mock`'s handlers and `msw.ts`):
 * its first success response, with a body from the media type's examples, else the schema's, else
 * built from the schema (core/schema/samples.ts, seeded per operation), and its required headers.
 * An operation whose body cannot be sampled gets the reason instead, and a located warning.
 */
import type { Diagnostic, SourceLocation } from '../core/diagnostics.js';
import { refName, type JsonSchema } from '../core/schema/json-schema.js';
import { SampleCheck } from '../core/schema/sample-check.js';
import { hashKey } from '../core/mock/seeded-random.js';
import { SampleGenerator } from '../core/schema/samples.js';
import type { ApiModel, MediaContent, Operation } from './model.js';
import { consistentPage } from './page-sample.js';
import { resolve } from './pagination.js';
import { isJsonMediaType, type OperationInfo, type OperationsInfo } from './operation-types.js';

export type SampleBody = { kind: 'json'; value: unknown } | { kind: 'text'; value: string } | { kind: 'bytes'; value: string };

export interface OperationSample {
  info: OperationInfo;
  /** The status answered: the first 2xx declared (200 when only `default` or a range is). */
  status: number;
  contentType?: string;
  body?: SampleBody;
  /** Required response headers, by lower-case name. */
  headers: Record<string, unknown>;
  /** Why no response could be built: the mock answers 501 with it. */
  unsamplable?: string;
}

export function operationSamples(
  model: ApiModel,
  described: OperationsInfo,
  seed: number,
): { samples: OperationSample[]; warnings: Diagnostic[] } {
  const check = new SampleCheck(model.schemas);
  const named = new Map(model.schemas.map(({ name, schema }) => [name, schema]));
  const context: SampleContext = { generator: new SampleGenerator(model.schemas, check), check, named };
  const warnings: Diagnostic[] = [];
  const samples = described.operations.map((info) => {
    const sample = operationSample(info, context, hashKey(seed, info.method));
    const location = schemaLocation(info.success[0]?.content?.schema, named) ?? info.operation.location;
    if (sample.unsamplable !== undefined)
      warnings.push({
        ...(location && { location }),
        severity: 'warning',
        message: `mock: ${info.method} answers 501: ${sample.unsamplable}`,
        hint: 'add an example to the response, or simplify the schema',
      });
    return sample;
  });
  return { samples, warnings };
}

/** Where the body's schema (or the named schema it refers to) is written. */
function schemaLocation(schema: JsonSchema | undefined, named: Map<string, JsonSchema>): SourceLocation | undefined {
  if (typeof schema !== 'object') return undefined;
  if (schema['x-location']) return schema['x-location'];
  const target = schema.$ref === undefined ? undefined : named.get(refName(schema.$ref) ?? '');
  return typeof target === 'object' ? target['x-location'] : undefined;
}

/** What sampling every operation of a model shares. */
interface SampleContext {
  generator: SampleGenerator;
  check: SampleCheck;
  named: Map<string, JsonSchema>;
}

function operationSample(info: OperationInfo, context: SampleContext, seed: number): OperationSample {
  const { generator } = context;
  const success = info.success[0];
  const response =
    info.operation.responses.find((candidate) => /^2/.test(candidate.status)) ??
    info.operation.responses.find((r) => r.status === 'default');
  const status = success?.code ?? 200;
  const sample: OperationSample = { info, status, headers: {} };
  const fail = (reason: string) => ({ ...sample, unsamplable: reason });
  for (const header of response?.headers ?? []) {
    if (!header.required || header.name.toLowerCase() === 'content-type') continue;
    const value = generator.sample(header.schema, hashKey(seed, header.name), 'response');
    if (!value.ok) return fail(`header ${header.name}: ${value.reason}`);
    sample.headers[header.name.toLowerCase()] = value.value;
  }
  const content = success?.type === 'undefined' ? undefined : success?.content;
  if (!content) return sample;
  sample.contentType = content.mediaType;
  if (!isJsonMediaType(content.mediaType) && !content.mediaType.startsWith('text/')) {
    sample.body = { kind: 'bytes', value: content.examples?.find((example) => typeof example === 'string') ?? 'sample' };
    return sample;
  }
  const value = generator.sample(content.schema ?? true, seed, 'response', content.examples ?? []);
  if (!value.ok) return fail(`${content.mediaType} body: ${value.reason}`);
  if (isJsonMediaType(content.mediaType))
    sample.body = { kind: 'json', value: status === 200 ? pageNumbered(value.value, info.operation, content, context) : value.value };
  else sample.body = { kind: 'text', value: typeof value.value === 'string' ? value.value : JSON.stringify(value.value) };
  return sample;
}

/**
 * A built 200 body of a page-numbered operation with consistent numbers (page-sample.ts), when its
 * schema accepts them; an example (the media type's or the body schema's) is answered as written.
 */
function pageNumbered(body: unknown, operation: Operation, content: MediaContent, { check, named }: SampleContext): unknown {
  const { pagination } = operation;
  const { schema, examples } = content;
  if (pagination?.kind !== 'page' || examples?.includes(body) || resolve(schema, named)?.examples?.includes(body)) return body;
  const page = consistentPage(body, schema, operation, pagination, named);
  return page !== undefined && check.accepts(schema ?? true, page, 'response') ? page : body;
}
