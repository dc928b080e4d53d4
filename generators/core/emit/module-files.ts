/**
 * The files of one generated module of code nobody edits (validators, route tables, operation
 * constants): `<name>.ts`, or with `language: 'js'` (the
 * `validators` option's default) `<name>.js` and `<name>.d.ts`. A project's `tsc` then reads only
 * the declarations (and skips checking them under `skipLibCheck`) instead of checking every
 * function body; bundlers, Node and `tsc` itself resolve the `./<name>.js` imports alike.
 */
import type { FileBuilder } from '../builder/file.js';
import type { GeneratedFile } from '../pipeline/output.js';
import type { ValidatorCode } from './validators/emit.js';

/** What the module's template prints: its imports and its code. */
export interface ModuleText {
  imports: string;
  code: string;
}

/**
 * @param name the module's path without extension (`validators`, `server-routes`…)
 * @param file the builder the module was printed through (its imports)
 * @param types declarations printed before the validators (`export type ListTasksQuery = …;`), in
 *   the `.ts` and the `.d.ts`
 * @param render the module's template
 */
export function jsModuleFiles(
  name: string,
  file: FileBuilder,
  result: Pick<ValidatorCode, 'code' | 'declarations'>,
  render: (text: ModuleText) => string,
  types = '',
): GeneratedFile[] {
  const typed = (code: string) => (types ? `${types}\n\n${code}` : code);
  if (result.declarations === undefined)
    return [{ path: `${name}.ts`, content: render({ imports: file.imports(), code: typed(result.code) }) }];
  const declarations = typed(result.declarations);
  return [
    { path: `${name}.js`, content: render({ imports: file.valueImports(), code: result.code }) },
    { path: `${name}.d.ts`, content: render({ imports: file.typeImports(declarations), code: declarations }) },
  ];
}
