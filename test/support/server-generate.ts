/**
 * Generates what a user gets for an OpenAPI file with the server enabled: `types.ts`,
 * `validators.js`, `server.ts`, `server-validators.js` (each with its `.d.ts`) and every runtime file they import.
 */
import type { GeneratedFile } from '../../generators/core/pipeline/output.js';
import { generateFiles } from './generate.js';

export function generateServerFiles(input: string): Promise<GeneratedFile[]> {
  return generateFiles(input, ['types', 'validators', 'server']);
}
