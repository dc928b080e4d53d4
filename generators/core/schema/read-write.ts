/**
 * The read and write variants of named schemas. A property marked `readOnly` is sent by the server
 * only; one marked `writeOnly` is sent by the client only. A named schema that has either (itself
 * or through the schemas it references) gets two TypeScript types and two validators: `Task` for
 * what the server sends (read), `TaskInput` for what a client sends (write).
 */
import { forEachSubschema, refName, type JsonSchema, type NamedSchema } from './json-schema.js';
import { uniqueName } from '../builder/names.js';

export type Direction = 'read' | 'write';

export interface ReadWriteNames {
  /** Type (and validator suffix) for what the server sends. Always the schema's own name. */
  read: string;
  /** Type for what a client sends; equals `read` when the two variants are the same. */
  write: string;
}

/** By schema object: lowered schemas are never mutated, and `codegen --watch` keeps unchanged ones run after run. */
const walked = new WeakMap<object, { marked: boolean; refs: Set<string> }>();

/** Whether `schema` marks anything readOnly or writeOnly, and the names it references. */
function markedAndReferences(schema: JsonSchema): { marked: boolean; refs: Set<string> } {
  const cached = typeof schema === 'object' ? walked.get(schema) : undefined;
  if (cached) return cached;
  const found = { marked: false, refs: new Set<string>() };
  forEachSubschema(schema, (node) => {
    if (typeof node !== 'object') return;
    if (node.readOnly || node.writeOnly) found.marked = true;
    const target = node.$ref ? refName(node.$ref) : undefined;
    if (target) found.refs.add(target);
  });
  if (typeof schema === 'object') walked.set(schema, found);
  return found;
}

/**
 * Decides, for every named schema, whether its read and write variants differ, and names both.
 * `requestSchemas` names the schemas requests use directly (bodies, parameters). Names are unique
 * among all schemas (a `TaskInput` component makes the write variant of `Task` be `TaskInput2`).
 */
export function readWriteNames(schemas: NamedSchema[], requestSchemas?: Iterable<string>): Map<string, ReadWriteNames> {
  const direct = new Map<string, boolean>();
  const references = new Map<string, Set<string>>();
  for (const { name, schema } of schemas) {
    const { marked, refs } = markedAndReferences(schema);
    direct.set(name, marked);
    references.set(name, refs);
  }

  // A schema differs when it or anything it reaches is marked: propagate until nothing changes.
  const differs = new Set([...direct].filter(([, marked]) => marked).map(([name]) => name));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, refs] of references) {
      if (!differs.has(name) && [...refs].some((ref) => differs.has(ref))) {
        differs.add(name);
        changed = true;
      }
    }
  }

  // Only what a client can send needs a write variant: with the request roots known, a schema
  // never reachable from them (a page of results, say) keeps one type.
  if (requestSchemas) {
    const reachable = new Set<string>();
    const visit = (name: string) => {
      if (reachable.has(name) || !references.has(name)) return;
      reachable.add(name);
      references.get(name)?.forEach(visit);
    };
    for (const name of requestSchemas) visit(name);
    for (const name of [...differs]) if (!reachable.has(name)) differs.delete(name);
  }

  const taken = new Set(schemas.map((schema) => schema.name));
  const result = new Map<string, ReadWriteNames>();
  for (const { name } of schemas) {
    const write = differs.has(name) ? uniqueName(`${name}Input`, taken) : name;
    result.set(name, { read: name, write });
  }
  return result;
}
