/**
 * What the declaration of each named schema is a function of, as a key: the schema and every
 * schema it reaches through `#/$defs/…` (refs, and discriminator mappings, which name their
 * targets the same way), plus `shared`, what every declaration reads (the type names, the
 * reference cycles, the options). The type emitter reads other schemas only along those
 * references, so equal keys mean equal declarations; `codegen --watch` redeclares only the
 * schemas whose key changed (core/pipeline/run-memo.ts).
 *
 * Keys are Merkle hashes over the reference graph's strongly connected components: a component's
 * key is the SHA-256 of its members' JSON digests and of the keys of the components it refers to,
 * so every key costs one hash however far the schema reaches.
 */
import { createHash } from 'node:crypto';
import type { JsonSchema, NamedSchema } from '../../schema/json-schema.js';
import { stronglyConnectedComponents } from './graph.js';

const DEF_REFERENCE = /"#\/\$defs\/([^"\\]+)"/g;

/**
 * A schema's digest and the names it references, by schema object: lowered schemas are never
 * mutated, and under `codegen --watch` an unchanged schema is the same object run after run
 * (core/schema/registry.ts keeps lowerings), so only an edited schema is serialized again.
 */
const digests = new WeakMap<object, { digest: string; references: string[] }>();

function digestOf(schema: JsonSchema): { digest: string; references: string[] } {
  const cached = typeof schema === 'object' ? digests.get(schema) : undefined;
  if (cached) return cached;
  const text = JSON.stringify(schema);
  const references = [...new Set(Array.from(text.matchAll(DEF_REFERENCE), (match) => match[1] as string))].sort();
  const computed = { digest: createHash('sha256').update(text).digest('base64'), references };
  if (typeof schema === 'object') digests.set(schema, computed);
  return computed;
}

export function declarationKeys(schemas: readonly NamedSchema[], shared: string): Map<string, string> {
  const digestByName = new Map<string, string>();
  const references = new Map<string, string[]>();
  for (const { name, schema } of schemas) {
    const { digest, references: targets } = digestOf(schema);
    digestByName.set(name, digest);
    references.set(name, targets);
  }
  const sharedDigest = createHash('sha256').update(shared).digest('base64');
  const keys = new Map<string, string>();
  // Tarjan's algorithm yields each component after every component it reaches: their keys are known.
  for (const members of stronglyConnectedComponents(references)) {
    const hash = createHash('sha256').update(sharedDigest);
    const inside = new Set(members);
    for (const member of members.sort()) {
      hash.update(`\u0000${member}\u0000${digestByName.get(member)}`);
      // A reference outside the component: that component's key, or `-` for a name no schema has.
      for (const target of references.get(member) ?? []) if (!inside.has(target)) hash.update(`\u0000${target}=${keys.get(target) ?? '-'}`);
    }
    const key = hash.digest('base64');
    for (const member of members) keys.set(member, key);
  }
  return keys;
}
