/**
 * Message code: one `<file>_pb.ts` per `.proto` file asked for (and per non-well-known file they
 * import, so every import resolves), in protoc-gen-es v2's shape on @bufbuild/protobuf. Well-known
 * types are imported from `@bufbuild/protobuf/wkt`, whose descriptors the loader already uses.
 */
import type { DescFile, DescMessage } from '@bufbuild/protobuf';
import { nestedTypes } from '@bufbuild/protobuf/reflect';
import { wktPublicImportPaths } from '@bufbuild/protobuf/codegenv2';
import { FileBuilder } from '../core/builder/file.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { LoadedProto } from './load.js';
import { fileComments } from './messages-docs.js';
import { fileDeclarations, type MessageOptions } from './messages-file.js';
import { References } from './messages-types.js';
import { declaredNames, pbFilePath, protobufEsAlias } from './names.js';
import type { MessagesContext } from './template-context.js';

export function emitMessages(
  proto: LoadedProto,
  templates: TemplateRenderer,
  options: MessageOptions = { jsonTypes: false },
): GeneratedFile[] {
  const files = generatedFiles(proto);
  const names = new Set(files.map((file) => file.proto.name));
  return files.map((file) => {
    const path = pbFilePath(file.proto.name);
    const builder = new FileBuilder(path, declaredNames(file), { alias: protobufEsAlias });
    const declarations = fileDeclarations(new References(file, builder, names), options);
    const context: MessagesContext = {
      source: proto.displayNames.get(file.proto.name) ?? file.proto.name,
      fileComments: fileComments(file),
      imports: builder.imports(),
      declarations,
    };
    return { path, content: templates.render('proto/messages.ts.hbs', context) };
  });
}

/**
 * The requested files and, transitively, the files they import, except well-known types (which
 * come with the runtime) unless asked for by name. descriptor.proto always comes from the runtime:
 * it describes itself, so protobuf-es can only embed it in a special boot form.
 */
export function generatedFiles(proto: LoadedProto): DescFile[] {
  const requested = new Set(proto.files);
  const wanted = new Set<string>();
  const visit = (file: DescFile): void => {
    if (wanted.has(file.name)) return;
    const wkt = Object.prototype.hasOwnProperty.call(wktPublicImportPaths, file.proto.name);
    if (file.proto.name === 'google/protobuf/descriptor.proto' || (wkt && !requested.has(file.proto.name))) return;
    wanted.add(file.name);
    file.dependencies.forEach(visit);
  };
  for (const name of proto.files) visit(proto.registry.getFile(name)!);
  // The loader's order: imports first, as protoc orders them.
  return proto.set.file.map((f) => proto.registry.getFile(f.name)!).filter((file) => wanted.has(file.name));
}

/** `acme/tasks/v1/tasks.proto` with `_codec` → `./acme/tasks/v1/tasks_codec`: a generated file's module of that kind. */
export function perFileModule(file: DescFile, suffix: string): string {
  return `./${file.proto.name.replace(/\.proto$/, '')}${suffix}`;
}

/** One generated file's module of per-message code (`_codec`, `_json`). */
export interface MessageModule {
  file: DescFile;
  /** Its messages, nested ones included, in declaration order. */
  messages: DescMessage[];
  /** The module's path in the output, `acme/tasks/v1/tasks_codec.ts`. */
  path: string;
  /** The .proto file as the header names it. */
  source: string;
}

/**
 * The per-message modules of kind `suffix`, one per generated file with messages, and the names of
 * the generated files (a message of any other file is left to protobuf-es's reflection).
 */
export function messageModules(proto: LoadedProto, suffix: string): { modules: MessageModule[]; generated: Set<string> } {
  const files = generatedFiles(proto);
  const modules = files.flatMap((file) => {
    const messages = [...nestedTypes(file)].filter((desc): desc is DescMessage => desc.kind === 'message');
    if (messages.length === 0) return [];
    const path = `${perFileModule(file, suffix).slice(2)}.ts`;
    return [{ file, messages, path, source: proto.displayNames.get(file.proto.name) ?? file.proto.name }];
  });
  return { modules, generated: new Set(files.map((file) => file.proto.name)) };
}
