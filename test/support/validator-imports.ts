/**
 * The import lines of a validator module that a test (or a benchmark) writes beside its own copy
 * of the types and imports the runtime from where it lives: generated outputs get theirs from the
 * FileBuilder they are printed into (ValidatorFileOptions.file).
 */
import type { ValidatorCode } from '../../generators/core/emit/validators/emit.js';

export function validatorImports(result: ValidatorCode, from: { types: string; runtime: string }): string {
  const lines: string[] = [];
  if (result.typeImports.length) lines.push(`import type { ${result.typeImports.join(', ')} } from ${JSON.stringify(from.types)};`);
  lines.push(`import { ${result.runtimeImports.join(', ')} } from ${JSON.stringify(from.runtime)};`);
  return `${lines.join('\n')}\n`;
}
