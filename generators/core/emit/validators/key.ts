/**
 * What a validators module is a function of, as text: per named schema, its name, its type names
 * and what it accepts (`structuralKey`: the schema without annotations). Equal texts, equal
 * modules; `codegen --watch` keys the module by it (core/pipeline/run-memo.ts).
 */
import type { NamedSchema } from '../../schema/json-schema.js';
import type { Direction } from '../types/emit.js';
import { structuralKey } from './hoist.js';

export function validatorsKey(
  source: string,
  schemas: readonly NamedSchema[],
  typeName: (name: string, direction: Direction) => string,
): string {
  const lines = [source];
  for (const { name, schema } of schemas)
    lines.push(`${name}\t${typeName(name, 'read')}\t${typeName(name, 'write')}\t${structuralKey(schema)}`);
  return lines.join('\n');
}
