/**
 * The AsyncAPI loader: reads an AsyncAPI 3.0 or 3.1 document (JSON or YAML, split over several
 * files by `$ref`), checks it against the official AsyncAPI JSON Schema, then lowers it to the
 * realtime model with our own semantic checks (document.ts, channels.ts). An OpenAPI 3.2 document
 * is read for its `text/event-stream` responses instead (openapi-sse.ts). Every problem is
 * reported with its `file:line:col`, all at once, as one CodegenError.
 */
import { dirname, resolve } from 'node:path';
import { CodegenError, error } from '../core/diagnostics.js';
import { InputFiles } from '../core/pipeline/input-files.js';
import type { SourceDoc, Where } from '../core/schema/json-documents.js';
import { child, describe, Documents, isObject, locate, own, Problems } from '../core/schema/json-documents.js';
import { finishChannels } from './channels.js';
import { DocumentLowering, lowerServers } from './document.js';
import type { RealtimeModel } from './model.js';
import { loadOpenApiSse } from './openapi-sse.js';
import { PayloadSchemas } from './schemas.js';
import { checkAgainstSpec, type AsyncApiVersion } from './spec.js';

export interface LoadOptions {
  /** Folder that paths in messages and `model.source` are relative to; default: the working directory. */
  displayRoot?: string;
  /** Folders `$ref`s may read files in (the project root and `allowRead`); default: the input's folder. */
  readRoots?: string[];
  /** Size cap per input file in bytes; default 64 MiB. */
  maxInputBytes?: number;
}

export async function loadAsyncApi(inputPath: string, options: LoadOptions = {}): Promise<RealtimeModel> {
  const files = new InputFiles({ roots: options.readRoots ?? [dirname(resolve(inputPath))], maxBytes: options.maxInputBytes });
  const docs = new Documents(resolve(options.displayRoot ?? process.cwd()), files);
  const opened = docs.open(resolve(inputPath));
  if (Array.isArray(opened)) throw new CodegenError(opened);
  const root = opened;
  if (isObject(root.data) && root.data.openapi !== undefined && root.data.asyncapi === undefined) return loadOpenApiSse(root, docs);
  const version = checkVersion(root);
  const problems = new Problems();
  // Lowering assumes the shapes the specification guarantees: stop here when they are not there.
  checkAgainstSpec(root, version).forEach((diagnostic) => problems.push(diagnostic));
  problems.throwIfAny();

  const payloads = new PayloadSchemas(docs, problems);
  payloads.addComponents(own(own(root.data, 'components'), 'schemas'), {
    doc: root,
    path: child(child(undefined, 'components'), 'schemas'),
  });
  const servers = lowerServers(root, docs, problems);
  const pending = new DocumentLowering(root, docs, problems, payloads, servers).lower();
  const lowered = payloads.finish();
  problems.throwIfAny();
  const { channels, schemas } = finishChannels(pending, lowered, problems);
  problems.throwIfAny();

  const info = root.data as { info: { title: string; version: string; description?: unknown } };
  const model: RealtimeModel = {
    title: info.info.title,
    version: info.info.version,
    source: root.display,
    servers: servers.servers,
    channels,
    schemas,
  };
  if (typeof info.info.description === 'string') model.description = info.info.description;
  return model;
}

/** `asyncapi: 3.0.0` or `3.1.0`; 2.x and anything else stop here with a clear message. */
function checkVersion(root: SourceDoc): AsyncApiVersion {
  const data = root.data;
  if (!isObject(data)) {
    throw error(
      `${root.display} is not an AsyncAPI document: its top level is ${describe(data)}, not an object`,
      root.locate([]),
      'an AsyncAPI document starts with asyncapi: 3.0.0, info: and channels:',
    );
  }
  const version = data.asyncapi;
  const where: Where = { doc: root, path: child(undefined, 'asyncapi') };
  if (version === undefined) {
    throw error(
      `${root.display} is not an AsyncAPI document: it has no "asyncapi" field`,
      root.locate([]),
      'add asyncapi: 3.0.0 at the top (codegen reads AsyncAPI 3.0 and 3.1, and OpenAPI 3.2 SSE responses)',
    );
  }
  if (version === '3.0.0' || version === '3.1.0') return version;
  const hint =
    typeof version === 'string' && version.startsWith('2.')
      ? `convert it to AsyncAPI 3 first: npx @asyncapi/cli convert ${root.display}`
      : 'write asyncapi: 3.0.0 (or 3.1.0)';
  throw error(
    `AsyncAPI ${typeof version === 'string' ? version : describe(version)} is not supported; codegen reads AsyncAPI 3.0.0 and 3.1.0`,
    locate(where),
    hint,
  );
}
