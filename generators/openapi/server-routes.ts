/**
 * The static router of a generated server: the path templates of every operation as a tree of
 * segments, written out as an object literal (`routes` in server.ts). A request walks it one
 * segment at a time, so no request ever tests a list of regular expressions.
 */
import type { HttpMethod } from './model.js';
import { objectKey, stringLiteral } from '../core/builder/names.js';

export interface RouteOperation {
  method: HttpMethod;
  path: string;
  /** Expression of the operation's spec, e.g. `operations.getTask`. */
  spec: string;
}

interface Node {
  path?: string;
  names?: string[];
  methods: Map<string, string>;
  children: Map<string, Node>;
  patterns: Array<{ source: string; node: Node }>;
  param?: Node;
}

const PARAM = /^\{([^{}]+)\}$/;

function node(): Node {
  return { methods: new Map(), children: new Map(), patterns: [] };
}

/** The segments of a template: `/projects/{id}/` → `projects`, `{id}`. */
function segments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** Literal text of a template segment as requests carry it decoded (`a%20b` → `a b`). */
function literal(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `{name}.{ext}` → `^(.+)\.(.+)$`: earlier parameters take the most (`a.b.md` is `a.b` + `md`). */
function segmentPattern(segment: string): string {
  const parts = segment.split(/(\{[^{}]+\})/).filter((part) => part !== '');
  const body = parts.map((part) => (PARAM.test(part) ? '(.+)' : literal(part).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('');
  return `^${body}$`;
}

/** Builds the tree of `operations` (model order: sorted by path, then method). */
export function routeTree(operations: RouteOperation[]): Node {
  const root = node();
  for (const operation of operations) {
    let at = root;
    const names: string[] = [];
    for (const segment of segments(operation.path)) {
      const param = PARAM.exec(segment);
      if (param) {
        names.push(param[1]);
        at = at.param ??= node();
      } else if (segment.includes('{')) {
        for (const match of segment.matchAll(/\{([^{}]+)\}/g)) names.push(match[1]);
        const source = segmentPattern(segment);
        let entry = at.patterns.find((pattern) => pattern.source === source);
        if (!entry) at.patterns.push((entry = { source, node: node() }));
        at = entry.node;
      } else {
        const text = literal(segment);
        let child = at.children.get(text);
        if (!child) at.children.set(text, (child = node()));
        at = child;
      }
    }
    at.path ??= operation.path;
    at.names ??= names;
    at.methods.set(operation.method.toUpperCase(), operation.spec);
  }
  return root;
}

/** The tree as a TypeScript object literal, indented by `indent`. */
export function routeLiteral(tree: Node, indent = ''): string {
  const inner = `${indent}  `;
  const lines: string[] = [];
  if (tree.path !== undefined) {
    lines.push(`${inner}path: ${stringLiteral(tree.path)},`);
    if (tree.names?.length) lines.push(`${inner}names: [${tree.names.map(stringLiteral).join(', ')}],`);
    const methods = [...tree.methods].map(([method, spec]) => `${method}: ${spec}`).join(', ');
    lines.push(`${inner}methods: { ${methods} },`);
  }
  if (tree.children.size) {
    const children = [...tree.children].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    lines.push(`${inner}children: {`);
    for (const [segment, child] of children) lines.push(`${inner}  ${objectKey(segment)}: ${routeLiteral(child, `${inner}  `)},`);
    lines.push(`${inner}},`);
  }
  if (tree.patterns.length) {
    lines.push(`${inner}patterns: [`);
    for (const pattern of tree.patterns) {
      lines.push(
        `${inner}  { match: new RegExp(${stringLiteral(pattern.source)}, "u"), node: ${routeLiteral(pattern.node, `${inner}  `)} },`,
      );
    }
    lines.push(`${inner}],`);
  }
  if (tree.param) lines.push(`${inner}param: ${routeLiteral(tree.param, inner)},`);
  if (lines.length === 0) return '{}';
  return `{\n${lines.join('\n')}\n${indent}}`;
}
