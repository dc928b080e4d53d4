/**
 * One generated file's code and its imports, in the spirit of protoplugin's `GeneratedFile`: code is
 * printed with the `code` tagged template, and a symbol (a runtime export, a type of another generated
 * file, a package's export) imports itself where it is printed, under an alias when its name is
 * taken. The file's import and re-export blocks are derived from what was printed, so no generator
 * writes an import list by hand. Escaping stays in one place: `names.ts` (`literal`, `jsDoc` here).
 */
import { posix } from 'node:path';
import { publicRuntimeExports, runtimeExport } from '../pipeline/runtime-modules.js';
import { exportStatement, importStatement } from './imports.js';
import { jsonLiteral, uniqueName } from './names.js';

/** An export of another module, printed by its local name in the file that uses it. */
export interface ImportSymbol {
  readonly kind: 'symbol';
  /** The exported name. */
  readonly name: string;
  /**
   * The module: a package (`node:http`, `@bufbuild/protobuf`), or a generated module by its path in
   * the output folder, starting with `./` and without extension (`./types`, `./runtime/http`,
   * `./gen/tasks/v1/tasks_pb`), whichever folder the importing file is in.
   */
  readonly from: string;
  /** Only a type: imported with `import type`. */
  readonly type: boolean;
  /**
   * `from` is an import specifier printed as written (a user's module, e.g. a GraphQL mapper's
   * `../src/db.js`), not a module of the output folder. Relative ones sort with generated modules.
   */
  readonly verbatim?: boolean;
}

/** A symbol exported by `from` (a package, or `./`-prefixed output-relative module path). */
export function symbol(name: string, from: string, options: { type?: boolean; verbatim?: boolean } = {}): ImportSymbol {
  return { kind: 'symbol', name, from, type: options.type ?? false, ...(options.verbatim ? { verbatim: true } : {}) };
}

/** A type exported by `from`. */
export function typeSymbol(name: string, from: string): ImportSymbol {
  return symbol(name, from, { type: true });
}

/**
 * An export of codegen's runtime by name: its module and whether it is a type come from the runtime
 * files themselves (core/pipeline/runtime-modules.ts), so a generator names only the export.
 */
export function runtimeSymbol(name: string, module?: string): ImportSymbol {
  const found = runtimeExport(name, module);
  return symbol(name, `./runtime/${found.module}`, { type: found.export.type });
}

/**
 * The exports of runtime module `module` tagged `@public` in its JSDoc, as symbols: what a generated
 * entry file re-exports (`file.reexport(...publicRuntimeSymbols('client-common'))`), read from the
 * module itself through the runtime manifest instead of a list in the generator.
 */
export function publicRuntimeSymbols(module: string): ImportSymbol[] {
  return publicRuntimeExports(module).map((exported) => symbol(exported.name, `./runtime/${module}`, { type: exported.type }));
}

/** A literal value printed escaped: strings quoted, objects and arrays as JSON-like literals. */
export interface Literal {
  readonly kind: 'literal';
  readonly value: unknown;
}

export function literal(value: unknown): Literal {
  return { kind: 'literal', value };
}

/** What `code` accepts: code text, numbers, symbols, literals and lists of them; nullish and `false` print nothing. */
export type Printable = string | number | ImportSymbol | Literal | readonly Printable[] | undefined | null | false;

const TOKENS = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[A-Za-z_$][\w$]*/g;

export class FileBuilder {
  private readonly taken: Set<string>;
  /** `from#name` → local name. */
  private readonly locals = new Map<string, string>();
  private readonly imported = new Map<string, ImportSymbol>();
  private readonly exported = new Map<string, ImportSymbol>();

  /**
   * @param path the file's path in the output folder (`client.ts`, `gen/a/v1/a_pb.ts`)
   * @param reserved names the file declares itself, which imports must not shadow
   * @param options.alias the local name of a symbol whose own name is taken (default: `TaskType`,
   *   `TaskValue`, then numbered); protobuf-es's files use its own `Message$1`
   */
  constructor(
    readonly path: string,
    reserved: Iterable<string> = [],
    private readonly options: { alias?: (symbol: ImportSymbol, taken: ReadonlySet<string>) => string } = {},
  ) {
    this.taken = new Set(reserved);
  }

  /** Declares names of the file itself, so imports avoid them. */
  reserve(...names: string[]): void {
    for (const name of names) this.taken.add(name);
  }

  /** Every name the file binds so far: its own (reserved) and the local names of its imports. */
  names(): ReadonlySet<string> {
    return this.taken;
  }

  /**
   * The local name of `symbol` in this file, importing it; aliased (`TaskType`, `Task2`) when taken.
   * `as` imports it under a name the caller already chose (a user's alias, or a name decided with
   * the file's own names), used as it is.
   */
  use(symbol: ImportSymbol, as?: string): string {
    const key = `${symbol.from}#${symbol.name}`;
    let local = this.locals.get(key);
    if (local !== undefined && as !== undefined && as !== local)
      throw new Error(`${symbol.name} of ${symbol.from} is imported as ${local}, not ${as}`);
    if (local === undefined) {
      local = as ?? (this.taken.has(symbol.name) || this.reexportsOther(symbol) ? this.alias(symbol) : symbol.name);
      this.taken.add(local);
      this.locals.set(key, local);
      this.imported.set(key, symbol);
    } else if (!symbol.type) {
      // A symbol first used as a type and later as a value is imported as a value.
      const known = this.imported.get(key)!;
      if (known.type) this.imported.set(key, symbol);
    }
    return local;
  }

  /**
   * Whether the file re-exports another module's export under `symbol`'s name: importing it under
   * that name too would be legal, but a reader would take one for the other.
   */
  private reexportsOther(symbol: ImportSymbol): boolean {
    for (const exported of this.exported.values()) if (exported.name === symbol.name && exported.from !== symbol.from) return true;
    return false;
  }

  private alias(symbol: ImportSymbol): string {
    if (this.options.alias) return this.options.alias(symbol, this.taken);
    return uniqueName(`${symbol.name}${symbol.type ? 'Type' : 'Value'}`, this.taken);
  }

  /** Rewrites the names in `text` (a type expression from the type emitter) that `known` maps to symbols, importing them. */
  rewrite(text: string, known: ReadonlyMap<string, ImportSymbol>): string {
    return text.replace(TOKENS, (token) => {
      const found = known.get(token);
      return found ? this.use(found) : token;
    });
  }

  /** Re-exports symbols from this file (`export { … } from "…"`), under their own names. */
  reexport(...symbols: ImportSymbol[]): void {
    for (const symbol of symbols) {
      const key = `${symbol.from}#${symbol.name}`;
      const known = this.exported.get(key);
      if (!known || (known.type && !symbol.type)) this.exported.set(key, symbol);
    }
  }

  /**
   * Re-exports the public API (the `@public` exports) of the runtime `modules`, each name once: from
   * the first module that has it (`server` before `server-types`, whose `HttpProblem` it
   * re-exports). Returns the symbols re-exported.
   */
  reexportRuntime(...modules: string[]): ImportSymbol[] {
    const names = new Set([...this.exported.values()].map((exported) => exported.name));
    const added: ImportSymbol[] = [];
    for (const module of modules) {
      for (const exported of publicRuntimeSymbols(module)) {
        if (names.has(exported.name)) continue;
        names.add(exported.name);
        added.push(exported);
      }
    }
    this.reexport(...added);
    return added;
  }

  /** Prints code: symbols become their local names, literals are escaped, lists are joined. */
  code(strings: TemplateStringsArray, ...values: Printable[]): string {
    let text = strings[0]!;
    values.forEach((value, index) => {
      text += this.print(value) + strings[index + 1]!;
    });
    return text;
  }

  /** One printable value as code. */
  print(value: Printable): string {
    if (value === undefined || value === null || value === false) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return String(value);
    if (Array.isArray(value)) return value.map((item) => this.print(item)).join('');
    const item = value as ImportSymbol | Literal;
    return item.kind === 'symbol' ? this.use(item) : jsonLiteral(item.value);
  }

  /** The import statements: packages first, then generated modules; sorted by module, then by name ignoring case. */
  imports(): string {
    return this.statements(this.imported, true, (from, verbatim) => this.specifier(from, verbatim));
  }

  /** The imports of values only, for the JavaScript form of the file (`validators: js`). */
  valueImports(): string {
    return this.statements(
      this.only((symbol) => !symbol.type),
      true,
      (from, verbatim) => this.specifier(from, verbatim),
    );
  }

  /** The imports of types that `declarations` (the `.d.ts` form of the file) names. */
  typeImports(declarations: string): string {
    const named = new Set(declarations.match(TOKENS));
    const used = this.only((symbol) => symbol.type === true && named.has(this.locals.get(`${symbol.from}#${symbol.name}`)!));
    return this.statements(used, true, (from, verbatim) => this.specifier(from, verbatim));
  }

  private only(keep: (symbol: ImportSymbol) => boolean): Map<string, ImportSymbol> {
    return new Map([...this.imported].filter(([, symbol]) => keep(symbol)));
  }

  /** The re-export statements, ordered like the imports. */
  exports(): string {
    return this.statements(this.exported, false, (from, verbatim) => this.specifier(from, verbatim));
  }

  /** How this file names module `from`: a package as is, a generated module relative to this file, with `.js`. */
  specifier(from: string, verbatim = false): string {
    if (verbatim || !isGenerated(from)) return from;
    const relative = posix.relative(posix.dirname(this.path), from.slice(2));
    return `${relative.startsWith('.') ? '' : './'}${relative}.js`;
  }

  private statements(
    symbols: ReadonlyMap<string, ImportSymbol>,
    imports: boolean,
    specifier: (from: string, verbatim: boolean) => string,
  ): string {
    const byModule = new Map<string, ImportSymbol[]>();
    for (const symbol of symbols.values()) byModule.set(symbol.from, [...(byModule.get(symbol.from) ?? []), symbol]);
    const modules = [...byModule.keys()].sort(compareModules);
    return modules
      .map((from) => {
        const verbatim = byModule.get(from)!.some((symbol) => symbol.verbatim);
        const list = byModule.get(from)!.sort((a, b) => compare(a.name.toLowerCase(), b.name.toLowerCase()) || compare(a.name, b.name));
        const typeOnly = list.every((symbol) => symbol.type);
        const names = list.map((symbol) => {
          const local = imports ? this.locals.get(`${symbol.from}#${symbol.name}`)! : symbol.name;
          const named = local === symbol.name ? symbol.name : `${symbol.name} as ${local}`;
          return symbol.type && !typeOnly ? `type ${named}` : named;
        });
        return imports
          ? importStatement(names, specifier(from, verbatim), typeOnly)
          : exportStatement(names, specifier(from, verbatim), typeOnly);
      })
      .join('\n');
  }
}

/** Generated modules are named by their `./` path in the output folder; anything else is a package. */
function isGenerated(from: string): boolean {
  return from.startsWith('./');
}

/** Packages first, then modules named by a relative path (generated ones, and verbatim relative specifiers). */
function compareModules(a: string, b: string): number {
  const generated = Number(a.startsWith('.')) - Number(b.startsWith('.'));
  return generated !== 0 ? generated : compare(a, b);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
