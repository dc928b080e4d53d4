import { describe, expect, it } from 'vitest';
import { addMissingMembers } from '../generators/core/pipeline/user-files.js';

const userFile = `import type { Handlers } from "./generated/server.js";

// My notes: keep this comment.
const db = new Map<string, string>();

export const handlers: Handlers = {
  async getTask({ params }) {
    // hand-written, with   odd   spacing
    return { status: 200, body: db.get(params.taskId) };
  },
};
`;

describe('user-owned files', () => {
  it('adds stubs for missing members and changes nothing the user wrote', () => {
    const { text, added } = addMissingMembers(userFile, 'handlers.ts', {
      variable: 'handlers',
      members: [
        { name: 'getTask', code: 'async getTask() {\n  throw new Error("stub");\n}' },
        { name: 'deleteTask', code: 'async deleteTask() {\n  throw new Error("not implemented: deleteTask");\n}' },
      ],
    });
    expect(added).toEqual(['deleteTask']);
    // Everything before the insertion point is byte-identical.
    const before = userFile.slice(0, userFile.lastIndexOf('  },') + 4);
    expect(text.startsWith(before)).toBe(true);
    expect(text).toContain('not implemented: deleteTask');
    expect(text).toContain('// hand-written, with   odd   spacing');
    expect(text.match(/async getTask/g)).toHaveLength(1);
  });

  it('is a no-op when every member exists', () => {
    const result = addMissingMembers(userFile, 'handlers.ts', {
      variable: 'handlers',
      members: [{ name: 'getTask', code: 'getTask() {}' }],
    });
    expect(result).toEqual({ text: userFile, added: [] });
  });

  it('finds the literal through `satisfies`', () => {
    const text = 'export const handlers = {\n  a() {},\n} satisfies X;\n';
    expect(addMissingMembers(text, 'h.ts', { variable: 'handlers', members: [{ name: 'b', code: 'b() {}' }] }).added).toEqual(['b']);
  });

  it('adds into nested literals (GraphQL resolver maps), and whole members that are missing', () => {
    const text = [
      'export const resolvers = {',
      '  Query: {',
      '    // mine',
      '    task() { return null; },',
      '  },',
      '} satisfies Resolvers;',
      '',
    ].join('\n');
    const result = addMissingMembers(text, 'r.ts', {
      variable: 'resolvers',
      members: [
        {
          name: 'Query',
          code: 'Query: {}',
          members: [
            { name: 'task', code: 'task() {}' },
            { name: 'viewer', code: 'viewer() {\n  return null;\n}' },
          ],
        },
        { name: 'Mutation', code: 'Mutation: {\n  ping() {\n    return true;\n  },\n}' },
      ],
    });
    expect(result.added).toEqual(['Query.viewer', 'Mutation']);
    expect(result.text).toBe(
      [
        'export const resolvers = {',
        '  Query: {',
        '    // mine',
        '    task() { return null; },',
        '    viewer() {',
        '      return null;',
        '    },',
        '  },',
        '  Mutation: {',
        '    ping() {',
        '      return true;',
        '    },',
        '  },',
        '} satisfies Resolvers;',
        '',
      ].join('\n'),
    );
  });

  it('explains what to do when the object literal is gone', () => {
    expect(() =>
      addMissingMembers('export default {};\n', 'src/h.ts', { variable: 'handlers', members: [{ name: 'b', code: 'b() {}' }] }),
    ).toThrow(/src\/h\.ts:1:1: error: cannot find the object literal `handlers = \{ \.\.\. \}`[\s\S]*add the missing methods by hand: b/);
  });
});
