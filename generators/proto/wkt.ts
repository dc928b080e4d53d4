/**
 * Well-known types without shipping their `.proto` files: `import "google/protobuf/x.proto"` that
 * no include folder has is taken from the descriptors embedded in `@bufbuild/protobuf/wkt`.
 *
 * Why these rather than bundled `.proto` copies: they are already installed (the runtime needs
 * them anyway), they are exactly the descriptors protobuf-es's generated code and registry use, and
 * a test shows they equal protoc 36's output for every WKT except `descriptor.proto`, whose copy
 * follows @bufbuild/protobuf's protobuf version (see the loader test): for protoc's exact copy, put
 * protoc's include folder (or a googleapis checkout) on the include path. What they lack is
 * `source_code_info`, so comments of WKT messages are not available (codegen documents WKTs itself).
 * A user copy on an include path wins, as with protoc.
 */
import { clone } from '@bufbuild/protobuf';
import type { DescFile } from '@bufbuild/protobuf';
import {
  FileDescriptorProtoSchema,
  file_google_protobuf_any,
  file_google_protobuf_api,
  file_google_protobuf_compiler_plugin,
  file_google_protobuf_cpp_features,
  file_google_protobuf_descriptor,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_go_features,
  file_google_protobuf_java_features,
  file_google_protobuf_source_context,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_type,
  file_google_protobuf_wrappers,
} from '@bufbuild/protobuf/wkt';
import type { FileDescriptorProto } from '@bufbuild/protobuf/wkt';

const EMBEDDED: DescFile[] = [
  file_google_protobuf_any,
  file_google_protobuf_api,
  file_google_protobuf_compiler_plugin,
  file_google_protobuf_cpp_features,
  file_google_protobuf_descriptor,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_go_features,
  file_google_protobuf_java_features,
  file_google_protobuf_source_context,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_type,
  file_google_protobuf_wrappers,
];

const BY_NAME = new Map(EMBEDDED.map((file) => [file.proto.name, file]));

/** The embedded descriptor of a well-known file, as protoc writes it, or undefined. */
export function wellKnownFile(name: string): FileDescriptorProto | undefined {
  const file = BY_NAME.get(name);
  return file ? clone(FileDescriptorProtoSchema, file.proto) : undefined;
}

export const WELL_KNOWN_FILES: readonly string[] = [...BY_NAME.keys()];
