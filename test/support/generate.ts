/**
 * What `codegen` generates for an OpenAPI file, in memory, through the same pipeline the CLI
 * runs (config → style generator → files), for tests that compile and import the output.
 */
import { isAbsolute, join } from 'node:path';
import type { EmitKind } from '../../generators/core/config/config.js';
import { generate } from '../../generators/core/pipeline/generate.js';
import type { GeneratedFile } from '../../generators/core/pipeline/output.js';
import { ROOT } from './cli.js';

export async function generateFiles(input: string, emit: EmitKind[], options: Record<string, unknown> = {}): Promise<GeneratedFile[]> {
  const [{ files }] = await generate([
    {
      name: 'test',
      inputs: [isAbsolute(input) ? input : join(ROOT, input)],
      style: 'openapi',
      documents: [],
      output: join(ROOT, '.vitest-tmp', 'unused'),
      emit,
      options,
      root: ROOT,
    },
  ]);
  return files;
}

/** What `codegen` generates for a GraphQL schema (and operation documents), through the real pipeline. */
export async function generateGraphQLFiles(
  schema: string | string[],
  documents: string[],
  emit: EmitKind[],
  options: Record<string, unknown> = {},
): Promise<GeneratedFile[]> {
  const absolute = (path: string) => (isAbsolute(path) ? path : join(ROOT, path));
  const [{ files }] = await generate([
    {
      name: 'test',
      inputs: [schema].flat().map(absolute),
      documents: documents.map(absolute),
      style: 'graphql',
      output: join(ROOT, '.vitest-tmp', 'unused'),
      emit,
      options,
      root: ROOT,
    },
  ]);
  return files;
}
