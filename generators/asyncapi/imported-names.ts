/**
 * The names a generated file of the style prints from types.ts, validators.ts and the runtime:
 * each is imported by the file's builder where it is printed, under an alias when the file
 * declares the name itself. And the runtime's public API an entry file re-exports.
 */
import { runtimeSymbol, symbol, typeSymbol, type FileBuilder } from '../core/builder/file.js';

export interface ImportedNames {
  /** A type of types.ts. */
  type(name: string): string;
  /** A validator of validators.ts. */
  validator(name: string): string;
  /** A runtime export; `module` names the runtime module to import it from when that module re-exports it. */
  runtime(name: string, module?: string): string;
}

export function importedNames(file: FileBuilder): ImportedNames {
  return {
    type: (name) => file.use(typeSymbol(name, './types')),
    validator: (name) => file.use(symbol(name, './validators')),
    runtime: (name, module) => file.use(runtimeSymbol(name, module)),
  };
}
