/**
 * proto3 → one `<file>_pb.ts` per `.proto` file (message types, enums, schemas and service
 * descriptors for @bufbuild/protobuf, comments as JSDoc), and, for services, a server (Connect's
 * node adapter: gRPC, gRPC-Web and Connect's JSON protocol on one port), a Node client and a
 * browser client (the pipeline adds the runtime modules they import).
 */
import type { Generated, GeneratorContext } from '../core/pipeline/generator.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import { emitCodecs } from './codecs.js';
import { emitJsonCodecs } from './json-codecs.js';
import { loadProto } from './load.js';
import { emitMessages } from './messages.js';
import { emitServices } from './services.js';

export async function generateProto({ api, templates }: GeneratorContext<'proto'>): Promise<Generated> {
  // Absolute already: core/config/config.ts resolves path options against the config's folder.
  const proto = loadProto(api.inputs, {
    includePaths: api.options.includePaths,
    displayRoot: api.root,
    readRoots: api.readRoots ?? [api.root],
    maxInputBytes: api.maxInputBytes,
  });
  const files: GeneratedFile[] = emitMessages(proto, templates, { jsonTypes: api.options.jsonTypes === true });
  files.push(...emitCodecs(proto, templates));
  files.push(...emitJsonCodecs(proto, templates));
  const services = await emitServices(proto, templates, api, { redis: api.options.redis === true });
  files.push(...services.files);
  return { files, userFiles: services.userFiles };
}
