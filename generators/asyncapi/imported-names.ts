/**
 * The names a generated file of the style prints from types.ts, validators.ts and the runtime:
 * each is imported by the file's builder where it is printed, under an alias when the file
 * declares the name itself. And the runtime's public API an entry file re-exports.
 */
import { publicRuntimeSymbols, runtimeSymbol, symbol, typeSymbol, type FileBuilder } from '../core/builder/file.js';

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

/**
 * Re-exports from `file` the public API (the `@public` exports) of the runtime `modules`, each name
 * once: from the first module that has it (`redis-pubsub` before `sse-redis`, which re-exports its
 * `RedisUnavailableError`).
 */
export function reexportPublic(file: FileBuilder, modules: string[]): void {
  const names = new Set<string>();
  for (const module of modules) {
    const fresh = publicRuntimeSymbols(module).filter((exported) => !names.has(exported.name));
    for (const exported of fresh) names.add(exported.name);
    file.reexport(...fresh);
  }
}
