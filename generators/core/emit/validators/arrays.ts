/**
 * Array keywords: minItems/maxItems, prefixItems, items (2020-12: the items after the prefix),
 * uniqueItems, and contains with minContains/maxContains.
 */
import type { SchemaObject } from '../../schema/json-schema.js';
import { Body, bounded, check, child, fail, references, type Bound, type Scope } from './code.js';
import { trivial } from './scalars.js';
import type { Emitter } from './emitter.js';

function items(count: number): string {
  return `${count} item${count === 1 ? '' : 's'}`;
}

/**
 * The item count first: `items`, `uniqueItems` and `contains` only run on an array within
 * `minItems`/`maxItems` (a 60,000-item body against `maxItems: 20` costs one comparison).
 */
export function emitArrayKeywords(e: Emitter, schema: SchemaObject, s: Scope, body: Body, array: string): void {
  const bounds: Bound[] = [];
  if (typeof schema.minItems === 'number' && schema.minItems > 0) {
    bounds.push({
      failed: `${array}.length < ${schema.minItems}`,
      keyword: 'minItems',
      message: `must have at least ${items(schema.minItems)}`,
    });
  }
  if (typeof schema.maxItems === 'number') {
    bounds.push({
      failed: `${array}.length > ${schema.maxItems}`,
      keyword: 'maxItems',
      message: `must have at most ${items(schema.maxItems)}`,
    });
  }
  bounded(s, body, bounds, (inner) => emitItems(e, schema, s, inner, array));
}

function emitItems(e: Emitter, schema: SchemaObject, s: Scope, body: Body, array: string): void {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  prefix.forEach((sub, index) => {
    if (trivial(sub)) return;
    const value = body.local('v');
    const inner = body.fork();
    e.emit(sub, child(s, value, { text: String(index) }, 'prefixItems', String(index)), inner);
    if (inner.empty) return;
    body.if(`${array}.length > ${index}`, (then) => {
      if (references(inner.text, value)) then.line(`const ${value} = ${array}[${index}];`);
      then.append(inner);
    });
  });

  const rest = schema.items;
  if (rest !== undefined && !Array.isArray(rest) && !trivial(rest)) {
    const start = prefix.length;
    if (rest === false) {
      const message = start ? `must have at most ${items(start)}` : 'must be empty';
      check(s, body, `${array}.length > ${start}`, 'items', message, [{ text: String(start) }]);
    } else {
      const index = body.local('i');
      const value = body.local('v');
      body.loop(`for (let ${index} = ${start}; ${index} < ${array}.length; ${index}++)`, (inner) => {
        e.emit(rest, child(s, value, { expr: index }, 'items'), inner);
        return references(inner.text, value) ? [`const ${value} = ${array}[${index}];`] : [];
      });
    }
  }

  if (schema.uniqueItems === true) {
    const duplicate = body.local('d');
    body.line(`const ${duplicate} = duplicateIndex(${array});`);
    check(s, body, `${duplicate} !== -1`, 'uniqueItems', 'must not repeat an earlier item', [{ expr: duplicate }]);
  }

  emitContains(e, schema, s, body, array);
}

function emitContains(e: Emitter, schema: SchemaObject, s: Scope, body: Body, array: string): void {
  if (schema.contains === undefined) return;
  const min = typeof schema.minContains === 'number' ? schema.minContains : 1;
  const max = typeof schema.maxContains === 'number' ? schema.maxContains : undefined;
  if (min <= 0 && max === undefined) return;
  const index = body.local('i');
  const value = body.local('v');
  const matches = e.test(schema.contains, child(s, value, { expr: index }, 'contains'));
  let counted: string;
  if (matches === 'false') {
    if (min > 0) fail(s, body, 'contains', 'must contain an item matching "contains", which matches nothing');
    return;
  }
  if (matches === 'true') {
    counted = `${array}.length`;
  } else {
    counted = body.local('c');
    // Stop counting once the answer is known.
    const stop = max === undefined ? `++${counted} >= ${min}` : `++${counted} > ${max}`;
    body.line(`let ${counted} = 0;`);
    body.block(`for (let ${index} = 0; ${index} < ${array}.length; ${index}++)`, (loop) => {
      loop.line(`const ${value} = ${array}[${index}];`);
      loop.line(`if (${matches} && ${stop}) break;`);
    });
  }
  if (min > 0) {
    const message = min === 1 ? 'must contain an item matching "contains"' : `must contain at least ${items(min)} matching "contains"`;
    check(s, body, `${counted} < ${min}`, typeof schema.minContains === 'number' ? 'minContains' : 'contains', message);
  }
  if (max !== undefined) {
    check(s, body, `${counted} > ${max}`, 'maxContains', `must contain at most ${items(max)} matching "contains"`);
  }
}
