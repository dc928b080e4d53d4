/**
 * What the declaration of each named schema is a function of, as a key: the schema and every
 * schema it reaches through `#/$defs/…` (refs, and discriminator mappings, which name their
 * targets the same way), each by a SHA-256 of its JSON, plus `shared`, what every declaration
 * reads (the type names, the reference cycles, the options). The type emitter reads other schemas
 * only along those references, so equal keys mean equal declarations; `codegen --watch` redeclares
 * only the schemas whose key changed (core/pipeline/run-memo.ts).
 */
import { createHash } from 'node:crypto';
import type { NamedSchema } from '../../schema/json-schema.js';

const DEF_REFERENCE = /"#\/\$defs\/([^"\\]+)"/g;

export function declarationKeys(schemas: readonly NamedSchema[], shared: string): Map<string, string> {
  const digest = new Map<string, string>();
  const references = new Map<string, string[]>();
  for (const { name, schema } of schemas) {
    const json = JSON.stringify(schema);
    digest.set(name, createHash('sha256').update(json).digest('base64'));
    references.set(name, [...new Set(Array.from(json.matchAll(DEF_REFERENCE), (match) => match[1] as string))]);
  }
  const sharedDigest = createHash('sha256').update(shared).digest('base64');
  const keys = new Map<string, string>();
  for (const { name } of schemas) {
    const reached = new Set([name]);
    const pending = [name];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      for (const target of references.get(next) ?? []) {
        if (!reached.has(target)) {
          reached.add(target);
          pending.push(target);
        }
      }
    }
    keys.set(
      name,
      `${sharedDigest} ${[...reached]
        .sort()
        .map((reachedName) => `${reachedName}=${digest.get(reachedName) ?? '-'}`)
        .join(' ')}`,
    );
  }
  return keys;
}
