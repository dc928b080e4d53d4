/**
 * Generates what a user gets for an OpenAPI file with the server enabled: `types.ts`,
 * `validators.ts`, `server.ts`, `server-validators.ts` and every runtime file they import.
 */
import type { GeneratedFile } from '../../generators/core/pipeline/output.js';
import { generateFiles } from './generate.js';

export function generateServerFiles(input: string): Promise<GeneratedFile[]> {
  return generateFiles(input, ['types', 'validators', 'server']);
}
