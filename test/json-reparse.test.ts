/**
 * json-reparse.ts: after each edit, the data is JSON.parse's (key order, duplicate keys, `__proto__`
 * included) and the index of positions is a fresh scan's; what the edit left alone keeps its object.
 */
import { describe, expect, it } from 'vitest';
import { JsonPositions } from '../generators/core/schema/json-documents.js';
import { JsonReparse } from '../generators/core/schema/json-reparse.js';

/** Parses `texts` one after the other with one JsonReparse, checking each against a fresh parse. */
function replay(texts: string[]): unknown[] {
  const reparse = new JsonReparse();
  return texts.map((text, i) => {
    const { data, positions } = reparse.parse('doc.json', text);
    expect(JSON.stringify(data), `edit ${i}`).toBe(JSON.stringify(JSON.parse(text)));
    expect(Object.getPrototypeOf(data), `edit ${i}`).toBe(Object.getPrototypeOf(JSON.parse(text)));
    expect(positions.spans(), `edit ${i}: positions`).toEqual(new JsonPositions(text).spans());
    return data;
  });
}

const doc = (schemas: Record<string, unknown>, info = 'Tasks') =>
  JSON.stringify({ info: { title: info }, components: { schemas }, paths: { '/a': { get: { summary: 'A' } } } }, null, 2);

describe('JsonReparse', () => {
  it('parses only the value an edit lies in, and keeps the others', () => {
    const [first, second] = replay([
      doc({ A: { type: 'string', description: 'one' }, B: { type: 'integer' } }),
      doc({ A: { type: 'string', description: 'one, edited' }, B: { type: 'integer' } }),
    ]) as { components: { schemas: Record<string, unknown> }; paths: unknown }[];
    expect(second?.components.schemas.B).toBe(first?.components.schemas.B);
    expect(second?.paths).toBe(first?.paths);
    expect(second?.components.schemas.A).not.toBe(first?.components.schemas.A);
  });

  it('follows edits that move, add, rename and span values, at every depth', () => {
    replay([
      doc({ A: { type: 'string' }, B: { type: 'integer' } }),
      doc({ A: { type: 'string', minLength: 1 }, B: { type: 'integer' } }),
      doc({ A: { type: 'string', minLength: 1 }, B: { type: 'integer' } }, 'Tasks, renamed'),
      doc({ A: { type: 'string', minLength: 1 }, B: { type: 'integer' }, C: { type: 'null' } }),
      doc({ Renamed: { type: 'string', minLength: 1 }, B: { type: 'integer' }, C: { type: 'null' } }),
      doc({ Renamed: { type: 'number' }, B: { type: 'boolean' }, C: { type: 'null' } }),
      '[1, 2, {"a": [3]}]',
      '[1, 2, {"a": [4, 5]}]',
    ]);
  });

  it('reads duplicate keys and __proto__ as JSON.parse does', () => {
    replay([
      '{"a": {"x": 1}, "a": {"x": 2}, "__proto__": {"p": 1}}',
      '{"a": {"x": 1}, "a": {"x": 3}, "__proto__": {"p": 1}}',
      '{"a": {"x": 9}, "a": {"x": 3}, "__proto__": {"p": 1}}',
      '{"a": {"x": 9}, "a": {"x": 3}, "__proto__": {"p": 2}}',
    ]);
  });

  it('throws as JSON.parse does when an edit breaks the text, and recovers', () => {
    const reparse = new JsonReparse();
    reparse.parse('doc.json', doc({ A: { type: 'string' } }));
    expect(() => reparse.parse('doc.json', doc({ A: { type: 'string' } }).replace('"string"', '"string'))).toThrow(SyntaxError);
    const text = doc({ A: { type: 'integer' } });
    expect(reparse.parse('doc.json', text).data).toEqual(JSON.parse(text));
  });
});
