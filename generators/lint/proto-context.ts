/**
 * The proto lint context: protoc-exact descriptors of the input files (not their imports), with
 * `source_code_info`, so a finding is placed at the span protoc records for its element path. A
 * `// codegen-lint-disable rule-id` leading comment on an element (or one that contains it)
 * silences that rule there.
 */
import type { FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { loadProto } from '../proto/load.js';
import { LintContextBase, disabledInComment } from './context.js';

export interface ProtoLoadOptions {
  displayRoot: string;
  includePaths?: string[] | undefined;
  readRoots?: string[];
  maxInputBytes?: number | undefined;
}

/** Field numbers of FileDescriptorProto and friends, the element paths of source_code_info. */
export const PROTO_PATH = {
  package: 2,
  messageType: 4,
  enumType: 5,
  service: 6,
  messageField: 2,
  nestedType: 3,
  messageEnum: 4,
  enumValue: 2,
  serviceMethod: 2,
  methodInput: 2,
  methodOutput: 3,
  name: 1,
} as const;

export class ProtoContext extends LintContextBase {
  readonly style = 'proto';

  private constructor(
    readonly files: FileDescriptorProto[],
    private readonly display: ReadonlyMap<string, string>,
  ) {
    super();
  }

  static load(inputs: string[], options: ProtoLoadOptions): ProtoContext {
    const loaded = loadProto(inputs, {
      displayRoot: options.displayRoot,
      ...(options.includePaths ? { includePaths: options.includePaths } : {}),
      readRoots: options.readRoots ?? [options.displayRoot],
      maxInputBytes: options.maxInputBytes,
    });
    const asked = new Set(loaded.files);
    return new ProtoContext(
      loaded.set.file.filter((file) => asked.has(file.name)),
      loaded.displayNames,
    );
  }

  /** Reports at the element `path` of `file` (source_code_info's numbering), or the nearest ancestor recorded. */
  report(file: FileDescriptorProto, path: number[], message: string): void {
    const locations = file.sourceCodeInfo?.location ?? [];
    const same = (a: readonly number[], length: number) => a.length === length && a.every((n, i) => n === path[i]);
    let span: readonly number[] | undefined;
    const disabled: string[] = [];
    for (let length = path.length; length >= 0; length--) {
      const found = locations.find((location) => same(location.path, length));
      if (!found) continue;
      span ??= found.span;
      disabled.push(...disabledInComment(found.leadingComments ?? ''));
    }
    const line = (span?.[0] ?? 0) + 1;
    const column = (span?.[1] ?? 0) + 1;
    this.push(message, { file: this.display.get(file.name) ?? file.name, line, column }, disabled);
  }
}
