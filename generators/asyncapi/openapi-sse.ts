/**
 * OpenAPI 3.2 as an SSE source: every operation with a `200` `text/event-stream` response whose
 * `itemSchema` describes the events becomes an SSE channel of the realtime model, so the same SSE
 * emitters serve it.
 *
 * `itemSchema` (OpenAPI 3.2, §4.14.4) describes one event as an object with the SSE fields `event`,
 * `data`, `id` and `retry`. One event type: the object itself. Several: its `oneOf`/`anyOf`, each
 * alternative pinning `event` with `const`. The payload of an event is `data.contentSchema` (JSON
 * carried in the text field), else the `data` schema itself (plain text). An event without an
 * `event` const is the default `message` event.
 *
 * The channel is named after the operationId (else method and path), its address is the path, a
 * POST operation's `application/json` request body is the one message it receives, and `x-sse` on
 * the operation takes the same settings as on an AsyncAPI channel.
 */
import type { Documents, SourceDoc, Where } from '../core/schema/json-documents.js';
import { at, deref, describe, isObject, locate, own, Problems } from '../core/schema/json-documents.js';
import { error } from '../core/diagnostics.js';
import type { SchemaObject } from '../core/schema/json-schema.js';
import { pascalCase } from '../core/builder/names.js';
import { refName } from '../core/schema/json-schema.js';
import { SchemaRegistry } from '../core/schema/registry.js';
import { finishChannels } from './channels.js';
import type { PendingChannel, PendingMessage } from './document.js';
import { readSse } from './extensions.js';
import type { ChannelOperation, ChannelParameter, RealtimeModel } from './model.js';

export function loadOpenApiSse(root: SourceDoc, docs: Documents): RealtimeModel {
  const data = root.data as Record<string, unknown>;
  const version = data.openapi;
  if (typeof version !== 'string' || !/^3\.2\.\d+$/.test(version)) {
    throw error(
      `OpenAPI ${typeof version === 'string' ? version : describe(version)} has no SSE event schemas; realtime input reads OpenAPI 3.2 (itemSchema on text/event-stream responses) or AsyncAPI 3`,
      root.locate(['openapi']),
      'for a REST API use style openapi; for SSE write openapi: 3.2.0 with itemSchema, or an AsyncAPI 3 document',
    );
  }
  const problems = new Problems();
  const registry = new SchemaRegistry(docs, '3.1', problems);
  const components = own(own(data, 'components'), 'schemas');
  if (isObject(components)) {
    for (const name of Object.keys(components)) {
      registry.add(
        SchemaRegistry.schemaName(name),
        components[name],
        at({ doc: root, path: undefined }, 'components', 'schemas', name),
        'component',
      );
    }
  }
  const channels: PendingChannel[] = [];
  const paths = own(data, 'paths');
  for (const path of isObject(paths) ? Object.keys(paths) : []) {
    const item = deref(docs, (paths as Record<string, unknown>)[path], at({ doc: root, path: undefined }, 'paths', path), problems);
    if (!item || !isObject(item.value)) continue;
    for (const method of ['get', 'post'] as const) {
      const op = own(item.value, method);
      if (!isObject(op)) continue;
      const channel = lowerOperation(
        path,
        method,
        op,
        at(item.where, method),
        { value: item.value, where: item.where },
        docs,
        registry,
        problems,
      );
      if (channel) channels.push(channel);
    }
  }
  if (channels.length === 0 && problems.list.length === 0) {
    problems.add(
      `${root.display} has no operation with a text/event-stream response with an itemSchema`,
      root.locate(['paths'], 'key'),
      'add responses: { "200": { content: { text/event-stream: { itemSchema: ... } } } }',
    );
  }
  const lowered = registry.finish();
  problems.throwIfAny();
  const result = finishChannels(
    channels.sort((a, b) => (a.key < b.key ? -1 : 1)),
    lowered,
    problems,
  );
  problems.throwIfAny();
  const info = isObject(data.info) ? data.info : {};
  const model: RealtimeModel = {
    title: typeof info.title === 'string' ? info.title : '',
    version: typeof info.version === 'string' ? info.version : '',
    source: root.display,
    servers: [],
    channels: result.channels,
    schemas: result.schemas,
  };
  if (typeof info.description === 'string') model.description = info.description;
  return model;
}

function lowerOperation(
  path: string,
  method: 'get' | 'post',
  op: Record<string, unknown>,
  where: Where,
  item: { value: Record<string, unknown>; where: Where },
  docs: Documents,
  registry: SchemaRegistry,
  problems: Problems,
): PendingChannel | undefined {
  const responseAt = at(where, 'responses', '200');
  const response = deref(docs, own(own(op, 'responses'), '200'), responseAt, problems);
  const streamAt = response ? at(response.where, 'content', 'text/event-stream') : responseAt;
  const stream = response ? own(own(response.value, 'content'), 'text/event-stream') : undefined;
  if (!isObject(stream)) return undefined;
  const itemSchema = deref(docs, stream.itemSchema, at(streamAt, 'itemSchema'), problems);
  if (!itemSchema || !isObject(itemSchema.value)) {
    problems.add(
      'a text/event-stream response needs an "itemSchema" describing its events',
      locate(streamAt, 'key'),
      'add itemSchema: { type: object, properties: { event: ..., data: ... } }',
    );
    return undefined;
  }
  const key = typeof op.operationId === 'string' ? op.operationId : `${method}${path.replace(/[^A-Za-z0-9]+/g, ' ')}`;
  const operation: ChannelOperation = { name: key, action: 'send', messages: [], location: locate(where, 'key') };
  const channel: PendingChannel = {
    key,
    address: path,
    parameters: pathParameters(
      [item.value.parameters, op.parameters],
      [at(item.where, 'parameters'), at(where, 'parameters')],
      docs,
      registry,
    ),
    transport: 'sse',
    servers: [],
    messages: [],
    operations: [operation],
    where,
  };
  // The HTTP method is the operation's; x-sse supplies the other settings.
  const sse = readSse({ 'x-sse': { ...(isObject(op['x-sse']) ? op['x-sse'] : {}), method: method.toUpperCase() } }, where, problems);
  if (sse) channel.sse = sse;
  for (const field of ['summary', 'description'] as const) if (typeof op[field] === 'string') channel[field] = op[field] as string;

  const base = itemSchema.value;
  const alternatives = Array.isArray(base.oneOf) ? 'oneOf' : Array.isArray(base.anyOf) ? 'anyOf' : undefined;
  const variants = alternatives
    ? (base[alternatives] as unknown[]).map((value, i) => ({ value, where: at(itemSchema.where, alternatives, i) }))
    : [itemSchema];
  for (const raw of variants) {
    const variant = alternatives ? deref(docs, raw.value, raw.where, problems) : itemSchema;
    if (!variant || !isObject(variant.value)) continue;
    const field = (name: string): { value: unknown; where: Where } | undefined => {
      for (const source of [variant, itemSchema]) {
        const found = own(own(source.value, 'properties'), name);
        if (found !== undefined) return deref(docs, found, at(source.where, 'properties', name), problems);
      }
      return undefined;
    };
    const event = field('event');
    const eventName = event && isObject(event.value) && typeof event.value.const === 'string' ? event.value.const : 'message';
    const dataField = field('data');
    if (!dataField) {
      problems.add(
        'an event in itemSchema needs a "data" property',
        locate(variant.where),
        'add properties: { data: { type: string, contentMediaType: application/json, contentSchema: ... } }',
      );
      continue;
    }
    const content = own(dataField.value, 'contentSchema');
    const payloadAt = content === undefined ? dataField.where : at(dataField.where, 'contentSchema');
    const payload = refName(
      (
        registry.body(
          content ?? dataField.value,
          payloadAt,
          pascalCase(`${eventName === 'message' ? key : eventName} payload`),
        ) as SchemaObject
      ).$ref ?? '',
    );
    if (payload === undefined) continue;
    const message: PendingMessage = { key: eventName, name: eventName, payload, deprecated: false, where: variant.where };
    if (channel.messages.some((other) => other.key === eventName)) {
      problems.add(
        `two events of ${method.toUpperCase()} ${path} are named "${eventName}"`,
        locate(variant.where),
        "pin each alternative's event property to its own const",
      );
      continue;
    }
    channel.messages.push(message);
    operation.messages.push(eventName);
  }
  if (method === 'post') {
    const body = deref(docs, op.requestBody, at(where, 'requestBody'), problems);
    const json = body ? own(own(body.value, 'content'), 'application/json') : undefined;
    const schema = own(json, 'schema');
    if (body && schema !== undefined) {
      const bodyAt = at(body.where, 'content', 'application/json', 'schema');
      const payload = refName((registry.body(schema, bodyAt, pascalCase(`${key} body`)) as SchemaObject).$ref ?? '');
      if (payload !== undefined) {
        channel.messages.push({ key: 'request', name: 'request', payload, deprecated: false, where: bodyAt });
        channel.operations.push({ name: `${key}Request`, action: 'receive', messages: ['request'], location: locate(bodyAt) });
      }
    }
  }
  return channel;
}

/** Path parameters of the path item and the operation (the operation's win), as channel parameters. */
function pathParameters(lists: unknown[], places: Where[], docs: Documents, registry: SchemaRegistry): ChannelParameter[] {
  const byName = new Map<string, ChannelParameter>();
  lists.forEach((list, i) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, j) => {
      const resolved = deref(docs, raw, at(places[i], j), registry.problems);
      if (!resolved || !isObject(resolved.value) || resolved.value.in !== 'path' || typeof resolved.value.name !== 'string') return;
      const parameter: ChannelParameter = {
        name: resolved.value.name,
        schema:
          resolved.value.schema === undefined ? { type: 'string' } : registry.inline(resolved.value.schema, at(resolved.where, 'schema')),
      };
      if (typeof resolved.value.description === 'string') parameter.description = resolved.value.description;
      byName.set(parameter.name, parameter);
    });
  });
  return [...byName.values()];
}
