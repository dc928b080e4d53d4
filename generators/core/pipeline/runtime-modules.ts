/**
 * What each runtime module (`runtime/<name>.ts`) exports and imports, from `runtime/manifest.json`:
 * the manifest is written from the modules themselves with the TypeScript compiler
 * (test/support/runtime-manifest.ts) and a test fails when it is stale, so nothing here is a list
 * kept by hand, and generation never loads the compiler. It describes the built-in modules; a
 * user's override of one (TemplateRenderer.runtime) is read by whoever writes it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_RUNTIME } from './package-folders.js';

export interface RuntimeExport {
  name: string;
  /** declared as a type/interface (or `export type`) */
  type: boolean;
  /** first JSDoc paragraph, if any */
  doc?: string;
  /** For a re-export: the runtime module that declares it, or the package it comes from. */
  from?: string;
  /** Tagged `@public` in its JSDoc: part of the API the generated entry files re-export. */
  public?: boolean;
}

export interface RuntimeModule {
  /** 'http' for runtime/http.ts */
  name: string;
  exports: RuntimeExport[];
  /** runtime modules it imports, by name */
  imports: string[];
  /** npm packages / node: modules it imports */
  packages: string[];
}

/** `runtime/manifest.json` as committed. */
export interface RuntimeManifest {
  modules: Record<string, Omit<RuntimeModule, 'name'>>;
}

/** `runtime/manifest.json`, beside the modules it describes (and shipped with them). */
export const RUNTIME_MANIFEST = join(BUILTIN_RUNTIME, 'manifest.json');

let modules: ReadonlyMap<string, RuntimeModule> | undefined;

/** Every module of runtime/, by name. */
export function runtimeModules(): ReadonlyMap<string, RuntimeModule> {
  if (!modules) {
    const manifest = JSON.parse(readFileSync(RUNTIME_MANIFEST, 'utf8')) as RuntimeManifest;
    modules = new Map(Object.entries(manifest.modules).map(([name, module]) => [name, { name, ...module }]));
  }
  return modules;
}

/**
 * The module that declares export `name`, or `module`'s export `name` (which may be a re-export).
 * Throws when no module, or several, declare it and `module` is not given.
 */
export function runtimeExport(name: string, module?: string): { module: string; export: RuntimeExport } {
  if (module !== undefined) {
    const found = runtimeModule(module).exports.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`runtime/${module}.ts has no export named ${name}`);
    return { module, export: found };
  }
  const declaring = [...runtimeModules().values()].flatMap((candidate) => {
    const found = candidate.exports.find((exported) => exported.name === name && exported.from === undefined);
    return found ? [{ module: candidate.name, export: found }] : [];
  });
  if (declaring.length === 1) return declaring[0]!;
  if (declaring.length === 0) throw new Error(`no runtime module declares an export named ${name}`);
  throw new Error(`runtime modules ${declaring.map((found) => found.module).join(', ')} all declare ${name}: name the module`);
}

/** `names` and every runtime module they import, transitively; sorted. */
export function runtimeClosure(names: Iterable<string>): string[] {
  const found = new Set<string>();
  const pending = [...names];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (found.has(name)) continue;
    found.add(name);
    pending.push(...runtimeModule(name).imports);
  }
  return [...found].sort();
}

function runtimeModule(name: string): RuntimeModule {
  const module = runtimeModules().get(name);
  if (!module) throw new Error(`no runtime module named runtime/${name}.ts`);
  return module;
}

/** The exports of runtime module `module` tagged `@public`: what a generated entry file that uses it re-exports. */
export function publicRuntimeExports(module: string): RuntimeExport[] {
  return runtimeModule(module).exports.filter((exported) => exported.public === true);
}
