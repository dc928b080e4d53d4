/**
 * Type names one generated module imports from another (e.g. `client.ts` from `types.ts`),
 * renamed with `as` when they would clash with the importing module's own names.
 */
import { stringLiteral, uniqueName } from './names.js';

/** String literals (skipped), then identifiers: the type names inside a type expression. */
const TOKENS = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[A-Za-z_$][\w$]*/g;

export class Imports {
  private readonly taken: Set<string>;
  private readonly local = new Map<string, string>();

  /** @param reserved names the importing module declares itself */
  constructor(reserved: Iterable<string>) {
    this.taken = new Set(reserved);
  }

  /** The local name of `name`, importing it. */
  use(name: string): string {
    let local = this.local.get(name);
    if (!local) {
      local = this.taken.has(name) ? uniqueName(`${name}Type`, this.taken) : name;
      this.taken.add(local);
      this.local.set(name, local);
    }
    return local;
  }

  /** Declares one more name of the importing module, so imports avoid it. */
  reserve(name: string): void {
    this.taken.add(name);
  }

  /** Rewrites the names in a type expression that are in `known` to their local names. */
  rewrite(type: string, known: ReadonlySet<string>): string {
    return type.replace(TOKENS, (token) => (known.has(token) ? this.use(token) : token));
  }

  /** Import specifiers, sorted: `Task`, `Error as ErrorType`. */
  specifiers(): string[] {
    return [...this.local].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, local]) => (name === local ? name : `${name} as ${local}`));
  }
}

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
