/**
 * How an import or re-export statement is written, one way for every generated file (the file
 * builder, core/builder/file.ts, decides what each file imports).
 */
import { stringLiteral } from './names.js';

/** Longest import or export statement kept on one line; longer ones list one name per line. */
const MAX_STATEMENT_LINE = 100;

/**
 * `import { a, type B } from "module";`, or `import type { ... }`, on one line when it fits and
 * one name per line when it does not — as a formatter would write it. `names` are written as given.
 */
export function importStatement(names: readonly string[], from: string, typeOnly = false): string {
  return listStatement(typeOnly ? 'import type' : 'import', names, from);
}

/** `export { a, type B } from "module";` (a re-export), formatted like `importStatement`. */
export function exportStatement(names: readonly string[], from: string, typeOnly = false): string {
  return listStatement(typeOnly ? 'export type' : 'export', names, from);
}

function listStatement(head: string, names: readonly string[], from: string): string {
  const module = stringLiteral(from);
  const line = `${head} { ${names.join(', ')} } from ${module};`;
  if (line.length <= MAX_STATEMENT_LINE) return line;
  return `${head} {\n${names.map((name) => `  ${name},`).join('\n')}\n} from ${module};`;
}
