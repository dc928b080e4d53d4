/**
 * What `codegen` generates for an AsyncAPI manifest, through the real pipeline (config → style
 * generator → files), written to a folder for tests that type-check, transpile and import it.
 */
import { isAbsolute, join } from 'node:path';
import type { EmitKind } from '../../generators/core/config/config.js';
import { generate } from '../../generators/core/pipeline/generate.js';
import type { GeneratedFile } from '../../generators/core/pipeline/output.js';
import { ROOT } from './cli.js';

export const REALTIME_MANIFEST = join(ROOT, 'schemas', 'asyncapi', 'tasks.asyncapi.yaml');
export const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'asyncapi');

/** The files of `input` (and the handler scaffold when `handlers` is given, as `userFiles`). */
export async function generateRealtime(
  input: string,
  emit: EmitKind[] = ['types', 'validators', 'client', 'server'],
  handlers?: { file: string; output: string },
): Promise<{ files: GeneratedFile[]; userFiles: { file: string; content: string }[] }> {
  const [{ files, userFiles }] = await generate([
    {
      name: 'test',
      inputs: [isAbsolute(input) ? input : join(ROOT, input)],
      documents: [],
      style: 'asyncapi',
      output: handlers?.output ?? join(ROOT, '.vitest-tmp', 'unused'),
      emit,
      options: {},
      root: ROOT,
      ...(handlers ? { handlers: handlers.file } : {}),
    },
  ]);
  return { files, userFiles: userFiles ?? [] };
}

/** Server side (server.ts and what it imports) and client side (client.ts and what it imports). */
export const SERVER_FILES = ['server.ts'];
export const CLIENT_FILES = ['client.ts'];
