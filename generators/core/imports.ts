/**
 * Type names one generated module imports from another (e.g. `client.ts` from `types.ts`),
 * renamed with `as` when they would clash with the importing module's own names.
 */
import { uniqueName } from './names.js';

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
