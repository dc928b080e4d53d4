/**
 * The testee the official protobuf conformance runner drives: a Node program reading
 * `ConformanceRequest`s on stdin and answering `ConformanceResponse`s on stdout, each framed by a
 * 4-byte little-endian length (conformance/conformance.proto). Every message type, the request and
 * the response included, comes from the `_pb.js` modules codegen generated into the folder given
 * as the first argument. Binary is parsed and serialized by the generated codecs (`_codec.js`:
 * `TestAllTypesProto3Codec.decode`/`.encode`), and JSON by the generated JSON codecs (`_json.js`:
 * `TestAllTypesProto3JsonCodec.fromJsonString`/`.toJsonString`), which the suite exists to check,
 * with a registry of the generated files for `Any` and extensions.
 * Text format and JSPB are skipped, as protobuf-es skips them.
 *
 * test/conformance.test.ts transpiles this file into that folder and starts it with node.
 */
import { readdirSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, createRegistry, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { DescFile, DescMessage, JsonReadOptions, JsonWriteStringOptions, Message, Registry } from '@bufbuild/protobuf';
import type { GenMessage } from '@bufbuild/protobuf/codegenv2';

/** A generated `*Codec` (runtime/proto-codec.ts's `MessageCodec`), as the testee uses it. */
interface Codec {
  schema: DescMessage;
  encode(message: Message): Uint8Array;
  decode(bytes: Uint8Array): Message;
}

/** A generated `*JsonCodec` (runtime/proto-json.ts's `MessageJsonCodec`), as the testee uses it. */
interface JsonCodec {
  schema: DescMessage;
  fromJsonString(json: string, options?: Partial<JsonReadOptions>): Message;
  toJsonString(message: Message, options?: Partial<JsonWriteStringOptions>): string;
}

/** conformance.proto's enums, by number. */
const WireFormat = { PROTOBUF: 1, JSON: 2, JSPB: 3, TEXT_FORMAT: 4 } as const;
const TestCategory = { JSON_IGNORE_UNKNOWN_PARSING_TEST: 3 } as const;

type ConformanceRequest = Message<'conformance.ConformanceRequest'> & {
  payload:
    | { case: 'protobufPayload'; value: Uint8Array }
    | { case: 'jsonPayload' | 'jspbPayload' | 'textPayload'; value: string }
    | { case: undefined; value?: undefined };
  requestedOutputFormat: number;
  messageType: string;
  testCategory: number;
};

type ConformanceResult =
  | { case: 'protobufPayload'; value: Uint8Array }
  | { case: 'parseError' | 'serializeError' | 'runtimeError' | 'skipped' | 'jsonPayload'; value: string };

type ConformanceResponse = Message<'conformance.ConformanceResponse'> & {
  result: ConformanceResult | { case: undefined; value?: undefined };
};

interface ConformanceModule {
  ConformanceRequestSchema: GenMessage<ConformanceRequest>;
  ConformanceResponseSchema: GenMessage<ConformanceResponse>;
  FailureSetSchema: DescMessage;
}

/** Every generated module under `folder` whose name ends with `suffix` (`_pb.js`, `_codec.js`). */
async function importGenerated(folder: string, suffix: string): Promise<Array<Record<string, unknown>>> {
  const modules: Array<Record<string, unknown>> = [];
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(suffix))
      modules.push((await import(pathToFileURL(join(entry.parentPath, entry.name)).href)) as Record<string, unknown>);
  }
  return modules;
}

/**
 * The `file_*` constants the modules export (the generated files' descriptors) and the files they
 * import, the well-known types among them, which `Any` in JSON may name.
 */
function generatedFiles(modules: Array<Record<string, unknown>>): DescFile[] {
  const files = new Set<DescFile>();
  const visit = (file: DescFile): void => {
    if (files.has(file)) return;
    files.add(file);
    file.dependencies.forEach(visit);
  };
  for (const module of modules) {
    for (const [name, value] of Object.entries(module)) if (name.startsWith('file_')) visit(value as DescFile);
  }
  return [...files];
}

function readExactly(length: number): Buffer | undefined {
  const buffer = Buffer.alloc(length);
  let offset = 0;
  while (offset < length) {
    const read = readSync(0, buffer, offset, length - offset, null);
    if (read === 0) return undefined;
    offset += read;
  }
  return buffer;
}

function writeAll(bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(1, bytes, offset);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The generated codecs (`*Codec`, or `*JsonCodec` in `_json.js` modules) by message type name. */
function generatedCodecs<T extends { schema: DescMessage }>(modules: Array<Record<string, unknown>>): Map<string, T> {
  const codecs = new Map<string, T>();
  for (const module of modules)
    for (const [name, value] of Object.entries(module)) if (name.endsWith('Codec')) codecs.set((value as T).schema.typeName, value as T);
  return codecs;
}

function answer(
  request: ConformanceRequest,
  registry: Registry,
  codecs: Map<string, Codec>,
  jsonCodecs: Map<string, JsonCodec>,
  conformance: ConformanceModule,
): ConformanceResult {
  // The runner's first question: which tests this testee expects to fail (none; the test's lists say so).
  if (request.messageType === 'conformance.FailureSet')
    return { case: 'protobufPayload', value: toBinary(conformance.FailureSetSchema, create(conformance.FailureSetSchema)) };
  const schema = registry.getMessage(request.messageType);
  const codec = codecs.get(request.messageType);
  const jsonCodec = jsonCodecs.get(request.messageType);
  if (!schema || !codec || !jsonCodec) return { case: 'runtimeError', value: `no generated message or codec ${request.messageType}` };

  let parsed: Message;
  try {
    switch (request.payload.case) {
      case 'protobufPayload':
        parsed = codec.decode(request.payload.value);
        break;
      case 'jsonPayload':
        parsed = jsonCodec.fromJsonString(request.payload.value, {
          registry,
          ignoreUnknownFields: request.testCategory === TestCategory.JSON_IGNORE_UNKNOWN_PARSING_TEST,
        });
        break;
      case 'jspbPayload':
      case 'textPayload':
        return { case: 'skipped', value: `${request.payload.case} is not supported by @bufbuild/protobuf` };
      default:
        return { case: 'runtimeError', value: 'request without payload' };
    }
  } catch (error) {
    return { case: 'parseError', value: message(error) };
  }

  try {
    switch (request.requestedOutputFormat) {
      case WireFormat.PROTOBUF:
        return { case: 'protobufPayload', value: codec.encode(parsed) };
      case WireFormat.JSON:
        return { case: 'jsonPayload', value: jsonCodec.toJsonString(parsed, { registry }) };
      case WireFormat.JSPB:
      case WireFormat.TEXT_FORMAT:
        return { case: 'skipped', value: `output format ${request.requestedOutputFormat} is not supported by @bufbuild/protobuf` };
      default:
        return { case: 'runtimeError', value: `unknown output format ${request.requestedOutputFormat}` };
    }
  } catch (error) {
    return { case: 'serializeError', value: message(error) };
  }
}

async function main(folder: string): Promise<void> {
  const modules = await importGenerated(folder, '_pb.js');
  const codecs = generatedCodecs<Codec>(await importGenerated(folder, '_codec.js'));
  const jsonCodecs = generatedCodecs<JsonCodec>(await importGenerated(folder, '_json.js'));
  const conformance = modules.find((module) => 'ConformanceRequestSchema' in module) as ConformanceModule | undefined;
  if (!conformance) throw new Error(`no generated conformance/conformance_pb.js under ${folder}`);
  const registry = createRegistry(...generatedFiles(modules));
  for (;;) {
    const header = readExactly(4);
    if (!header) return;
    const body = readExactly(header.readUInt32LE(0));
    if (!body) throw new Error('stdin ended inside a request');
    const request = fromBinary(conformance.ConformanceRequestSchema, body);
    const response = create(conformance.ConformanceResponseSchema, { result: answer(request, registry, codecs, jsonCodecs, conformance) });
    const bytes = toBinary(conformance.ConformanceResponseSchema, response);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length, 0);
    writeAll(length);
    writeAll(bytes);
  }
}

const folder = process.argv[2];
if (!folder) throw new Error('usage: node conformance-testee.js <folder of generated _pb.js modules>');
await main(folder);
