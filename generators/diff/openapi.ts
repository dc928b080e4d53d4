/**
 * `codegen diff` for OpenAPI: both versions are loaded into the ApiModel (so 2.0, 3.0 and 3.1, and
 * `$ref`s across files, compare alike), operations are matched by method and path, and parameters,
 * bodies and responses are compared; shapes go through json-schema.ts. Versioning (§9.1): an
 * operation whose path gained a new version segment (`/v1/tasks` → `/v2/tasks`), or whose version
 * header changed, carries its breaking changes as `versioned`.
 */
import { dirname, resolve } from 'node:path';
import type { SourceLocation } from '../core/diagnostics.js';
import { Documents, isObject, own, type SourceDoc } from '../core/schema/json-documents.js';
import type { ApiModel, Operation, Parameter } from '../openapi/model.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import { loadOpenApi } from '../openapi/load.js';
import { SchemaRegistry } from '../core/schema/registry.js';
import { CWD_ROOTS, type Change, type DiffResult, type SideRoots } from './changes.js';
import { SchemaDiff, type SchemaSide } from './json-schema.js';

export interface LoadedSide {
  model: ApiModel;
  side: SchemaSide;
  /** Where an operation's parts are written: `['parameters', 'q']`, `['responses', '200']`, `['requestBody']`. */
  locateIn: (operation: Operation, part: string[]) => SourceLocation | undefined;
}

/** `roots`: the folder each side's paths are shown from (a `git:REF` side lives in a temporary folder). */
export async function diffOpenApi(oldFile: string, newFile: string, roots: SideRoots = CWD_ROOTS()): Promise<DiffResult> {
  const before = await loadSide(oldFile, roots.old, roots.oldRead);
  const after = await loadSide(newFile, roots.new, roots.newRead);
  return { style: 'openapi', changes: compareModels(before, after) };
}

async function loadSide(file: string, displayRoot: string, readRoots?: string[]): Promise<LoadedSide> {
  const model = await loadOpenApi(file, { displayRoot, readRoots: readRoots ?? [dirname(resolve(file))] });
  const docs = new Documents(resolve(displayRoot));
  const opened = docs.open(resolve(file));
  const root = Array.isArray(opened) ? undefined : opened;
  // Component names as the model spells them → their key in the document, to locate properties.
  const componentKeys = new Map<string, string>();
  const components = own(own(root?.data, 'components'), 'schemas');
  if (isObject(components)) for (const key of Object.keys(components)) componentKeys.set(SchemaRegistry.schemaName(key), key);
  const defs = new Map<string, JsonSchema>(model.schemas.map((named) => [named.name, named.schema]));
  const side: SchemaSide = {
    defs,
    locate: (name, path) => {
      const key = name === undefined ? undefined : componentKeys.get(name);
      if (root && key !== undefined) return root.locate(['components', 'schemas', key, ...schemaPointer(path)], 'key');
      const schema = name === undefined ? undefined : defs.get(name);
      return typeof schema === 'object' ? schema['x-location'] : undefined;
    },
  };
  return { model, side, locateIn: (operation, part) => locateOperationPart(root, operation, part) };
}

/** `['owner', '[]', 'id']` → `properties/owner/items/properties/id`. */
function schemaPointer(path: string[]): string[] {
  return path.flatMap((step) => (step === '[]' ? ['items'] : step.startsWith('#') ? [step.slice(1)] : ['properties', step]));
}

function locateOperationPart(root: SourceDoc | undefined, operation: Operation, part: string[]): SourceLocation | undefined {
  if (!root || !isObject(own(own(root.data, 'paths'), operation.path))) return operation.location;
  const base = ['paths', operation.path, operation.method];
  if (part[0] === 'parameters' && part[1] !== undefined) {
    const list = own(own(own(root.data, 'paths'), operation.path), operation.method);
    const parameters = own(list, 'parameters');
    const index = Array.isArray(parameters) ? parameters.findIndex((p) => own(p, 'name') === part[1]) : -1;
    if (index >= 0) return root.locate([...base, 'parameters', String(index)]);
    const shared = own(own(own(root.data, 'paths'), operation.path), 'parameters');
    const sharedIndex = Array.isArray(shared) ? shared.findIndex((p) => own(p, 'name') === part[1]) : -1;
    if (sharedIndex >= 0) return root.locate(['paths', operation.path, 'parameters', String(sharedIndex)]);
    return root.locate([...base, 'parameters'], 'key');
  }
  return root.locate([...base, ...part], 'key');
}

const VERSION_SEGMENT = /^v\d+(?:[._-]?\w+)?$/i;

/** `/v1/tasks/{taskId}` → `/{}/tasks/{}` with the version removed, to pair operations across versions. */
function unversionedKey(operation: Operation): string {
  const segments = operation.path
    .split('/')
    .filter((s) => !VERSION_SEGMENT.test(s))
    .map((s) => (s.startsWith('{') ? '{}' : s));
  return `${operation.method} ${segments.join('/')}`;
}

function exactKey(operation: Operation): string {
  return `${operation.method} ${operation.path.replace(/\{[^}]*\}/g, '{}')}`;
}

function versionOf(path: string, servers: ApiModel['servers']): string {
  const inPath = path.split('/').find((s) => VERSION_SEGMENT.test(s));
  const inServer = servers.map((server) => server.url.split('/').find((s) => VERSION_SEGMENT.test(s))).find(Boolean);
  return `${inServer ?? ''}${inPath ?? ''}`;
}

function versionHeader(operation: Operation): string | undefined {
  const header = operation.parameters.find((p) => p.in === 'header' && /version/i.test(p.name));
  return header ? `${header.name}=${JSON.stringify(header.schema)}` : undefined;
}

export function compareModels(before: LoadedSide, after: LoadedSide): Change[] {
  const schemas = new SchemaDiff(before.side, after.side);
  const changes: Change[] = [];
  const unmatchedNew = new Map(after.model.operations.map((op) => [exactKey(op), op]));
  const pairs: [Operation, Operation][] = [];
  const leftover: Operation[] = [];
  for (const op of before.model.operations) {
    const twin = unmatchedNew.get(exactKey(op));
    if (twin) {
      pairs.push([op, twin]);
      unmatchedNew.delete(exactKey(op));
    } else leftover.push(op);
  }
  // An operation that moved to a new version segment (/v1/x → /v2/x) is compared with its old self.
  for (const op of leftover) {
    const twin = [...unmatchedNew.values()].find((candidate) => unversionedKey(candidate) === unversionedKey(op));
    if (twin) {
      pairs.push([op, twin]);
      unmatchedNew.delete(exactKey(twin));
    } else {
      changes.push({
        kind: 'operation-removed',
        class: 'breaking',
        message: `${label(op)} removed`,
        wire: 'old clients calling it get 404 or 405',
        code: `the generated client loses ${op.name}(); callers no longer compile; the server loses its handler`,
        location: before.locateIn(op, []),
      });
    }
  }
  for (const op of unmatchedNew.values()) {
    changes.push({
      kind: 'operation-added',
      class: 'safe',
      message: `${label(op)} added`,
      wire: 'old clients do not call it',
      code: `the generated client gains ${op.name}(); the server needs a handler for it`,
      location: after.locateIn(op, []),
    });
  }
  for (const [a, b] of pairs) {
    const local: Change[] = [];
    const schemaStart = schemas.changes.length;
    compareOperation(a, b, before, after, schemas, local);
    changes.push(...local);
    // Shape changes first met through a versioned operation belong to the new version too.
    const newVersion = versionOf(b.path, after.model.servers);
    const versioned =
      (newVersion !== '' && versionOf(a.path, before.model.servers) !== newVersion) ||
      (versionHeader(b) !== undefined && versionHeader(a) !== versionHeader(b));
    if (versioned)
      for (const change of [...local, ...schemas.changes.slice(schemaStart)]) if (change.class === 'breaking') change.versioned = true;
  }
  return mostSevere([...changes, ...schemas.changes]);
}

/**
 * A shape used both in requests and responses yields one change per direction; the same message at
 * the same place is kept once, in its most severe class.
 */
function mostSevere(changes: Change[]): Change[] {
  const rank = { breaking: 0, dangerous: 1, safe: 2 } as const;
  const kept = new Map<string, Change>();
  for (const change of changes) {
    const key = `${change.message}\u0000${change.location ? `${change.location.file}:${change.location.line}:${change.location.column}` : ''}`;
    const seen = kept.get(key);
    if (!seen || rank[change.class] < rank[seen.class]) kept.set(key, change);
  }
  return [...kept.values()];
}

function label(op: Operation): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}

/** Path parameters by their place in the template (`/pets/{petId}` and `/pets/{id}` are one URL); others by name. */
function paramKey(p: Parameter, op: Operation): string {
  if (p.in === 'path') {
    const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    return `path:#${names.indexOf(p.name)}`;
  }
  return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
}

function compareOperation(a: Operation, b: Operation, before: LoadedSide, after: LoadedSide, schemas: SchemaDiff, out: Change[]): void {
  const name = label(b);
  if (exactKey(a) !== exactKey(b)) {
    out.push({
      kind: 'path-changed',
      class: 'breaking',
      message: `${label(a)} moved to ${b.path}`,
      wire: 'old clients call the old path and get 404',
      code: 'the generated client calls the new path',
      location: after.locateIn(b, []),
    });
  }
  if (!a.deprecated && b.deprecated) {
    out.push({
      kind: 'operation-deprecated',
      class: 'safe',
      message: `${name} deprecated`,
      wire: 'unchanged',
      code: 'the generated method is marked @deprecated',
      location: after.locateIn(b, ['deprecated']),
    });
  }

  const oldParams = new Map(a.parameters.map((p) => [paramKey(p, a), p]));
  const newParams = new Map(b.parameters.map((p) => [paramKey(p, b), p]));
  for (const [key, p] of oldParams) {
    const q = newParams.get(key);
    if (!q) {
      out.push({
        kind: 'parameter-removed',
        class: p.in === 'path' ? 'breaking' : 'dangerous',
        message: `${name}: ${p.in} parameter "${p.name}" removed`,
        wire: 'old clients still send it; the server ignores it',
        code: 'the generated client no longer takes it; callers passing it no longer compile',
        location: before.locateIn(a, ['parameters', p.name]),
      });
      continue;
    }
    if (!p.required && q.required) {
      out.push({
        kind: 'parameter-became-required',
        class: 'breaking',
        message: `${name}: ${q.in} parameter "${q.name}" is now required`,
        wire: 'old clients that omit it get 400',
        code: 'the generated client requires it; calls without it no longer compile',
        location: after.locateIn(b, ['parameters', q.name]),
      });
    }
    schemas.compare(p.schema, q.schema, {
      direction: 'request',
      label: `${name}: ${q.in} parameter "${q.name}"`,
      location: after.locateIn(b, ['parameters', q.name]),
    });
  }
  for (const [key, q] of newParams) {
    if (oldParams.has(key)) continue;
    out.push(
      q.required
        ? {
            kind: 'required-parameter-added',
            class: 'breaking',
            message: `${name}: required ${q.in} parameter "${q.name}" added`,
            wire: 'old clients do not send it and get 400',
            code: 'the generated client requires it; existing calls no longer compile',
            location: after.locateIn(b, ['parameters', q.name]),
          }
        : {
            kind: 'optional-parameter-added',
            class: 'safe',
            message: `${name}: optional ${q.in} parameter "${q.name}" added`,
            wire: 'old clients omit it',
            code: 'the generated client takes it as an option',
            location: after.locateIn(b, ['parameters', q.name]),
          },
    );
  }

  // Request body.
  if (a.requestBody && !b.requestBody) {
    out.push({
      kind: 'request-body-removed',
      class: 'dangerous',
      message: `${name}: request body removed`,
      wire: 'old clients still send one; the server ignores it',
      code: 'the generated client no longer takes a body',
      location: after.locateIn(b, []),
    });
  } else if (!a.requestBody && b.requestBody) {
    out.push({
      kind: b.requestBody.required ? 'required-request-body-added' : 'request-body-added',
      class: b.requestBody.required ? 'breaking' : 'safe',
      message: `${name}: ${b.requestBody.required ? 'required ' : ''}request body added`,
      wire: b.requestBody.required ? 'old clients send none and are rejected' : 'old clients send none',
      code: 'the generated client takes a body',
      location: after.locateIn(b, ['requestBody']),
    });
  } else if (a.requestBody && b.requestBody) {
    if (!a.requestBody.required && b.requestBody.required) {
      out.push({
        kind: 'request-body-became-required',
        class: 'breaking',
        message: `${name}: request body is now required`,
        wire: 'old clients that send none are rejected',
        code: 'the generated client requires a body',
        location: after.locateIn(b, ['requestBody']),
      });
    }
    for (const content of a.requestBody.contents) {
      const twin = b.requestBody.contents.find((c) => c.mediaType === content.mediaType);
      if (!twin) {
        out.push({
          kind: 'request-media-type-removed',
          class: 'breaking',
          message: `${name}: request body no longer accepts ${content.mediaType}`,
          wire: `old clients sending ${content.mediaType} get 415`,
          code: 'the generated client sends another media type',
          location: after.locateIn(b, ['requestBody', 'content']),
        });
        continue;
      }
      schemas.compare(content.schema, twin.schema, {
        direction: 'request',
        label: `${name} request body`,
        location: after.locateIn(b, ['requestBody', 'content', twin.mediaType]),
      });
    }
  }

  // Responses.
  for (const response of a.responses) {
    const twin = b.responses.find((r) => r.status === response.status);
    const success = /^2/.test(response.status);
    if (!twin) {
      out.push({
        kind: 'response-removed',
        class: success ? 'breaking' : 'safe',
        message: `${name}: response ${response.status} removed`,
        wire: success ? `old clients expecting ${response.status} get another status` : 'the server no longer answers it',
        code: success ? 'the generated result type changes; code reading it no longer compiles' : 'the generated error union loses it',
        location: before.locateIn(a, ['responses', response.status]),
      });
      continue;
    }
    for (const content of response.contents) {
      const match = twin.contents.find((c) => c.mediaType === content.mediaType);
      if (!match) {
        out.push({
          kind: 'response-media-type-removed',
          class: success ? 'breaking' : 'dangerous',
          message: `${name}: response ${response.status} no longer sends ${content.mediaType}`,
          wire: 'old clients parse a media type the server no longer sends',
          code: 'the generated client reads another media type',
          location: after.locateIn(b, ['responses', twin.status]),
        });
        continue;
      }
      schemas.compare(content.schema, match.schema, {
        direction: 'response',
        label: `${name} response ${twin.status}`,
        location: after.locateIn(b, ['responses', twin.status]),
      });
    }
    for (const header of response.headers) {
      const kept = twin.headers.find((h) => h.name.toLowerCase() === header.name.toLowerCase());
      if (!kept && header.required) {
        out.push({
          kind: 'response-header-removed',
          class: 'breaking',
          message: `${name}: response ${response.status} header "${header.name}" removed`,
          wire: 'old clients reading it find nothing',
          code: 'the generated result loses it',
          location: before.locateIn(a, ['responses', response.status, 'headers', header.name]),
        });
      }
    }
  }
  for (const response of b.responses) {
    if (a.responses.some((r) => r.status === response.status)) continue;
    const success = /^2/.test(response.status);
    out.push({
      kind: 'response-added',
      class: success ? 'dangerous' : 'safe',
      message: `${name}: response ${response.status} added`,
      wire: success
        ? 'old clients may receive a success status they do not handle'
        : 'old clients receive it as an error they already handle generically',
      code: 'the generated result union gains it',
      location: after.locateIn(b, ['responses', response.status]),
    });
  }

  const securityOf = (op: Operation, model: ApiModel) => JSON.stringify(op.security ?? model.security);
  if (securityOf(a, before.model) !== securityOf(b, after.model)) {
    const wasPublic = (a.security ?? before.model.security).length === 0;
    out.push({
      kind: 'security-changed',
      class: wasPublic ? 'breaking' : 'dangerous',
      message: `${name}: security changed from ${securityOf(a, before.model)} to ${securityOf(b, after.model)}`,
      wire: wasPublic ? 'old clients that send no credentials get 401' : 'old clients with the old credentials may get 401/403',
      code: 'the generated client sends the credentials of the new schemes',
      location: after.locateIn(b, ['security']),
    });
  }
}
