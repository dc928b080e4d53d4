// The Fastify 5 peer of the REST example, for the `rest-server` benchmark section: the same routes
// the benchmark drives (GET a project with an ETag, POST a task with JSON-schema body validation,
// plus POST a project to seed one), the same in-memory handler logic (the example's own
// `handlers` object, compiled into dist/), the same credentials check, and the same JSON schemas
// (components of schemas/openapi/tasks.yaml, validated by Fastify's own ajv). Like the example it
// prints `listening on http://127.0.0.1:<port>` as its first line and stops on SIGTERM/SIGINT.
// `createFastifyApp()` builds the same app without listening (bench/lib/rest-inprocess.js calls
// its router in-process).
//
//   PORT=0 node bench/lib/rest-fastify.js
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..');
const { handlers } = await import(pathToFileURL(join(ROOT, 'dist/examples/rest/handlers.js')).href);
const { HttpProblem } = await import(pathToFileURL(join(ROOT, 'dist/out/rest/server.js')).href);

const TOKENS = new Set(['demo-token', 'reader-token']);
const WRITERS = new Set(['demo-token']);

/**
 * The document's component schemas as one JSON Schema with `$defs`, shaped for request bodies the
 * way the generator shapes `TaskInput`/`ProjectInput`: `readOnly` properties dropped (from
 * `properties` and `required`). OpenAPI's `discriminator` is left out (ajv's support refuses
 * `mapping`); the `oneOf` it annotates decides the same.
 */
function requestSchemas() {
  const document = parse(readFileSync(join(ROOT, 'schemas/openapi/tasks.yaml'), 'utf8'));
  const shape = (node) => {
    if (Array.isArray(node)) return node.map(shape);
    if (typeof node !== 'object' || node === null) return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'discriminator') continue;
      if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', 'tasks#/$defs/');
      else out[key] = shape(value);
    }
    if (out.properties) {
      const readOnly = Object.keys(out.properties).filter((name) => out.properties[name]?.readOnly === true);
      for (const name of readOnly) delete out.properties[name];
      if (Array.isArray(out.required)) out.required = out.required.filter((name) => !readOnly.includes(name));
    }
    return out;
  };
  return { $id: 'tasks', $defs: shape(document.components.schemas) };
}

function problem(reply, status, title, detail, extra = {}) {
  const body = {
    type: 'about:blank',
    title,
    status,
    ...(detail ? { detail } : {}),
    instance: reply.request.url.split('?', 1)[0],
    ...extra,
  };
  return reply.code(status).type('application/problem+json').send(JSON.stringify(body));
}

/** What the handlers read of their context here (createTask builds `Location` from `basePath`). */
function context(request) {
  return {
    traceId: String(request.id),
    principal: undefined,
    operation: undefined,
    basePath: '/v1',
    request: request.raw,
    signal: undefined,
    assertIfMatch: () => {},
  };
}

function sendResult(reply, result) {
  for (const [name, value] of Object.entries(result.headers ?? {})) if (value !== undefined) reply.header(name, value);
  if (result.body === undefined) return reply.code(result.status).send();
  return reply.code(result.status).type('application/json').send(JSON.stringify(result.body));
}

const projectParams = { type: 'object', required: ['projectId'], properties: { projectId: { type: 'string', format: 'uuid' } } };

/** The peer app, routes registered, not listening. */
export function createFastifyApp() {
  const app = Fastify({
    logger: false,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
  });
  app.addSchema(requestSchemas());

  app.addHook('onRequest', async (request, reply) => {
    const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(request.headers.authorization ?? '');
    if (!match || !TOKENS.has(match[1])) {
      reply.header('www-authenticate', 'Bearer realm="api"');
      return problem(reply, 401, 'Unauthorized', 'This operation requires authentication.');
    }
    if (request.method !== 'GET' && !WRITERS.has(match[1])) return problem(reply, 403, 'Forbidden');
  });

  app.setErrorHandler((error, request, reply) => {
    if (error.validation) {
      const errors = error.validation.map((item) => ({
        pointer: `/${error.validationContext}${item.instancePath}`,
        keyword: item.keyword,
        message: item.message,
      }));
      return problem(reply, 422, 'Unprocessable Content', `${errors[0].pointer} ${errors[0].message}.`, { errors });
    }
    if (error instanceof HttpProblem)
      return problem(
        reply,
        error.status,
        error.message,
        error.extensions.detail,
        error.extensions.errors ? { errors: error.extensions.errors } : {},
      );
    if (error.statusCode >= 400 && error.statusCode < 500)
      return problem(reply, error.statusCode, error.code ?? 'Bad Request', error.message);
    return problem(reply, 500, 'Internal Server Error');
  });

  app.get('/v1/projects/:projectId', { schema: { params: projectParams } }, async (request, reply) => {
    const result = await handlers.getProject({ projectId: request.params.projectId }, context(request));
    const json = JSON.stringify(result.body);
    const etag = `"${createHash('sha256').update(json).digest('base64url')}"`;
    reply.header('etag', etag).header('cache-control', 'private, max-age=60');
    for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')) {
      return reply.code(304).send();
    }
    return reply.code(200).type('application/json').send(json);
  });

  app.post('/v1/projects', { schema: { body: { $ref: 'tasks#/$defs/Project' } } }, async (request, reply) => {
    const result = await handlers.createProject(
      { body: request.body, idempotencyKey: request.headers['idempotency-key'] },
      context(request),
    );
    reply.header('location', `/v1/projects/${result.body.id}`);
    return sendResult(reply, result);
  });

  app.post(
    '/v1/projects/:projectId/tasks',
    { schema: { params: projectParams, body: { $ref: 'tasks#/$defs/Task' } } },
    async (request, reply) => {
      const result = await handlers.createTask(
        { projectId: request.params.projectId, body: request.body, idempotencyKey: request.headers['idempotency-key'] },
        context(request),
      );
      return sendResult(reply, result);
    },
  );
  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = createFastifyApp();
  const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`listening on ${address}\n`);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      app.close().then(() => process.exit(0));
    });
  }
}
