/**
 * TypeScript names of proto elements, exactly as protobuf-es (protoc-gen-es v2) names them, so
 * generated modules and the well-known types exported by `@bufbuild/protobuf/wkt` agree:
 * `Task`, nested `Task_Comment`, `TaskSchema`, `file_acme_tasks_v1_tasks`, `TaskService`,
 * `TaskJson`. Clashes inside one file get `$`, `$1`, ... in protobuf-es's order. Field, oneof,
 * enum value and method names are the runtime's `localName` (`projectId`, `TaskStatus.TODO`,
 * `getTask`), which the runtime itself uses as property names.
 */
import type { DescEnum, DescExtension, DescFile, DescMessage, DescService } from '@bufbuild/protobuf';
import { wktPublicImportPaths } from '@bufbuild/protobuf/codegenv2';
import { nestedTypes } from '@bufbuild/protobuf/reflect';
import { isIdentifier } from '../core/builder/names.js';

/** Names protobuf-es never gives a declaration (its `safeIdentifier`): they get a `$`. */
const RESERVED = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'enum',
  'implements',
  'interface',
  'let',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'Object',
  'bigint',
  'number',
  'boolean',
  'string',
  'object',
  'globalThis',
  'Uint8Array',
  'Partial',
]);

type Named = DescEnum | DescMessage;
type Declared = DescFile | DescEnum | DescMessage | DescExtension | DescService;

interface FileNames {
  shapes: Map<Named, string>;
  descs: Map<Declared, string>;
  json: Map<Named, string>;
  /** Every name the file declares, for choosing import aliases that do not clash. */
  taken: Set<string>;
}

const cache = new WeakMap<DescFile, FileNames>();

function safe(name: string): string {
  const id = RESERVED.has(name) ? `${name}$` : name;
  // Proto identifiers are ASCII letters, digits and `_`; this guards the generated code anyway.
  if (!isIdentifier(id)) throw new Error(`codegen: ${JSON.stringify(name)} is not a valid identifier`);
  return id;
}

/** `acme.tasks.v1.Task.Comment` → `Task_Comment`: the type name without the package. */
function identifier(desc: DescEnum | DescMessage | DescExtension | DescService): string {
  const pkg = desc.file.proto.package;
  return desc.typeName.substring(pkg.length > 0 ? pkg.length + 1 : 0).replace(/\./g, '_');
}

const salt = (i: number) => (i === 0 ? '' : i === 1 ? '$' : `$${i - 1}`);

function pick(ideal: (i: number) => string, taken: Set<string>): string {
  for (let i = 0; ; i++) {
    const name = ideal(i);
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

/** protobuf-es's three passes: shapes first, then descriptors, then JSON types. */
function fileNames(file: DescFile): FileNames {
  const cached = cache.get(file);
  if (cached) return cached;
  const taken = new Set<string>();
  const types = [...nestedTypes(file)];
  const named = types.filter((desc): desc is Named => desc.kind === 'enum' || desc.kind === 'message');
  const shapes = new Map<Named, string>();
  for (const desc of named)
    shapes.set(
      desc,
      pick((i) => safe(identifier(desc) + salt(i)), taken),
    );
  const descs = new Map<Declared, string>();
  for (const desc of [file, ...types]) {
    const ideal = (i: number): string => {
      if (desc.kind === 'file') return safe(`file_${desc.name.replace(/[^a-zA-Z0-9_]+/g, '_')}${salt(i)}`);
      const suffix = desc.kind === 'enum' || desc.kind === 'message' ? 'Schema' : '';
      return safe(identifier(desc) + suffix + salt(i));
    };
    descs.set(desc, pick(ideal, taken));
  }
  const json = new Map<Named, string>();
  for (const desc of named)
    json.set(
      desc,
      pick((i) => safe(`${identifier(desc)}Json${salt(i)}`), taken),
    );
  const names = { shapes, descs, json, taken };
  cache.set(file, names);
  return names;
}

/** `file_acme_tasks_v1_tasks`: the exported `GenFile` of a file. */
export function fileConstName(file: DescFile): string {
  return fileNames(file).descs.get(file)!;
}

/** `Task`, `Task_Comment`, `TaskStatus`: the message type or TS enum. */
export function messageTypeName(desc: DescMessage | DescEnum): string {
  return fileNames(desc.file).shapes.get(desc)!;
}

/** `TaskSchema`, `TaskStatusSchema`: the exported `GenMessage` / `GenEnum`. */
export function schemaName(desc: DescMessage | DescEnum): string {
  return fileNames(desc.file).descs.get(desc)!;
}

/** `TaskJson`: the type of a message's (or enum's) proto3 JSON form. */
export function jsonTypeName(desc: DescMessage | DescEnum): string {
  return fileNames(desc.file).json.get(desc)!;
}

/** `TaskService`: the exported `GenService`. */
export function serviceConstName(desc: DescService): string {
  return fileNames(desc.file).descs.get(desc)!;
}

/** `Edge_edge_oneof`: the exported `GenExtension`. */
export function extensionName(desc: DescExtension): string {
  return fileNames(desc.file).descs.get(desc)!;
}

/** Every name declared by the generated module of `file`. */
export function declaredNames(file: DescFile): ReadonlySet<string> {
  return fileNames(file).taken;
}

/** `acme/tasks/v1/tasks.proto` → `acme/tasks/v1/tasks_pb.js`: the module, relative to the output folder. */
export function pbModulePath(fileName: string): string {
  return `${fileName.replace(/\.proto$/, '')}_pb.js`;
}

/** `acme/tasks/v1/tasks.proto` → `acme/tasks/v1/tasks_pb.ts`: the generated file. */
export function pbFilePath(fileName: string): string {
  return pbModulePath(fileName).replace(/\.js$/, '.ts');
}

/**
 * The module that exports the declarations of `target`, as a file builder's symbol names it: the
 * package `@bufbuild/protobuf/wkt` for a well-known type that is not generated locally, else the
 * generated module by its path in the output folder (`./acme/tasks/v1/tasks_pb`).
 */
export function pbModule(target: DescFile, generated: ReadonlySet<string>): string {
  const wkt = (wktPublicImportPaths as Record<string, string | undefined>)[target.proto.name];
  if (wkt !== undefined && !generated.has(target.proto.name)) return wkt;
  return `./${pbModulePath(target.proto.name).replace(/\.js$/, '')}`;
}

/** protobuf-es's alias of an import whose name the file declares itself: `Message$1`, `Message$2`, ... */
export function protobufEsAlias(symbol: { name: string }, taken: ReadonlySet<string>): string {
  let local = `${symbol.name}$1`;
  for (let i = 2; taken.has(local); i++) local = `${symbol.name}$${i}`;
  return local;
}
