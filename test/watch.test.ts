/**
 * `codegen --watch` as users run it: the real CLI in a temporary project, changed by real file
 * writes. Every save must end in exactly one outcome (its errors printed once, or one summary), and
 * no bad save may end the process.
 */
import { cpSync, existsSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';
import { WatchProcess, type Mark } from './support/watch-process.js';

const CONFIG = 'apis:\n  - { name: rest, input: schemas/openapi/tasks.yaml, output: out/rest }\n';
const ORIGINAL = readFileSync(join(ROOT, 'schemas/openapi/tasks.yaml'), 'utf8');
const STATUS_DESCRIPTION = 'description: Where a task is in its life.';

/** tasks.yaml with the TaskStatus description changed, so each good save changes types.ts. */
function revision(n: number): string {
  return ORIGINAL.replace(STATUS_DESCRIPTION, `description: Task status, revision ${n}.`);
}

function project(): string {
  const dir = tempDir('codegen-watch-');
  cpSync(join(ROOT, 'schemas/openapi'), join(dir, 'schemas/openapi'), { recursive: true });
  writeFileSync(join(dir, 'codegen.config.yaml'), CONFIG);
  return dir;
}

const SUMMARY = /codegen: \d+ written, \d+ unchanged, \d+ removed/g;
const errorLines = (text: string) => text.split('\n').filter((line) => /(^|: )error: /.test(line));

describe('codegen --watch', () => {
  it('survives truncated, invalid, deleted and re-created inputs and an invalid config; one outcome per save', {
    timeout: 600_000,
  }, async () => {
    const dir = project();
    const schema = join(dir, 'schemas/openapi/tasks.yaml');
    const types = () => readFileSync(join(dir, 'out/rest/types.ts'), 'utf8');
    const watcher = new WatchProcess(dir);
    // Each save's output runs until the next save; it is checked once the next one has happened,
    // so a duplicate printed late (a second run for one save) is caught too.
    const saves: { name: string; mark: Mark; end?: Mark; fails?: RegExp }[] = [];
    const save = async (name: string, change: () => void, outcome: { fails: RegExp } | { writes: string }) => {
      const mark = watcher.mark();
      if (saves.length > 0) saves[saves.length - 1]!.end = mark;
      saves.push({ name, mark, fails: 'fails' in outcome ? outcome.fails : undefined });
      change();
      if ('fails' in outcome) {
        await watcher.waitFor('err', outcome.fails, mark);
      } else {
        await watcher.waitFor('out', /codegen: \d+ written/, mark);
        expect(types(), name).toContain(outcome.writes);
      }
      expect(watcher.alive, `${name}: still watching`).toBe(true);
    };

    try {
      await watcher.waitFor('out', /codegen: watching for changes/, { out: 0, err: 0 });
      expect(types()).toContain('Where a task is in its life.');

      // An editor saving half-way: the file ends inside a flow sequence.
      const cut = ORIGINAL.indexOf('enum: [todo, in_') + 'enum: [todo, in_'.length;
      await save('truncated input', () => writeFileSync(schema, ORIGINAL.slice(0, cut)), {
        fails: /tasks\.yaml:\d+:\d+: error: invalid YAML/,
      });
      await save('truncated input fixed', () => writeFileSync(schema, revision(1)), { writes: 'Task status, revision 1.' });

      await save('invalid input', () => writeFileSync(schema, ORIGINAL.replace('title: Tasks API', 'title: "Tasks API')), {
        fails: /tasks\.yaml:\d+:\d+: error: invalid YAML: Missing closing "quote/,
      });
      await save('invalid input fixed', () => writeFileSync(schema, revision(2)), { writes: 'Task status, revision 2.' });

      await save('input deleted', () => unlinkSync(schema), { fails: /error: cannot read schemas\/openapi\/tasks\.yaml: no such file/ });
      await save('input re-created', () => writeFileSync(schema, revision(3)), { writes: 'Task status, revision 3.' });

      // The input's whole folder goes away and comes back: the new folder must be watched.
      await save('input folder deleted', () => rmSync(join(dir, 'schemas/openapi'), { recursive: true }), {
        fails: /error: cannot read schemas\/openapi\/tasks\.yaml: no such file/,
      });
      await save(
        'input folder re-created',
        () => {
          cpSync(join(ROOT, 'schemas/openapi'), join(dir, 'schemas/openapi.new'), { recursive: true });
          writeFileSync(join(dir, 'schemas/openapi.new/tasks.yaml'), revision(4));
          renameSync(join(dir, 'schemas/openapi.new'), join(dir, 'schemas/openapi'));
        },
        { writes: 'Task status, revision 4.' },
      );
      await save('input edited in the re-created folder', () => writeFileSync(schema, revision(5)), { writes: 'Task status, revision 5.' });
      // Deleted and replaced within one save (a checkout, a sync tool): the same path, a new folder.
      await save(
        'input folder replaced',
        () => {
          cpSync(join(dir, 'schemas/openapi'), join(dir, 'schemas/openapi.new'), { recursive: true });
          writeFileSync(join(dir, 'schemas/openapi.new/tasks.yaml'), revision(51));
          rmSync(join(dir, 'schemas/openapi'), { recursive: true });
          renameSync(join(dir, 'schemas/openapi.new'), join(dir, 'schemas/openapi'));
        },
        { writes: 'Task status, revision 51.' },
      );
      await save('input edited in the replaced folder', () => writeFileSync(schema, revision(52)), { writes: 'Task status, revision 52.' });

      // Editors save by writing a temporary file and renaming it over the original.
      await save(
        'input replaced by rename',
        () => {
          writeFileSync(`${schema}.tmp`, revision(6));
          renameSync(`${schema}.tmp`, schema);
        },
        { writes: 'Task status, revision 6.' },
      );

      // A file the input $refs, next to it.
      const problem = join(dir, 'schemas/openapi/problem.yaml');
      await save(
        'referenced file edited',
        () => writeFileSync(problem, readFileSync(problem, 'utf8').replace('Problem Details.', 'Problem Details, edited.')),
        {
          writes: 'Problem Details, edited.',
        },
      );

      const config = join(dir, 'codegen.config.yaml');
      await save('invalid config', () => writeFileSync(config, CONFIG.replace(' }\n', '\n')), {
        fails: /codegen\.config\.yaml:\d+:\d+: error: /,
      });
      await save('config with an unknown key', () => writeFileSync(config, CONFIG.replace('output:', 'outptu:')), {
        fails: /codegen\.config\.yaml:\d+:\d+: error: apis\[0\]\.outptu: unknown key/,
      });
      await save('config fixed', () => writeFileSync(config, CONFIG.replace(' }', ', emit: [types, validators] }')), {
        writes: 'Task status, revision 6.',
      });
      expect(existsSync(join(dir, 'out/rest/client.ts')), 'the fixed config no longer emits the client').toBe(false);

      saves[saves.length - 1]!.end = watcher.mark();
      watcher.child.kill('SIGTERM');
      expect(await watcher.exited, 'exit code after SIGTERM').toBe(0);
    } finally {
      if (watcher.alive) watcher.child.kill('SIGKILL');
    }

    for (const { name, mark, end, fails } of saves) {
      const printed = watcher.since(mark);
      const out = watcher.out.slice(mark.out, end!.out);
      const err = watcher.err.slice(mark.err, end!.err);
      const context = `${name}:\n${out}${err}`;
      if (fails) {
        expect(errorLines(err).length, context).toBeGreaterThan(0);
        expect(
          errorLines(err).filter((line) => fails.test(line)),
          context,
        ).toHaveLength(1);
        expect(new Set(errorLines(err)).size, `${context}\nan error printed twice`).toBe(errorLines(err).length);
        expect(out.match(SUMMARY), context).toBeNull();
      } else {
        expect(errorLines(err), context).toEqual([]);
        expect(out.match(SUMMARY), context).toHaveLength(1);
      }
      expect(printed.out).not.toContain('watching for changes');
    }
    expect(watcher.out.match(/watching for changes/g)).toHaveLength(1);
  });

  // The case: a JSON description truncated mid-string used to print one error per parser
  // complaint, then exit 13 with nothing left to watch.
  it('codegen generate --watch stays alive when the JSON input is truncated from the start, and recovers', {
    timeout: 300_000,
  }, async () => {
    const dir = project();
    const schema = join(dir, 'schemas/openapi/tasks.json');
    const json = (text: string) => JSON.stringify(parse(text), null, 2);
    writeFileSync(schema, json(ORIGINAL).slice(0, json(ORIGINAL).indexOf('Where a task is') + 8));
    const watcher = new WatchProcess(dir, ['generate', 'schemas/openapi/tasks.json', '-o', 'gen/api', '--watch']);
    try {
      await watcher.waitFor('out', /codegen: watching for changes/, { out: 0, err: 0 });
      await watcher.waitFor('err', /tasks\.json:\d+:\d+: error: invalid JSON/, { out: 0, err: 0 });
      const mark = watcher.mark();
      writeFileSync(schema, json(revision(7)));
      await watcher.waitFor('out', /codegen: \d+ written/, mark);
      expect(readFileSync(join(dir, 'gen/api/types.ts'), 'utf8')).toContain('Task status, revision 7.');
      expect(errorLines(watcher.err), 'the truncated file: one error').toHaveLength(1);
      watcher.child.kill('SIGINT');
      expect(await watcher.exited, 'exit code after SIGINT').toBe(0);
    } finally {
      if (watcher.alive) watcher.child.kill('SIGKILL');
    }
  });

  // A JavaScript config is loaded with import(), which caches by URL: an edit must still be seen.
  it('sees edits to a codegen.config.mjs', { timeout: 300_000 }, async () => {
    const dir = project();
    rmSync(join(dir, 'codegen.config.yaml'));
    const config = (emit: string) =>
      `export default { apis: [{ name: 'rest', input: 'schemas/openapi/tasks.yaml', output: 'out/rest', emit: [${emit}] }] };\n`;
    writeFileSync(join(dir, 'codegen.config.mjs'), config("'types'"));
    const watcher = new WatchProcess(dir);
    try {
      await watcher.waitFor('out', /codegen: \d+ written/, { out: 0, err: 0 });
      expect(existsSync(join(dir, 'out/rest/validators.js'))).toBe(false);
      const mark = watcher.mark();
      writeFileSync(join(dir, 'codegen.config.mjs'), config("'types', 'validators'"));
      await watcher.waitFor('out', /codegen: \d+ written/, mark);
      expect(existsSync(join(dir, 'out/rest/validators.js'))).toBe(true);
      watcher.child.kill('SIGINT');
      expect(await watcher.exited).toBe(0);
    } finally {
      if (watcher.alive) watcher.child.kill('SIGKILL');
    }
  });

  // What --watch scans for $refs is read as the loader reads it: a reference to a device or a file
  // outside the project is refused (and not watched), never read.
  it('does not read a $ref to /dev/zero while planning what to watch', { timeout: 300_000 }, async () => {
    const dir = project();
    const schema = join(dir, 'schemas/openapi/tasks.yaml');
    writeFileSync(schema, ORIGINAL.replace(STATUS_DESCRIPTION, 'description: Zero.\n      allOf: [{ $ref: "/dev/zero" }]'));
    const watcher = new WatchProcess(dir);
    try {
      await watcher.waitFor('err', /error: .*\/dev\/zero/, { out: 0, err: 0 }, 60_000);
      await watcher.waitFor('out', /codegen: watching for changes/, { out: 0, err: 0 });
      const mark = watcher.mark();
      writeFileSync(schema, revision(9));
      await watcher.waitFor('out', /codegen: \d+ written/, mark);
      watcher.child.kill('SIGINT');
      expect(await watcher.exited).toBe(0);
    } finally {
      if (watcher.alive) watcher.child.kill('SIGKILL');
    }
  });
});
