/**
 * The imports of one generated `_pb.ts` module. A symbol is asked for by its exported name and
 * module; the table answers with the local name, aliased (`Message as Message$1`) when the module
 * itself declares that name, and prints `import` / `import type` lines in a stable order.
 */
import { importStatement } from '../core/builder/imports.js';

interface Imported {
  local: string;
  /** Used as a value somewhere (else the import is type-only). */
  value: boolean;
}

export class ImportTable {
  private readonly modules = new Map<string, Map<string, Imported>>();
  private readonly taken: Set<string>;

  /** @param declared names the module declares itself */
  constructor(declared: Iterable<string>) {
    this.taken = new Set(declared);
  }

  /** The local name of a type-only import. */
  type(name: string, from: string): string {
    return this.add(name, from, false);
  }

  /** The local name of an import used as a value. */
  value(name: string, from: string): string {
    return this.add(name, from, true);
  }

  private add(name: string, from: string, value: boolean): string {
    let symbols = this.modules.get(from);
    if (!symbols) this.modules.set(from, (symbols = new Map()));
    const known = symbols.get(name);
    if (known) {
      known.value ||= value;
      return known.local;
    }
    let local = name;
    for (let i = 1; this.taken.has(local); i++) local = `${name}$${i}`;
    this.taken.add(local);
    symbols.set(name, { local, value });
    return local;
  }

  /** Package imports first, then relative ones, each sorted; values and types on separate lines. */
  print(): string {
    const order = [...this.modules.keys()].sort((a, b) => {
      const relative = Number(a.startsWith('.')) - Number(b.startsWith('.'));
      return relative !== 0 ? relative : a < b ? -1 : a > b ? 1 : 0;
    });
    const lines: string[] = [];
    for (const from of order) {
      const symbols = [...this.modules.get(from)!.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const spec = ([name, { local }]: [string, Imported]) => (name === local ? name : `${name} as ${local}`);
      const values = symbols.filter(([, s]) => s.value).map(spec);
      const types = symbols.filter(([, s]) => !s.value).map(spec);
      if (values.length) lines.push(importStatement(values, from));
      if (types.length) lines.push(importStatement(types, from, true));
    }
    return lines.join('\n');
  }
}
