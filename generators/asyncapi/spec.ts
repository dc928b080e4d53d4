/**
 * Checks a document against the official AsyncAPI JSON Schema (`@asyncapi/specs`) with ajv.
 *
 * The schema is compiled once per version, on first use (~0.4 s; a run that reads no AsyncAPI pays
 * nothing). ajv reports every failed branch of every `oneOf` — a single typo in a message gives
 * about ten errors, most of them "must have required property '$ref'" from the Reference
 * alternative. `specificErrors` keeps what a user needs: the errors no other error lies beneath,
 * without the combinator and Reference noise, each at its instance path's `line:col`.
 */
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Diagnostic } from '../core/diagnostics.js';
import type { SourceDoc } from '../core/schema/json-documents.js';
import { closest, describe } from '../core/schema/json-documents.js';

export type AsyncApiVersion = '3.0.0' | '3.1.0';

const require = createRequire(import.meta.url);
const compiled = new Map<AsyncApiVersion, ValidateFunction>();

function validator(version: AsyncApiVersion): ValidateFunction {
  let validate = compiled.get(version);
  if (!validate) {
    // ajv and ajv-formats are CommonJS; `require` avoids their default-export interop quirks.
    const Ajv = require('ajv') as typeof import('ajv').default;
    const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
    const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
    addFormats(ajv);
    validate = ajv.compile(require(`@asyncapi/specs/schemas/${version}-without-$id.json`) as object);
    compiled.set(version, validate);
  }
  return validate;
}

/** Problems of `doc` (the root document) against the AsyncAPI `version` schema; `[]` when valid. */
export function checkAgainstSpec(doc: SourceDoc, version: AsyncApiVersion): Diagnostic[] {
  const validate = validator(version);
  if (validate(doc.data)) return [];
  return specificErrors(validate.errors ?? []).map((problem) => toDiagnostic(problem, doc));
}

function pathOf(error: ErrorObject): string[] {
  if (error.instancePath === '') return [];
  return error.instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `oneOf`, `anyOf`, `if`, `not`: they only say that a branch below failed. */
function isCombinator(error: ErrorObject): boolean {
  return error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'if' || error.keyword === 'not';
}

/** The Reference alternative of a `oneOf` failing because the value is not a `$ref`: never the point. */
function isReferenceNoise(error: ErrorObject): boolean {
  return error.keyword === 'required' && (error.params as { missingProperty?: string }).missingProperty === '$ref';
}

/**
 * The errors worth showing: combinator and Reference noise dropped, then every error with another
 * one beneath it (at a longer instance path) dropped too, since the deeper one says more. When only
 * noise is left, the deepest combinator error stands for it.
 */
export function specificErrors(errors: ErrorObject[]): ErrorObject[] {
  const useful = errors.filter((error) => !isCombinator(error) && !isReferenceNoise(error));
  if (useful.length === 0) {
    const deepest = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
    return deepest ? [deepest] : [];
  }
  const paths = useful.map((error) => error.instancePath);
  const kept = useful.filter((error) => !paths.some((other) => other.startsWith(`${error.instancePath}/`)));
  const seen = new Set<string>();
  return kept.filter((error) => {
    const key = `${error.instancePath} ${error.keyword} ${JSON.stringify(error.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function valueAt(data: unknown, path: string[]): unknown {
  let value = data;
  for (const part of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

function toDiagnostic(error: ErrorObject, doc: SourceDoc): Diagnostic {
  const path = pathOf(error);
  const name = path.length ? `"${path.join('.')}"` : 'the document';
  const value = valueAt(doc.data, path);
  const params = error.params as Record<string, unknown>;
  const diagnostic = (message: string, at: string[], hint?: string, part: 'key' | 'value' = 'value'): Diagnostic => ({
    severity: 'error',
    message,
    location: doc.locate(at, part),
    ...(hint ? { hint } : {}),
  });
  switch (error.keyword) {
    case 'required':
      return diagnostic(
        `${name} is missing the required "${String(params.missingProperty)}"`,
        path,
        `add ${String(params.missingProperty)}: ...`,
      );
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      return diagnostic(
        `${name} has an unknown property "${extra}"`,
        [...path, extra],
        'AsyncAPI 3 does not allow it here; check the spelling, or prefix custom properties with x-',
        'key',
      );
    }
    case 'type':
      return diagnostic(`${name} must be ${article(String(params.type))}, not ${describe(value)}`, path);
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const near = typeof value === 'string' ? closest(value, allowed) : undefined;
      return diagnostic(
        `${name} must be one of ${allowed.join(', ')}, not ${describe(value)}`,
        path,
        near ? `did you mean "${near}"?` : undefined,
      );
    }
    case 'const':
      return diagnostic(`${name} must be ${JSON.stringify(params.allowedValue)}, not ${describe(value)}`, path);
    case 'format':
      return diagnostic(`${name} must be a valid ${String(params.format)}, not ${describe(value)}`, path);
    case 'oneOf':
    case 'anyOf':
      return diagnostic(
        `${name} does not match any form AsyncAPI allows here`,
        path,
        'compare it with the AsyncAPI 3 specification of this object',
      );
    default:
      return diagnostic(`${name} ${error.message ?? 'is invalid'}`, path);
  }
}

function article(type: string): string {
  const names: Record<string, string> = {
    object: 'an object',
    array: 'a list',
    string: 'a string',
    number: 'a number',
    integer: 'a whole number',
    boolean: 'true or false',
    null: 'null',
  };
  return type
    .split(',')
    .map((part) => names[part] ?? part)
    .join(' or ');
}
