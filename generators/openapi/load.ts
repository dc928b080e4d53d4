/**
 * The OpenAPI loader: reads an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (converted to
 * 3.0 by swagger2.ts), JSON or YAML, split over several files by `$ref`, checks its version and
 * hands it to lower.ts, which makes the model. Every problem found is reported at once, each with
 * its `file:line:col`, as one CodegenError. What breaks the spec but reads one obvious way, as
 * other tools read it (YAML that js-yaml reads, a query string in a path key, `allOf: {…}`, an
 * unknown `type`, `required: true` on a property, a duplicate operationId), is read so, with a
 * located warning; `strict` makes those errors.
 */
import { dirname, resolve } from 'node:path';
import type { ApiModel } from './model.js';
import { CodegenError, error, type Diagnostic } from '../core/diagnostics.js';
import { InputFiles } from '../core/pipeline/input-files.js';
import type { SourceDoc } from '../core/schema/json-documents.js';
import { describe, Documents, isObject, Problems } from '../core/schema/json-documents.js';
import type { JsonReparse } from '../core/schema/json-reparse.js';
import type { KeptLowerings } from '../core/schema/registry.js';
import { convertSwagger2, isSwagger } from './swagger2.js';
import { lowerDocument } from './lower.js';

export interface LoadOptions {
  /** Folder that paths in messages and `model.source` are relative to; default: the working directory. */
  displayRoot?: string;
  /** Folders `$ref`s may read files in (the project root and `allowRead`); default: the input's folder. */
  readRoots?: string[];
  /** Size cap per input file in bytes; default 64 MiB. */
  maxInputBytes?: number;
  /** What is forgiven with a warning otherwise is an error. */
  strict?: boolean;
  /** Receives the warnings, in file order (not called when loading fails). */
  onWarnings?: (warnings: Diagnostic[]) => void;
  /**
   * What a watch process keeps across runs (`codegen --watch`): the JSON inputs' parses, so an edit
   * re-parses only what it changed, and the schemas' lowerings, reused for the values it left alone.
   */
  kept?: { parses: JsonReparse; lowerings: KeptLowerings };
}

export async function loadOpenApi(inputPath: string, options: LoadOptions = {}): Promise<ApiModel> {
  const files = new InputFiles({ roots: options.readRoots ?? [dirname(resolve(inputPath))], maxBytes: options.maxInputBytes });
  const docs = new Documents(
    resolve(options.displayRoot ?? process.cwd()),
    files,
    options.kept ? { lenientYaml: true, reparse: options.kept.parses } : { lenientYaml: true },
  );
  const opened = docs.open(resolve(inputPath));
  if (Array.isArray(opened)) throw new CodegenError(opened);
  const problems = new Problems(!options.strict);
  // Swagger 2.0 is read as the OpenAPI 3.0 document it says, with the 2.0 file's positions.
  const root = isSwagger(opened.data) ? convertSwagger2(checkSwaggerVersion(opened), docs, problems) : opened;
  const model = lowerDocument(root, docs, checkVersion(root), problems, options.kept?.lowerings);
  for (const forgiven of docs.warnings) problems.warn(forgiven.message, forgiven.location, forgiven.hint);
  problems.throwIfAny();
  options.onWarnings?.(problems.sortedWarnings());
  return model;
}

/** `swagger: "2.0"`, the one Swagger version there is to read. */
function checkSwaggerVersion(root: SourceDoc): SourceDoc {
  const version = (root.data as Record<string, unknown>).swagger;
  if (version === '2.0') return root;
  const where = root.locate(['swagger']);
  if (version === 2)
    throw error('"swagger" must be the string "2.0", not the number 2', where, 'quote it: swagger: "2.0" (YAML reads 2.0 as a number)');
  throw error(
    `Swagger ${describe(version)} is not supported; codegen reads Swagger 2.0 and OpenAPI 3.0.x and 3.1.x`,
    where,
    'write swagger: "2.0" if the document follows Swagger 2.0',
  );
}

/** `openapi: 3.0.x` or `3.1.x`; anything else stops here with a clear message. */
function checkVersion(root: SourceDoc): '3.0' | '3.1' {
  const data = root.data;
  if (!isObject(data)) {
    throw error(
      `${root.display} is not an OpenAPI document: its top level is ${describe(data)}, not an object`,
      root.locate([]),
      'an OpenAPI document starts with openapi: 3.1.0, info: and paths:',
    );
  }
  const version = data.openapi;
  if (version === undefined) {
    throw error(
      `${root.display} is not an OpenAPI document: it has no "openapi" field`,
      root.locate([]),
      'add openapi: 3.1.0 at the top (codegen reads OpenAPI 3.0 and 3.1)',
    );
  }
  // Located only on error: a position in a large JSON text costs a scan of it.
  const where = () => root.locate(['openapi']);
  if (typeof version !== 'string') {
    throw error(
      `"openapi" must be a version string such as "3.1.0", not ${describe(version)}`,
      where(),
      'quote it: openapi: "3.1.0" (YAML reads 3.0 as a number)',
    );
  }
  const match = /^3\.([01])\.\d+(-.+)?$/.exec(version);
  if (!match) {
    throw error(
      `OpenAPI ${version} is not supported; codegen reads OpenAPI 3.0.x and 3.1.x`,
      where(),
      /^3\.[01]$/.test(version) ? `write the full version, e.g. ${version}.0` : 'write openapi: 3.1.0 if the document follows OpenAPI 3.1',
    );
  }
  return match[1] === '0' ? '3.0' : '3.1';
}
