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
import type { ApiModel, Operation, Parameter, Response, ResponseHeader, SecurityRequirement, SecurityScheme } from '../openapi/model.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import { loadOpenApi } from '../openapi/load.js';
import { SchemaRegistry } from '../core/schema/registry.js';
import { CWD_ROOTS, type Change, type DiffResult, type SideRoots } from './changes.js';
import { refName, SchemaDiff, type SchemaSide } from './json-schema.js';

export interface LoadedSide {
  model: ApiModel;
  side: SchemaSide;
  /** Where an operation's parts are written: `['parameters', 'q']`, `['responses', '200']`, `['requestBody']`. */
  locateIn: (operation: Operation, part: string[]) => SourceLocation | undefined;
  /** A parameter's keyword as written (for keywords the model does not keep, like `allowReserved`). */
  parameterKeyword: (operation: Operation, parameter: Parameter, keyword: string) => unknown;
  /** Where the document's `servers` (or its first server) is written. */
  serversLocation: (index?: number) => SourceLocation | undefined;
  /** Where a security scheme is defined (`components.securitySchemes`, or Swagger 2.0's `securityDefinitions`). */
  schemeLocation: (scheme: string) => SourceLocation | undefined;
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
  return {
    model,
    side,
    locateIn: (operation, part) => locateOperationPart(root, operation, part),
    parameterKeyword: (operation, parameter, keyword) => own(rawParameter(root, operation, parameter), keyword),
    serversLocation: (index) =>
      root?.data && own(root.data, 'servers')
        ? root.locate(index === undefined ? ['servers'] : ['servers', String(index)], 'key')
        : undefined,
    schemeLocation: (scheme) => {
      if (!root) return undefined;
      const inComponents = own(own(own(root.data, 'components'), 'securitySchemes'), scheme) !== undefined;
      return root.locate(inComponents ? ['components', 'securitySchemes', scheme] : ['securityDefinitions', scheme], 'key');
    },
  };
}

/** The parameter object as written on the operation or its path item, through one local `$ref`. */
function rawParameter(root: SourceDoc | undefined, operation: Operation, parameter: Parameter): unknown {
  const item = own(own(root?.data, 'paths'), operation.path);
  for (const list of [own(own(item, operation.method), 'parameters'), own(item, 'parameters')]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const ref = own(entry, '$ref');
      const raw = typeof ref === 'string' && ref.startsWith('#/') ? pointerIn(root?.data, ref) : entry;
      if (own(raw, 'name') === parameter.name && own(raw, 'in') === parameter.in) return raw;
    }
  }
  return undefined;
}

function pointerIn(data: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, step) => own(node, step), data);
}

/** `['owner', '[]', 'id', '{}', '[0]']` → `properties/owner/items/properties/id/additionalProperties/prefixItems/0`. */
function schemaPointer(path: string[]): string[] {
  return path.flatMap((name) => {
    if (name === '[]') return ['items'];
    if (name === '{}') return ['additionalProperties'];
    const position = /^\[(\d+)\]$/.exec(name);
    if (position) return ['prefixItems', position[1]!];
    return name.startsWith('#') ? [name.slice(1)] : ['properties', name];
  });
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
  compareServers(before, after, changes);
  return mostSevere([...changes, ...schemas.changes]);
}

/**
 * A shape used both in requests and responses yields one change per direction, a changed security
 * scheme one per operation using it; the same message at the same place is kept once, in its most
 * severe class.
 */
function mostSevere(changes: Change[]): Change[] {
  const rank = { breaking: 0, dangerous: 1, safe: 2 } as const;
  const kept = new Map<string, Change>();
  for (const change of changes) {
    const key = `${change.message}\u0000${change.location ? `${change.location.file}:${change.location.line}:${change.location.column}` : ''}`;
    const seen = kept.get(key);
    if (!seen || rank[change.class] < rank[seen.class]) kept.set(key, change);
    // One change met through versioned and unversioned operations alike is excused only if all are.
    else if (rank[change.class] === rank[seen.class] && !change.versioned) delete seen.versioned;
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
  if (a.name !== b.name) {
    out.push({
      kind: 'operation-renamed',
      class: 'dangerous',
      message: `${name}: generated method ${a.name}() renamed to ${b.name}()${b.operationId !== a.operationId ? ` (operationId ${a.operationId ?? 'none'} → ${b.operationId ?? 'none'})` : ''}`,
      wire: 'unchanged',
      code: `the generated client's ${a.name}() becomes ${b.name}() and the server's handler is renamed; callers no longer compile`,
      location: after.locateIn(b, b.operationId !== undefined ? ['operationId'] : []),
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
    if (!p.deprecated && q.deprecated)
      out.push({
        kind: 'parameter-deprecated',
        class: 'safe',
        message: `${name}: ${q.in} parameter "${q.name}" deprecated`,
        wire: 'unchanged',
        code: 'the generated parameter is marked @deprecated',
        location: after.locateIn(b, ['parameters', q.name]),
      });
    compareSerialisation(p, q, a, b, before, after, out);
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
    for (const content of b.requestBody.contents) {
      if (a.requestBody.contents.some((c) => c.mediaType === content.mediaType)) continue;
      out.push({
        kind: 'request-media-type-added',
        class: 'safe',
        message: `${name}: request body also accepts ${content.mediaType}`,
        wire: 'old clients keep sending the media types they know',
        code: 'the generated client can send it',
        location: after.locateIn(b, ['requestBody', 'content', content.mediaType]),
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
    for (const content of twin.contents) {
      if (response.contents.some((c) => c.mediaType === content.mediaType)) continue;
      out.push({
        kind: 'response-media-type-added',
        class: 'safe',
        message: `${name}: response ${twin.status} can also be ${content.mediaType}`,
        wire: 'old clients ask for the media types they know (Accept)',
        code: 'the generated result type gains it',
        location: after.locateIn(b, ['responses', twin.status, 'content', content.mediaType]),
      });
    }
    compareResponseHeaders(response, twin, a, b, before, after, schemas, out);
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

  comparePagination(a, b, after, out);
  compareSecurity(a, b, before, after, out);
}

/** The pagination codegen recognises gives the client an `…All()` iterator; its wire parts are compared as parameters and bodies. */
function comparePagination(a: Operation, b: Operation, after: LoadedSide, out: Change[]): void {
  const describe = (op: Operation) =>
    op.pagination === undefined
      ? 'none'
      : op.pagination.kind === 'cursor'
        ? `cursor (${op.pagination.cursorParam} → ${op.pagination.nextCursorProperty})`
        : `page (${op.pagination.pageParam}, ${op.pagination.pageSizeParam})`;
  if (describe(a) === describe(b)) return;
  const lost = b.pagination === undefined;
  out.push({
    kind: lost ? 'pagination-removed' : a.pagination === undefined ? 'pagination-added' : 'pagination-changed',
    class: a.pagination === undefined ? 'safe' : 'dangerous',
    message: `${label(b)}: pagination ${describe(a)} → ${describe(b)}`,
    wire: 'as the parameter and body changes say',
    code: lost
      ? `the generated client loses ${a.name}All(); callers iterating with it no longer compile`
      : a.pagination === undefined
        ? `the generated client gains ${b.name}All()`
        : `the generated ${b.name}All() pages the new way`,
    location: after.locateIn(b, []),
  });
}

/** `style`, `explode` and `allowReserved`: the same value written another way on the wire. */
function compareSerialisation(
  p: Parameter,
  q: Parameter,
  a: Operation,
  b: Operation,
  before: LoadedSide,
  after: LoadedSide,
  out: Change[],
): void {
  const name = `${label(b)}: ${q.in} parameter "${q.name}"`;
  const location = after.locateIn(b, ['parameters', q.name]);
  if (p.style !== q.style || p.explode !== q.explode) {
    // `explode` only changes how arrays and objects are written; a single value reads the same.
    const scalar = p.style === q.style && !isComposite(q.schema, after) && !isComposite(p.schema, before);
    out.push({
      kind: 'parameter-serialisation-changed',
      class: scalar ? 'safe' : 'breaking',
      message: `${name}: serialised as ${p.style}${p.explode ? ' exploded' : ''} → ${q.style}${q.explode ? ' exploded' : ''}`,
      wire: scalar ? 'unchanged for a single value' : 'old clients write the same value in the old form; the server misreads or rejects it',
      code: 'the generated client serialises the parameter in the new form',
      location,
    });
  }
  const reservedBefore = before.parameterKeyword(a, p, 'allowReserved') === true;
  const reservedAfter = after.parameterKeyword(b, q, 'allowReserved') === true;
  if (reservedBefore !== reservedAfter) {
    out.push({
      kind: 'parameter-allow-reserved-changed',
      class: 'dangerous',
      message: `${name}: allowReserved ${reservedBefore} → ${reservedAfter}`,
      wire: reservedAfter
        ? 'the server now reads reserved characters (/?#&…) literally; old clients percent-encode them'
        : 'old clients send reserved characters unencoded; the server now splits or misreads them',
      code: 'unchanged: the generated client always percent-encodes parameter values',
      location,
    });
  }
}

/** An array or object schema (through one named reference): the values `explode` writes differently. */
function isComposite(schema: JsonSchema, side: LoadedSide): boolean {
  const name = refName(schema);
  const target = name === undefined ? schema : side.side.defs.get(name);
  if (typeof target !== 'object') return false;
  const types = Array.isArray(target.type) ? target.type : [target.type];
  return types.includes('array') || types.includes('object') || target.properties !== undefined || target.items !== undefined;
}

function compareResponseHeaders(
  response: Response,
  twin: Response,
  a: Operation,
  b: Operation,
  before: LoadedSide,
  after: LoadedSide,
  schemas: SchemaDiff,
  out: Change[],
): void {
  const prefix = `${label(b)}: response ${twin.status} header`;
  const sameName = (name: string) => (h: ResponseHeader) => h.name.toLowerCase() === name.toLowerCase();
  for (const header of response.headers) {
    const kept = twin.headers.find(sameName(header.name));
    const location = after.locateIn(b, ['responses', twin.status, 'headers', kept?.name ?? header.name]);
    if (!kept) {
      out.push({
        kind: 'response-header-removed',
        class: header.required ? 'breaking' : 'dangerous',
        message: `${prefix} "${header.name}" removed`,
        wire: header.required ? 'old clients reading it find nothing' : 'old clients that read it when present never find it',
        code: 'the generated result loses it; code reading it no longer compiles',
        location: before.locateIn(a, ['responses', response.status, 'headers', header.name]),
      });
      continue;
    }
    if (header.required && !kept.required) {
      out.push({
        kind: 'response-header-became-optional',
        class: 'breaking',
        message: `${prefix} "${kept.name}" is no longer required`,
        wire: 'old clients may find it missing',
        code: 'the generated result makes it optional; reads must handle undefined',
        location,
      });
    }
    schemas.compare(header.schema, kept.schema, { direction: 'response', label: `${prefix} "${kept.name}"`, location });
  }
  for (const header of twin.headers) {
    if (response.headers.some(sameName(header.name))) continue;
    out.push({
      kind: 'response-header-added',
      class: 'safe',
      message: `${prefix} "${header.name}" added`,
      wire: 'old clients ignore it',
      code: 'the generated result gains it',
      location: after.locateIn(b, ['responses', twin.status, 'headers', header.name]),
    });
  }
}

/**
 * Security per operation: the requirement alternatives (OR) of scheme sets (AND) with scopes, and
 * each scheme's definition (type, where an API key goes, the HTTP scheme).
 */
function compareSecurity(a: Operation, b: Operation, before: LoadedSide, after: LoadedSide, out: Change[]): void {
  const name = label(b);
  const location = after.locateIn(b, ['security']);
  const oldRequirements = a.security ?? before.model.security;
  const newRequirements = b.security ?? after.model.security;
  const wasPublic = oldRequirements.length === 0 || oldRequirements.some((r) => Object.keys(r).length === 0);
  const isPublic = newRequirements.length === 0 || newRequirements.some((r) => Object.keys(r).length === 0);
  if (wasPublic && !isPublic) {
    out.push({
      kind: 'security-added',
      class: 'breaking',
      message: `${name}: now requires ${describeRequirements(newRequirements)}`,
      wire: 'old clients that send no credentials get 401',
      code: 'the generated client sends the credentials of the new schemes; callers must configure them',
      location,
    });
    return;
  }
  if (isPublic) {
    if (!wasPublic)
      out.push({
        kind: 'security-removed',
        class: 'safe',
        message: `${name}: no longer requires credentials`,
        wire: 'old clients send credentials the server ignores',
        code: 'the generated client no longer needs credentials for it',
        location,
      });
    return;
  }
  // An old client satisfies one old alternative; it keeps working if some new alternative asks no more.
  const covers = (oldOne: SecurityRequirement, newOne: SecurityRequirement) =>
    Object.entries(newOne).every(([scheme, scopes]) => scheme in oldOne && scopes.every((scope) => oldOne[scheme]!.includes(scope)));
  for (const requirement of oldRequirements) {
    if (newRequirements.some((candidate) => covers(requirement, candidate))) continue;
    const sameSchemes = newRequirements.find((candidate) => sameKeys(candidate, requirement));
    const added = sameSchemes
      ? Object.entries(sameSchemes).flatMap(([scheme, scopes]) =>
          scopes.filter((s) => !requirement[scheme]!.includes(s)).map((s) => `${scheme}:${s}`),
        )
      : [];
    out.push(
      sameSchemes
        ? {
            kind: 'security-scope-added',
            class: 'breaking',
            message: `${name}: ${describeRequirements([requirement])} now also needs scope${added.length > 1 ? 's' : ''} ${added.join(', ')}`,
            wire: 'old clients whose tokens lack the new scopes get 403',
            code: 'unchanged: scopes are granted to the token, not chosen by the generated client',
            location,
          }
        : {
            kind: 'security-requirement-changed',
            class: 'breaking',
            message: `${name}: ${describeRequirements([requirement])} is no longer accepted (now ${describeRequirements(newRequirements)})`,
            wire: 'old clients with the old credentials get 401/403',
            code: 'the generated client sends the credentials of the new schemes',
            location,
          },
    );
  }
  for (const scheme of new Set(oldRequirements.flatMap((r) => Object.keys(r)))) {
    const was = before.model.securitySchemes[scheme];
    const now = after.model.securitySchemes[scheme];
    if (!was || !now || !newRequirements.some((r) => scheme in r)) continue;
    const shape = (s: SecurityScheme) => [s.type, s.in, s.name?.toLowerCase(), s.scheme?.toLowerCase()].filter(Boolean).join(' ');
    if (shape(was) === shape(now)) continue;
    out.push({
      kind: 'security-scheme-changed',
      class: 'breaking',
      message: `security scheme ${scheme} changed from ${shape(was)} to ${shape(now)}`,
      wire: 'old clients send the credential in the old form or place and get 401',
      code: 'the generated client sends the credential the new way',
      location: after.schemeLocation(scheme),
    });
  }
}

function sameKeys(x: SecurityRequirement, y: SecurityRequirement): boolean {
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((key) => key in y);
}

/** `[{ oauth: [read] }, { apiKey: [] }]` → `oauth(read) or apiKey`. */
function describeRequirements(requirements: SecurityRequirement[]): string {
  return requirements
    .map((r) =>
      Object.entries(r)
        .map(([scheme, scopes]) => (scopes.length > 0 ? `${scheme}(${scopes.join(', ')})` : scheme))
        .join(' and '),
    )
    .join(' or ');
}

function isVersionSwitch(oldPath: string, newUrl: string): boolean {
  const version = (url: string) => url.split('/').find((segment) => VERSION_SEGMENT.test(segment));
  const before = version(oldPath);
  const after = version(newUrl);
  return before !== undefined && after !== undefined && before !== after;
}

/** The API's base URLs: a changed path prefix moves every operation of every generated client. */
function compareServers(before: LoadedSide, after: LoadedSide, out: Change[]): void {
  const pathOf = (url: string) => {
    const match = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/]*(.*)$/i.exec(url);
    return ((match ? match[1] : url) ?? '').replace(/\/+$/, '');
  };
  const oldServers = before.model.servers;
  const newServers = after.model.servers;
  if (oldServers.length > 0 && newServers.length === 0) {
    out.push({
      kind: 'server-removed',
      class: pathOf(oldServers[0]!.url) === '' ? 'dangerous' : 'breaking',
      message: `servers removed (was ${oldServers.map((s) => s.url).join(', ')})`,
      wire: 'requests now go to the host root: the old base path is gone',
      code: 'the generated clients lose their default base URL; callers must pass one',
      location: before.serversLocation(),
    });
    return;
  }
  const newPaths = new Set(newServers.map((s) => pathOf(s.url)));
  for (const [index, server] of oldServers.entries()) {
    if (newServers.some((s) => s.url === server.url)) continue;
    const samePath = newPaths.has(pathOf(server.url));
    out.push({
      kind: samePath ? 'server-removed' : 'server-path-changed',
      class: samePath ? 'dangerous' : 'breaking',
      message: samePath
        ? `server ${server.url} removed`
        : `server ${server.url} removed; no server keeps its base path ${pathOf(server.url) || '/'}`,
      wire: samePath
        ? 'clients configured for that host must move'
        : 'every operation moves: old clients call the old base path and get 404',
      code: index === 0 ? 'the generated clients default to another base URL' : 'the generated clients list the servers without it',
      location: after.serversLocation(Math.min(index, newServers.length - 1)),
      // §9.1: a base path moving to a new version segment (/v1 → /v2) is a version switch.
      ...(!samePath && isVersionSwitch(pathOf(server.url), newServers[Math.min(index, newServers.length - 1)]!.url) && { versioned: true }),
    });
  }
  for (const [index, server] of newServers.entries()) {
    if (oldServers.some((s) => s.url === server.url)) continue;
    out.push({
      kind: 'server-added',
      class: 'safe',
      message: `server ${server.url} added`,
      wire: 'old clients keep calling their server',
      code: 'the generated clients list one more server',
      location: after.serversLocation(index),
    });
  }
}
