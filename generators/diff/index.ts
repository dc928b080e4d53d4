/**
 * `codegen diff <old> <new>`: decides the style of the two inputs (files, or folders of files of one
 * style) and hands them to the style's diff. `git:REF` sides are materialised by git-inputs.ts.
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import type { InputStyle } from '../core/config/input-style.js';
import { styleOfInput } from '../core/config/detect.js';
import { UsageError } from '../core/diagnostics.js';
import { displayPath } from '../core/pipeline/paths.js';
import type { DiffResult } from './changes.js';
import { diffAsyncApi } from './asyncapi.js';
import { diffGraphQL } from './graphql.js';
import { diffOpenApi } from './openapi.js';
import { diffProto } from './proto.js';

export interface DiffSide {
  /** Input files (absolute). */
  files: string[];
  /** proto: `-I` folders; default each file's folder. */
  includePaths?: string[];
  /** Folder paths are shown from; default the working directory. */
  displayRoot?: string;
  /** Folders `$ref`s and imports may read; default each input's folder. */
  readRoots?: string[];
}

/** A file, or a folder's `.proto`/`.graphql` files (sorted, not recursive into hidden folders). */
export function sideOf(path: string): DiffSide {
  const absolute = resolve(path);
  let stat;
  try {
    stat = statSync(absolute);
  } catch {
    throw new UsageError(`${displayPath(absolute)} does not exist; give two files (or folders) of one schema: codegen diff <old> <new>`);
  }
  if (!stat.isDirectory()) return { files: [absolute] };
  const files = listSchemaFiles(absolute);
  if (files.length === 0)
    throw new UsageError(
      `${displayPath(absolute)} holds no .proto or .graphql file; give a schema file or a folder of .proto/.graphql files`,
    );
  return { files, includePaths: [absolute] };
}

function listSchemaFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && ['.proto', '.graphql', '.graphqls', '.gql'].includes(extname(entry.name).toLowerCase())) out.push(full);
    }
  };
  walk(folder);
  return out;
}

export function styleOf(side: DiffSide): InputStyle | undefined {
  const styles = new Set(side.files.map((file) => styleOfInput(file)));
  return styles.size === 1 ? [...styles][0] : undefined;
}

export async function diffSides(before: DiffSide, after: DiffSide, style?: InputStyle): Promise<DiffResult> {
  const roots = {
    old: before.displayRoot ?? process.cwd(),
    new: after.displayRoot ?? process.cwd(),
    oldRead: before.readRoots,
    newRead: after.readRoots,
  };
  const oldStyle = style ?? styleOf(before);
  const newStyle = style ?? styleOf(after);
  if (!oldStyle || !newStyle)
    throw new UsageError(
      `cannot tell the schema style of ${(oldStyle ? after : before).files.map((f) => displayPath(f)).join(', ')}; give OpenAPI/AsyncAPI (.yaml/.json), GraphQL (.graphql) or .proto files`,
    );
  if (oldStyle !== newStyle)
    throw new UsageError(
      `the two sides are of different styles (${oldStyle} and ${newStyle}); codegen diff compares two versions of one API`,
    );
  const one = (side: DiffSide, what: string) => {
    if (side.files.length !== 1) throw new UsageError(`${oldStyle} is compared one root file per side; ${what} has ${side.files.length}`);
    return side.files[0]!;
  };
  switch (oldStyle) {
    case 'openapi':
      return diffOpenApi(one(before, 'old'), one(after, 'new'), roots);
    case 'asyncapi':
      return diffAsyncApi(one(before, 'old'), one(after, 'new'), roots);
    case 'graphql':
      return diffGraphQL(before.files, after.files, roots);
    case 'proto':
      return diffProto(before.files, after.files, { oldIncludePaths: before.includePaths, newIncludePaths: after.includePaths, roots });
  }
}
