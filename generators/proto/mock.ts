/**
 * Mock handlers for proto services (`codegen mock`): for every method of the given services, a
 * handler answering sample messages built from the method's descriptors, deterministic by seed, to
 * hand to the generated `createGrpcServer` in place of the user's handlers — so gRPC, gRPC-Web,
 * Connect and the `google.api.http` routes, auth hooks, limits and status codes stay the
 * generated server's own.
 *
 * Samples are built per call from the descriptors (nothing is stored): every field kind is set —
 * scalars, enums (a non-zero value), one case of each oneof, two list items, two map entries,
 * nested messages to a depth of four, well-known types by their meaning (Timestamp, Duration,
 * Struct/Value, Any packing a Duration, FieldMask, wrappers). Request fields whose name and kind
 * match a response field are echoed (`GetTask{id}` answers that id). Unary methods answer one
 * sample; server streams send `streamCount` samples `intervalMs` apart; client streams answer one
 * sample after the last request; bidi streams answer each request. AIP-158 list methods
 * (`page_size`, `page_token` → `next_page_token`) page through `collectionSize` items.
 */
import {
  create,
  type DescEnum,
  type DescField,
  type DescMessage,
  type DescMethod,
  type DescService,
  ScalarType,
  toBinary,
} from '@bufbuild/protobuf';
import { DurationSchema, isWrapperDesc } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { hashKey } from '../core/mock/seeded-random.js';
import { sampleInstantMs, sampleString } from '../core/mock/seeded-values.js';

export interface GrpcMockOptions {
  /** Same seed, same answers (default 1). */
  seed?: number;
  /** Messages a server-streaming method sends (default 3). */
  streamCount?: number;
  /** Milliseconds between two messages of a server stream (default 1000). */
  intervalMs?: number;
  /** Items an AIP-158 list method holds in all (default 5); a page without `page_size` holds them all. */
  collectionSize?: number;
}

/** What a handler gets besides its request: the call's signal, which ends a stream early. */
export interface GrpcMockCallContext {
  readonly signal: AbortSignal;
}

/** A message as handlers return it (`MessageInitShape`): fields by their local names. */
type MessageInit = Record<string, unknown>;

/** A request message as the server hands it over: fields by their local names. */
type RequestMessage = Readonly<Record<string, unknown>>;

/** One method's mock: its signature follows the method's streaming kind, as the generated `…Handlers` interfaces say. */
export type GrpcMockHandler =
  | ((request: RequestMessage, context: GrpcMockCallContext) => MessageInit)
  | ((request: RequestMessage, context: GrpcMockCallContext) => AsyncIterable<MessageInit>)
  | ((requests: AsyncIterable<RequestMessage>, context: GrpcMockCallContext) => Promise<MessageInit>)
  | ((requests: AsyncIterable<RequestMessage>, context: GrpcMockCallContext) => AsyncIterable<MessageInit>);

/** The handlers of each service by its name, the shape `createGrpcServer(services)` takes. */
export type GrpcMockServices = Record<string, Record<string, GrpcMockHandler>>;

/** Nested messages below this depth are left unset (recursive messages would never end). */
const MAX_DEPTH = 4;

/** An AIP-158 list method: where its page size, token and items are. */
interface ListMethod {
  readonly items: ListField;
  readonly totalSize: ScalarField | undefined;
}

type ListField = Extract<DescField, { fieldKind: 'list' }>;
type ScalarField = Extract<DescField, { fieldKind: 'scalar' }>;

/** `page_size` and `page_token` in, `next_page_token` and a repeated field out: AIP-158's list shape. */
function listMethod(method: DescMethod): ListMethod | undefined {
  const input = (name: string) => method.input.fields.find((field) => field.name === name);
  const output = (name: string) => method.output.fields.find((field) => field.name === name);
  const size = input('page_size');
  const token = input('page_token');
  const next = output('next_page_token');
  if (size?.fieldKind !== 'scalar' || token?.fieldKind !== 'scalar' || next?.fieldKind !== 'scalar') return undefined;
  const items = [...method.output.fields]
    .sort((a, b) => a.number - b.number)
    .find((field): field is ListField => field.fieldKind === 'list');
  if (!items) return undefined;
  const total = output('total_size');
  return { items, totalSize: total?.fieldKind === 'scalar' ? total : undefined };
}

/** `offset:<n>` in base64url; a token that is not one of ours is INVALID_ARGUMENT, as AIP-158 asks. */
function encodePageToken(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function decodePageToken(token: string): number {
  const match = /^offset:(\d{1,9})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!match?.[1]) throw new ConnectError(`invalid page_token "${token}"`, Code.InvalidArgument);
  return Number(match[1]);
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Mock handlers for every method of `services`, keyed by service name and by method (local name). */
export function grpcMockServices(services: readonly DescService[], options: GrpcMockOptions = {}): GrpcMockServices {
  const seed = options.seed ?? 1;
  const streamCount = options.streamCount ?? 3;
  const interval = options.intervalMs ?? 1000;
  const collectionSize = options.collectionSize ?? 5;
  const hash = (key: string) => hashKey(seed, key);

  const enumValue = (type: DescEnum, key: string): number => {
    const named = type.values.filter((value) => value.number !== 0);
    const pool = named.length > 0 ? named : type.values;
    return pool[hash(key) % pool.length]?.number ?? 0;
  };

  const scalarValue = (scalar: ScalarType, fieldName: string, key: string, longAsString: boolean): unknown => {
    const h = hash(key);
    switch (scalar) {
      case ScalarType.STRING:
        return sampleString(fieldName, h);
      case ScalarType.BOOL:
        return h % 2 === 0;
      case ScalarType.BYTES:
        return new Uint8Array([h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff, h >>> 24]);
      // Quarters: exact in a float, so binary and JSON give the same number back.
      case ScalarType.FLOAT:
      case ScalarType.DOUBLE:
        return (h % 4000) / 4;
      default:
        return integer(scalar, longAsString, h % (is64Bit(scalar) ? 100_000 : 1000));
    }
  };

  /**
   * A value of `field`'s message type at `key`, in protobuf-es's representation: wrappers are their
   * value in a singular field outside a oneof, Struct is a JSON object in any field but Value's.
   */
  const messageValue = (type: DescMessage, key: string, depth: number, field: DescField): unknown => {
    const h = hash(key);
    if (field.fieldKind === 'message' && !field.oneof && isWrapperDesc(type)) {
      const inner = type.fields[0]!;
      return scalarValue(inner.scalar!, inner.name, key, false);
    }
    switch (type.typeName) {
      case 'google.protobuf.Timestamp':
        return { seconds: BigInt(sampleInstantMs(h) / 1000), nanos: 0 };
      case 'google.protobuf.Duration':
        return { seconds: BigInt(60 * (1 + (h % 120))), nanos: 0 };
      case 'google.protobuf.FieldMask':
        return { paths: ['name'] };
      case 'google.protobuf.Any':
        // Packs a Duration: a type every registry that reads Any resolves.
        return {
          typeUrl: 'type.googleapis.com/google.protobuf.Duration',
          value: toBinary(DurationSchema, create(DurationSchema, { seconds: BigInt(h % 3600) })),
        };
      case 'google.protobuf.Value':
        return { kind: { case: 'stringValue', value: sampleString('', h) } };
      case 'google.protobuf.ListValue':
        return { values: [{ kind: { case: 'numberValue', value: h % 100 } }, { kind: { case: 'boolValue', value: h % 2 === 0 } }] };
      case 'google.protobuf.Struct': {
        const json = { name: sampleString('name', h), count: h % 100, active: h % 2 === 0 };
        if (field.parent.typeName !== 'google.protobuf.Value') return json;
        return {
          fields: {
            name: { kind: { case: 'stringValue', value: json.name } },
            count: { kind: { case: 'numberValue', value: json.count } },
          },
        };
      }
    }
    if (isWrapperDesc(type)) return { value: scalarValue(type.fields[0]!.scalar!, 'value', key, false) };
    return sampleMessage(type, key, depth);
  };

  /** The value of `field` at `key`, or undefined to leave it unset (a message past the depth). */
  const fieldValue = (field: DescField, key: string, depth: number): unknown => {
    switch (field.fieldKind) {
      case 'scalar':
        return scalarValue(field.scalar, field.name, key, field.longAsString);
      case 'enum':
        return enumValue(field.enum, key);
      case 'message':
        return depth < MAX_DEPTH ? messageValue(field.message, key, depth + 1, field) : undefined;
      case 'list':
        if (field.listKind === 'message' && depth >= MAX_DEPTH) return [];
        return [0, 1].map((index) => listItem(field, `${key}[${index}]`, depth));
      case 'map': {
        if (field.mapKind === 'message' && depth >= MAX_DEPTH) return {};
        const entries: Record<string, unknown> = {};
        for (const index of [0, 1]) {
          const itemKey = `${key}[${index}]`;
          const mapKey =
            field.mapKey === ScalarType.BOOL ? String(index === 0) : String(scalarValue(field.mapKey, `${field.name}_key`, itemKey, true));
          entries[field.mapKey === ScalarType.STRING ? `${mapKey}-${index}` : String(Number(mapKey) + index)] =
            field.mapKind === 'scalar'
              ? scalarValue(field.scalar, field.name, itemKey, false)
              : field.mapKind === 'enum'
                ? enumValue(field.enum, itemKey)
                : messageValue(field.message, itemKey, depth + 1, field);
        }
        return entries;
      }
    }
  };

  const listItem = (field: ListField, key: string, depth: number): unknown => {
    if (field.listKind === 'scalar') return scalarValue(field.scalar, field.name, key, field.longAsString);
    if (field.listKind === 'enum') return enumValue(field.enum, key);
    return messageValue(field.message, key, depth + 1, field);
  };

  /** Every field of `type` set (one case per oneof), at `key`. */
  const sampleMessage = (type: DescMessage, key: string, depth: number): MessageInit => {
    const init: MessageInit = {};
    for (const member of type.members) {
      if (member.kind === 'oneof') {
        const chosen = member.fields[hash(`${key}.${member.name}`) % member.fields.length];
        const value = chosen ? fieldValue(chosen, `${key}.${chosen.name}`, depth) : undefined;
        if (chosen && value !== undefined) init[member.localName] = { case: chosen.localName, value };
        continue;
      }
      const value = fieldValue(member, `${key}.${member.name}`, depth);
      if (value !== undefined) init[member.localName] = value;
    }
    return init;
  };

  /** A response of `method` at `key`, with the request's fields echoed where a response field has the same name and kind. */
  const response = (method: DescMethod, key: string, request?: RequestMessage): MessageInit => {
    const init = sampleMessage(method.output, key, 0);
    if (!request) return init;
    for (const field of method.output.fields) {
      const source = method.input.fields.find((candidate) => candidate.name === field.name);
      if (!source || source.oneof || field.oneof || !sameKind(source, field)) continue;
      const value = request[source.localName];
      if (value !== undefined && value !== '' && value !== 0 && value !== 0n) init[field.localName] = value;
    }
    return init;
  };

  const page = (method: DescMethod, list: ListMethod, request: RequestMessage, key: string): MessageInit => {
    const size = Number(request.pageSize ?? 0);
    if (size < 0) throw new ConnectError('page_size must not be negative', Code.InvalidArgument);
    const token = String(request.pageToken ?? '');
    const start = token === '' ? 0 : Math.min(decodePageToken(token), collectionSize);
    const end = Math.min(collectionSize, start + (size === 0 ? collectionSize : size));
    const init = response(method, key, request);
    init[list.items.localName] = Array.from({ length: end - start }, (_, offset) =>
      listItem(list.items, `${key}.${list.items.name}[${start + offset}]`, 0),
    );
    init.nextPageToken = end < collectionSize ? encodePageToken(end) : '';
    if (list.totalSize) init[list.totalSize.localName] = integer(list.totalSize.scalar, list.totalSize.longAsString, collectionSize);
    return init;
  };

  const handlers: GrpcMockServices = {};
  for (const service of services) {
    const methods: Record<string, GrpcMockHandler> = {};
    for (const method of service.methods) {
      const key = `${service.typeName}.${method.name}`;
      switch (method.methodKind) {
        case 'unary': {
          const list = listMethod(method);
          methods[method.localName] = (request: RequestMessage) =>
            list ? page(method, list, request, key) : response(method, key, request);
          break;
        }
        case 'server_streaming':
          methods[method.localName] = async function* (request: RequestMessage, context: GrpcMockCallContext) {
            for (let index = 0; index < streamCount && !context.signal.aborted; index++) {
              if (index > 0) await pause(interval, context.signal);
              if (context.signal.aborted) return;
              yield response(method, `${key}@${index}`, request);
            }
          };
          break;
        case 'client_streaming':
          methods[method.localName] = async (requests: AsyncIterable<RequestMessage>) => {
            let count = 0;
            for await (const _ of requests) count++;
            return response(method, `${key}#${count}`);
          };
          break;
        case 'bidi_streaming':
          methods[method.localName] = async function* (requests: AsyncIterable<RequestMessage>) {
            let index = 0;
            for await (const request of requests) yield response(method, `${key}#${index++}`, request);
          };
          break;
      }
    }
    handlers[service.name] = methods;
  }
  return handlers;
}

/** Whether two fields hold the same kind of value (scalar type, enum or message type). */
function sameKind(a: DescField, b: DescField): boolean {
  if (a.fieldKind !== b.fieldKind) return false;
  if (a.fieldKind === 'scalar' && b.fieldKind === 'scalar') return a.scalar === b.scalar && a.longAsString === b.longAsString;
  if (a.fieldKind === 'enum' && b.fieldKind === 'enum') return a.enum.typeName === b.enum.typeName;
  return false;
}

function is64Bit(scalar: ScalarType): boolean {
  return (
    scalar === ScalarType.INT64 ||
    scalar === ScalarType.UINT64 ||
    scalar === ScalarType.SINT64 ||
    scalar === ScalarType.FIXED64 ||
    scalar === ScalarType.SFIXED64
  );
}

/** `value` as an integer field of `scalar` holds it: 64-bit ones as bigint, or as text with `jstype = JS_STRING`. */
function integer(scalar: ScalarType, longAsString: boolean, value: number): number | bigint | string {
  if (!is64Bit(scalar)) return value;
  return longAsString ? String(value) : BigInt(value);
}
