import type { JsonSchema } from '../../../core/schema/json-schema.js';
import { defineRule } from '../../rule.js';
import type { AsyncApiContext } from '../../asyncapi-context.js';

const BOUNDED_FORMATS = new Set(['uuid', 'date-time', 'date', 'time', 'email', 'ipv4', 'ipv6']);

/** What clients send is limited against denial of service (seed §8): strings have maxLength, arrays maxItems. */
export const boundedClientPayloads = defineRule({
  id: 'realtime/bounded-client-payloads',
  style: 'asyncapi',
  severity: 'warning',
  section: '§8',
  docs: 'Strings and arrays in messages clients send have maxLength / maxItems.',
  check(context) {
    for (const channel of context.model.channels) {
      for (const message of channel.messages) {
        if (!message.actions.includes('receive')) continue;
        const unbounded = unboundedPaths(context, { $ref: `#/$defs/${message.payload}` }, '', new Set());
        if (unbounded.length === 0) continue;
        const list = unbounded
          .slice(0, 3)
          .map(({ path, kind }) => `${path || '(the payload)'} (${kind === 'string' ? 'maxLength' : 'maxItems'})`)
          .join(', ');
        context.report(
          message.location,
          `message ${message.name} that clients send on ${channel.key} has unbounded ${list}${unbounded.length > 3 ? ` and ${unbounded.length - 3} more` : ''}; message sizes are limited against denial of service (§8): give every string a maxLength and every array a maxItems`,
          ['channels', channel.key, 'messages', message.key],
        );
      }
    }
  },
});

function unboundedPaths(
  context: AsyncApiContext,
  value: JsonSchema | undefined,
  path: string,
  seen: Set<string>,
): { path: string; kind: 'string' | 'array' }[] {
  if (typeof value === 'object' && value.$ref?.startsWith('#/$defs/')) {
    if (seen.has(value.$ref)) return [];
    seen.add(value.$ref);
  }
  const schema = context.schema(value);
  if (typeof schema !== 'object') return [];
  const out: { path: string; kind: 'string' | 'array' }[] = [];
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const fixed = schema.const !== undefined || schema.enum !== undefined;
  if (types.includes('string') && !fixed && schema.maxLength === undefined && !BOUNDED_FORMATS.has(schema.format ?? ''))
    out.push({ path, kind: 'string' });
  if (types.includes('array') && schema.maxItems === undefined) out.push({ path, kind: 'array' });
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    out.push(...unboundedPaths(context, property, `${path}/${name}`, seen));
  if (typeof schema.items === 'object') out.push(...unboundedPaths(context, schema.items as JsonSchema, `${path}/items`, seen));
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])])
    out.push(...unboundedPaths(context, part, path, seen));
  return out;
}
