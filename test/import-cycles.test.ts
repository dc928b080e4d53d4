/**
 * No import cycles in generators/, bin/ and runtime/: a module that imports back into its importer cannot be
 * read (or moved) on its own. Every edge counts — static, dynamic and type-only imports alike —
 * because a type-only cycle still ties the two modules together for a reader.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifiers } from '../generators/core/pipeline/import-specifiers.js';
import { ROOT } from './support/cli.js';

const FOLDERS = ['generators', 'bin', 'runtime'];

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Each module (a path relative to the root) and the modules of this tree it imports. */
function importGraph(): Map<string, string[]> {
  const files = FOLDERS.flatMap((folder) => typeScriptFiles(join(ROOT, folder)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(readFileSync(file, 'utf8'))
      .filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier }) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target));
    graph.set(
      relative(ROOT, file),
      [...new Set(targets)].map((target) => relative(ROOT, target)),
    );
  }
  return graph;
}

/** The strongly connected components with more than one module, or one importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(next)!));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One concrete path round a component, so the failure names the imports to untie. */
function roundTrip(graph: Map<string, string[]>, component: string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (const node of queue) {
    for (const next of graph.get(node)!) {
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start].join(' -> ');
      }
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return start;
}

describe('import graph of generators/ and bin/', () => {
  it('reads the imports of every module (the graph is not empty)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('bin/cli.ts')!.length).toBeGreaterThan(0);
  });

  it('has no import cycle', () => {
    const graph = importGraph();
    const report = cycles(graph).map((component) => `${component.join(', ')}\n  e.g. ${roundTrip(graph, component)}`);
    expect(report, 'import cycles').toEqual([]);
  });
});
