/**
 * The `.proto` loader (proto2, proto3, editions): `.proto` files → the `FileDescriptorSet` that
 * `protoc --include_imports --include_source_info --descriptor_set_out` writes for them, in pure
 * TypeScript (no protoc at run time). Files are found on include paths as protoc finds them; an
 * import of a well-known type that no include path has comes from @bufbuild/protobuf (wkt.ts).
 * Errors are `file:line:col: error: message` with a hint; semantic errors are all reported at once.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { create, createFileRegistry } from '@bufbuild/protobuf';
import type { FileRegistry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, SourceCodeInfoSchema } from '@bufbuild/protobuf/wkt';
import type { DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { CodegenError, error } from '../core/diagnostics.js';
import { InputFiles, refusalHint, type ReadResult } from '../core/pipeline/input-files.js';
import { interpretOptions } from './options.js';
import { parseProto } from './parse.js';
import type { Pos } from './parse.js';
import { Linker } from './resolve.js';
import { stripSourceRetention } from './retention.js';
import type { LinkFile } from './resolve.js';
import { wellKnownFile } from './wkt.js';

export interface LoadProtoOptions {
  /**
   * Folders imports are resolved against, in order (protoc's `-I`). Default: the folder of each
   * input file. Input files must lie inside one of them; their name in the descriptors (and in
   * imports) is the path relative to it.
   */
  includePaths?: string[];
  /** Folder that paths in messages are relative to; default: the working directory. */
  displayRoot?: string;
  /** Keep `source_code_info` (comments, spans); default true, as codegen turns comments into JSDoc. */
  sourceInfo?: boolean;
  /**
   * Folders besides the include paths that imported files may really lie in (the project root and
   * `allowRead`): a file an import finds is read only when its real path, symlinks resolved, is
   * inside an include path or one of these.
   */
  readRoots?: string[];
  /** Size cap per .proto file in bytes; default 64 MiB. */
  maxInputBytes?: number;
}

export interface LoadedProto {
  /** Every file, imports first, as `protoc --include_imports` orders them. */
  set: FileDescriptorSet;
  /** Names (relative to their include path) of the files asked for, in the order given. */
  files: string[];
  /** The set, registered: descriptors with resolved references, ready for protobuf-es. */
  registry: FileRegistry;
  /** Each file's path as shown to users (relative to the display root), by descriptor name. */
  displayNames: ReadonlyMap<string, string>;
}

export function loadProto(inputs: string[], options: LoadProtoOptions = {}): LoadedProto {
  const root = resolve(options.displayRoot ?? process.cwd());
  const display = (path: string) => {
    const rel = relative(root, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : path;
  };
  const absolute = inputs.map((f) => resolve(f));
  const includePaths = (
    options.includePaths && options.includePaths.length > 0 ? options.includePaths.map((p) => resolve(p)) : absolute.map((f) => dirname(f))
  ).filter((p, i, all) => all.indexOf(p) === i);
  const files = new InputFiles({
    roots: [...includePaths, ...(options.readRoots ?? []).map((p) => resolve(p))],
    maxBytes: options.maxInputBytes,
  });

  const loaded = new Map<string, LinkFile>();
  const order: LinkFile[] = [];
  const stack: string[] = [];

  const nameOf = (abs: string): string => {
    for (const inc of includePaths) {
      const rel = relative(inc, abs);
      if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
    }
    throw error(
      `${display(abs)} is not inside any include path`,
      undefined,
      `add its folder (or a parent of it) to the include paths; they are: ${includePaths.map(display).join(', ')}`,
    );
  };

  const find = (name: string): string | undefined => {
    for (const inc of includePaths) {
      const path = join(inc, name);
      if (existsSync(path) && statSync(path).isFile()) return path;
    }
    return undefined;
  };

  const load = (name: string, path: string | undefined, from?: { file: LinkFile; at: Pos }): void => {
    if (loaded.has(name)) return;
    const cycleStart = stack.indexOf(name);
    if (cycleStart >= 0 && from) {
      const chain = [...stack.slice(cycleStart), name].join(' -> ');
      throw error(
        `import cycle: ${chain}`,
        { file: from.file.display, line: from.at.line + 1, column: from.at.charColumn },
        'files cannot import each other in a loop; move the shared types into a file both import',
      );
    }
    const where = from ? { file: from.file.display, line: from.at.line + 1, column: from.at.charColumn } : undefined;
    // As protoc: an import names a file inside an include path, so `..` cannot climb out of one.
    if (from && !isPlainImport(name)) {
      throw error(
        `import "${name}" is not a plain path: an import names a file relative to the include paths, without ".", ".." or empty segments, backslashes or a leading "/"`,
        where,
        `add the folder that holds the file to \`includePaths\` and import it by its path inside that folder`,
      );
    }
    const abs = path ?? find(name);
    let file: LinkFile;
    if (abs === undefined) {
      const wkt = wellKnownFile(name);
      if (!wkt) {
        throw error(
          `import "${name}" was not found`,
          where,
          `looked in ${includePaths.map((p) => display(p) || '.').join(', ')}; add the folder that holds it to the include paths`,
        );
      }
      file = {
        name,
        display: name,
        proto: wkt,
        locations: [],
        options: [],
        positions: new WeakMap(),
        importPositions: [],
        prelinked: true,
      };
    } else {
      // Inputs are the user's; an imported file must really lie where codegen reads (no symlink out).
      const read: ReadResult = path !== undefined ? files.readNamed(abs) : files.readReached(abs);
      if (!read.ok) {
        const allow =
          read.refused === 'outside'
            ? `codegen reads imported files only inside the include paths and ${(options.readRoots ?? []).map((p) => display(p) || '.').join(', ') || 'the project'}; add the folder that holds the file to \`includePaths\` or \`allowRead\` in codegen.config`
            : read.refused
              ? refusalHint(read.refused, files, abs, display)
              : 'check the path';
        throw error(`${from ? `import "${name}": ` : ''}cannot read ${display(abs)}: ${read.why}`, where, allow);
      }
      file = parseProto(read.text, name, display(abs));
    }
    stack.push(name);
    const seen = new Set<string>();
    // Edition 2024's `import option` files load after the plain imports, as protoc orders them.
    const imports = [
      ...file.proto.dependency.map((dep, i) => ({ dep, at: file.importPositions[i] })),
      ...file.proto.optionDependency.map((dep, i) => ({ dep, at: file.optionImportPositions?.[i] })),
    ];
    for (const { dep, at } of imports) {
      if (seen.has(dep)) {
        throw error(
          `import "${dep}" is listed twice`,
          at && { file: file.display, line: at.line + 1, column: at.charColumn },
          'remove the second import',
        );
      }
      seen.add(dep);
      load(dep, undefined, at ? { file, at } : undefined);
    }
    stack.pop();
    loaded.set(name, file);
    order.push(file);
  };

  const names: string[] = [];
  for (const abs of absolute) {
    if (!existsSync(abs)) throw error(`${display(abs)} does not exist`, undefined, 'check the path of the .proto file');
    const name = nameOf(abs);
    const shadow = find(name);
    if (shadow !== undefined && resolve(shadow) !== abs) {
      throw error(
        `${display(abs)} is shadowed by ${display(shadow)}, which comes first on the include paths with the same name "${name}"`,
        undefined,
        'reorder the include paths or rename one of the files',
      );
    }
    names.push(name);
    load(name, abs);
  }

  const linker = new Linker(order);
  linker.link();
  for (const file of order) if (!file.prelinked) interpretOptions(file, linker);
  linker.check();
  if (linker.problems.length > 0) throw new CodegenError(linker.problems);

  // As protoc writes descriptor sets: without options of source retention.
  const extensions = new Map<string, FieldDescriptorProto>();
  for (const sym of linker.symbols.values()) {
    const ext = sym.desc as FieldDescriptorProto | undefined;
    if (sym.kind === 'extension' && ext) extensions.set(`${ext.extendee}|${ext.number}`, ext);
  }
  const types = {
    extension: (extendee: string, number: number) => extensions.get(`.${extendee}|${number}`),
    message: (typeName: string) => {
      const sym = linker.symbols.get(typeName.slice(1));
      return sym?.kind === 'message' ? (sym.desc as DescriptorProto) : undefined;
    },
  };
  for (const file of order) {
    if (file.prelinked) continue;
    file.locations = stripSourceRetention(file.proto, file.locations, types);
    if (options.sourceInfo !== false) file.proto.sourceCodeInfo = create(SourceCodeInfoSchema, { location: file.locations });
  }
  const set = create(FileDescriptorSetSchema, { file: order.map((f) => f.proto) });
  let registry: FileRegistry;
  try {
    registry = createFileRegistry(set);
  } catch (cause) {
    throw error(
      `the descriptors could not be registered: ${(cause as Error).message}`,
      undefined,
      'this is a codegen bug; please report it with the .proto files',
    );
  }
  return { set, files: names, registry, displayNames: new Map(order.map((file) => [file.name, file.display])) };
}

/** `a/b.proto`: no `.`/`..`/empty segments, backslashes, leading `/` or drive letter (protoc's rule). */
function isPlainImport(name: string): boolean {
  if (name === '' || name.includes('\\') || name.includes('\0') || /^([/]|[A-Za-z]:)/.test(name)) return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export type { FileDescriptorProto };
