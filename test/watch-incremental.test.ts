/**
 * What `codegen --watch` reuses between runs (core/pipeline/run-memo.ts) never shows in the output:
 * after each edit, a run with the previous runs' memo generates exactly the files a fresh run does,
 * and reuses something where the edit leaves it valid.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { inlineConfig, type EmitKind } from '../generators/core/config/config.js';
import { formatDiagnostic } from '../generators/core/diagnostics.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { RunMemo } from '../generators/core/pipeline/run-memo.js';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

type Edit = { name: string; text: (previous: string) => string; fails?: true; reuses?: true };

/** Generates after every edit, with the memo and without; the files must be the same. */
async function replay(input: string, emit: EmitKind[], edits: Edit[]): Promise<void> {
  const output = join(tempDir('codegen-incremental-'), 'out');
  const apis = inlineConfig(input, output, emit, undefined);
  // The warnings too: their positions must follow the edit.
  const files = async (memo?: RunMemo) =>
    (await generate(apis, memo)).flatMap((set) => [
      ...set.files.map((file) => `${file.path}\n${file.content}`),
      `warnings\n${(set.warnings ?? []).map(formatDiagnostic).join('\n')}`,
    ]);
  const memo = new RunMemo();
  memo.begin();
  await files(memo);
  memo.end();
  for (const edit of edits) {
    writeFileSync(input, edit.text(readFileSync(input, 'utf8')));
    memo.begin();
    if (edit.fails) {
      // A failed run leaves the memo as it was; the next edit starts from there.
      await expect(files(memo), edit.name).rejects.toThrow();
      continue;
    }
    const incremental = await files(memo);
    memo.end();
    if (edit.reuses) expect(memo.stats.hits, `${edit.name}: something reused`).toBeGreaterThan(0);
    const fresh = await files();
    expect(incremental.length, edit.name).toBe(fresh.length);
    incremental.forEach((file, i) => expect(file === fresh[i], `${edit.name}: ${file.slice(0, file.indexOf('\n'))}`).toBe(true));
  }
}

/** `text` with `from` replaced once; fails the test when `from` is not there (the edit would be a no-op). */
function replaced(text: string, from: string, to: string): string {
  expect(text, `edit target ${JSON.stringify(from)}`).toContain(from);
  return text.replace(from, () => to);
}

describe('codegen --watch reuses only what an edit leaves valid', () => {
  it('tasks.yaml: description, operation summary, property, schema added and removed, a referrer changed through its reference, $ref target renamed, broken and fixed', {
    timeout: 300_000,
  }, async () => {
    const dir = tempDir('codegen-incremental-');
    cpSync(join(ROOT, 'schemas/openapi'), dir, { recursive: true });
    const input = join(dir, 'tasks.yaml');
    const original = readFileSync(input, 'utf8');
    const note = '        note:\n          $ref: "#/components/schemas/Note"\n';
    await replay(
      input,
      ['types', 'validators', 'client', 'server'],
      [
        {
          name: 'description changed',
          text: (t) => replaced(t, 'description: Where a task is in its life.', 'description: Where a task stands.'),
          reuses: true,
        },
        {
          name: 'operation summary changed',
          text: (t) => replaced(t, 'summary: Fetch one project.', 'summary: Read one project.'),
          reuses: true,
        },
        {
          name: 'property added',
          text: (t) =>
            replaced(
              t,
              "          pattern: '^#[0-9a-f]{6}$'\n",
              "          pattern: '^#[0-9a-f]{6}$'\n        weight:\n          type: integer\n",
            ),
          reuses: true,
        },
        {
          name: 'schema added and referenced by the operations on tasks',
          text: (t) =>
            replaced(
              replaced(
                t,
                '    TaskStatus:\n',
                '    Note:\n      type: object\n      properties:\n        text: { type: string }\n    TaskStatus:\n',
              ),
              '      properties:\n        id:\n',
              `      properties:\n${note}        id:\n`,
            ),
        },
        {
          name: 'schema removed again',
          text: (t) =>
            replaced(replaced(t, '    Note:\n      type: object\n      properties:\n        text: { type: string }\n', ''), note, ''),
        },
        {
          // Assignee's union pins each member to its discriminator value unless the member's own `kind` already does.
          name: "a referenced schema's change that alters its referrer's type",
          text: (t) => replaced(t, '        kind:\n          const: person\n', '        kind:\n          type: string\n'),
          reuses: true,
        },
        { name: '$ref target renamed', text: (t) => t.replaceAll('TaskStatus', 'TaskState') },
        { name: 'document broken', text: (t) => t.slice(0, t.indexOf('enum: [todo, in_') + 16), fails: true },
        { name: 'document fixed', text: () => original, reuses: true },
      ],
    );
  });

  it('tasks.json: inside a string, a property renamed, two components at once, an operation, info, a schema added, a component renamed, broken and fixed; warnings located after each', {
    timeout: 300_000,
  }, async () => {
    const dir = tempDir('codegen-incremental-');
    cpSync(join(ROOT, 'schemas/openapi'), dir, { recursive: true });
    const input = join(dir, 'tasks.json');
    const document = parse(readFileSync(join(dir, 'tasks.yaml'), 'utf8')) as { components: { schemas: Record<string, unknown> } };
    // Forgiven with a located warning, below every edit: its line moves with them.
    document.components.schemas.Odd = { type: 'strnig' };
    writeFileSync(input, JSON.stringify(document, null, 2));
    const label = '"color": {\n            "type": "string",\n            "pattern": "^#[0-9a-f]{6}$"\n          }\n';
    let beforeBreak = '';
    await replay(
      input,
      ['types', 'validators', 'client', 'server'],
      [
        {
          name: 'inside a string',
          text: (t) => replaced(t, '"Where a task is in its life."', '"Where a task stands."'),
          reuses: true,
        },
        {
          name: 'property added (lines move)',
          text: (t) => replaced(t, label, `${label.slice(0, -1)},\n          "weight": {\n            "type": "integer"\n          }\n`),
          reuses: true,
        },
        { name: 'property renamed', text: (t) => replaced(t, '"weight": {', '"heft": {'), reuses: true },
        {
          name: 'two components in one save',
          text: (t) =>
            replaced(
              replaced(t, '"Where a task stands."', '"Where a task is."'),
              '"Who works on the task; a person or a team."',
              '"Who works on the task."',
            ),
          reuses: true,
        },
        { name: 'an operation', text: (t) => replaced(t, '"Fetch one project."', '"Read one project."'), reuses: true },
        { name: 'info', text: (t) => replaced(t, 'A small task tracker', 'A tiny task tracker'), reuses: true },
        {
          name: 'schema added at the end',
          text: (t) => replaced(t, '"Odd": {', '"Note": {\n        "type": "string"\n      },\n      "Odd": {'),
          reuses: true,
        },
        { name: 'component renamed with its references', text: (t) => t.replaceAll('TaskStatus', 'TaskState') },
        {
          name: 'a component broken',
          text: (t) => (
            (beforeBreak = t),
            replaced(t, '"heft": {\n            "type": "integer"\n          }', '"heft": {\n            "type": "integer"\n')
          ),
          fails: true,
        },
        { name: 'fixed', text: () => beforeBreak, reuses: true },
      ],
    );
  });

  it("GitHub's REST description: a widely referenced schema's description, a leaf schema's property", { timeout: 600_000 }, async () => {
    const input = join(tempDir('codegen-incremental-'), 'api.github.com.json');
    cpSync(join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json'), input);
    const edited = (change: (schemas: Record<string, Record<string, unknown>>) => void) => (text: string) => {
      const document = JSON.parse(text) as { components: { schemas: Record<string, Record<string, unknown>> } };
      change(document.components.schemas);
      return JSON.stringify(document, null, 2);
    };
    await replay(
      input,
      ['types', 'validators', 'client'],
      [
        {
          name: 'simple-user description',
          text: edited((schemas) => (schemas['simple-user']!.description = 'A GitHub user, edited.')),
          reuses: true,
        },
        {
          name: 'license-simple property',
          text: edited((schemas) => {
            const properties = schemas['license-simple']!.properties as Record<string, unknown>;
            properties.edited = { type: 'string' };
          }),
          reuses: true,
        },
      ],
    );
  });
});
