/**
 * An API's `options` are checked against its style's declaration (generators/<style>/config-options.ts):
 * unknown and mistyped options are located errors, the listing in --help and the README comes from the
 * same declaration, and paths (options included) may be absolute.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, type ApiConfig } from '../generators/core/config/config.js';
import { README_OPTIONS_BEGIN, README_OPTIONS_END, optionsMarkdown } from '../generators/core/config/options-docs.js';
import { codegen, ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

/** A project with a copy of the example schemas and the given config. */
function project(config: string, name = 'codegen.config.yaml'): string {
  const dir = tempDir('codegen-options-');
  cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  writeFileSync(join(dir, name), config);
  return dir;
}

const INPUTS = {
  openapi: 'schemas/openapi/tasks.yaml',
  graphql: 'schemas/graphql/tasks.graphql',
  proto: 'schemas/proto/acme/tasks/v1/tasks.proto',
  asyncapi: 'schemas/asyncapi/tasks.asyncapi.yaml',
} as const;

/**
 * Per style: a misspelt option (with the name it should have been) and an option of the right name
 * with a wrong value, each with the message expected at its line:col in the YAML below.
 */
const CASES = [
  {
    style: 'openapi',
    typo: 'rediss',
    near: 'redis',
    mistyped: 'redis: "yes"',
    column: 14,
    expected: 'expected true or false, not the string "yes"',
  },
  {
    style: 'graphql',
    typo: 'scalarz',
    near: 'scalars',
    mistyped: 'assumeValidSDL: "yes"',
    column: 23,
    expected: 'expected true or false, not the string "yes"',
  },
  {
    style: 'proto',
    typo: 'includePath',
    near: 'includePaths',
    mistyped: 'includePaths: [schemas/proto, 3]',
    column: 37,
    expected: 'expected a path, not the number 3',
  },
  {
    style: 'asyncapi',
    typo: 'redsi',
    near: 'redis',
    mistyped: 'redis: 1',
    column: 14,
    expected: 'expected true or false, not the number 1',
  },
] as const;

function configWith(style: keyof typeof INPUTS, lines: string[]): string {
  return ['apis:', `  - input: ${INPUTS[style]}`, '    output: out/api', '    options:', ...lines.map((line) => `      ${line}`), ''].join(
    '\n',
  );
}

describe('options checked per style', () => {
  for (const { style, typo, near, mistyped, column, expected } of CASES) {
    it(`${style}: an unknown and a mistyped option are located errors, exit 1, nothing written`, () => {
      const dir = project(configWith(style, [`${typo}: true`, mistyped]));
      const result = codegen([], dir);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`codegen.config.yaml:5:7: error: apis[0].options.${typo}: unknown ${style} option "${typo}"`);
      expect(result.stderr).toContain(`hint: did you mean "${near}"?`);
      const mistypedPath = style === 'proto' ? 'includePaths[1]' : mistyped.split(':')[0];
      expect(result.stderr).toContain(`codegen.config.yaml:6:${column}: error: apis[0].options.${mistypedPath}: ${expected}`);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    });
  }

  it('names the style an option belongs to when it is given to another style', async () => {
    const dir = project(configWith('openapi', ['includePaths: [schemas/proto]']));
    const problem = await loadConfig(join(dir, 'codegen.config.yaml')).catch((error: Error) => error.message);
    expect(problem).toContain(
      'codegen.config.yaml:5:7: error: apis[0].options.includePaths: "includePaths" is an option of proto APIs; this API\'s style is openapi',
    );
    expect(problem).toContain('openapi options: redis');
  });

  it('checks map values: GraphQL scalars and mappers', async () => {
    const dir = project(
      configWith('graphql', [
        'scalars: { DateTime: strng, Money: { type: number }, Flag: true, Id: string }',
        'mappers: { Task: 3 }',
        'mapers: {}',
      ]),
    );
    const problem = await loadConfig(join(dir, 'codegen.config.yaml')).catch((error: Error) => error.message);
    expect(problem).toContain(
      'codegen.config.yaml:5:28: error: apis[0].options.scalars.DateTime: expected string, number, boolean, unknown or a JSON Schema object, not the string "strng"',
    );
    expect(problem).toContain('did you mean "string"?');
    expect(problem).toContain('codegen.config.yaml:6:24: error: apis[0].options.mappers.Task: expected a string, not the number 3');
    expect(problem).toContain('codegen.config.yaml:7:7: error: apis[0].options.mapers: unknown graphql option "mapers"');
    expect(problem).not.toContain('Money');
    expect(problem).not.toContain('Flag');
    expect(problem).not.toContain('scalars.Id');
  });

  it('rejects options that are not an object', async () => {
    const dir = project(['apis:', `  - input: ${INPUTS.proto}`, '    output: out/api', '    options: [includePaths]', ''].join('\n'));
    await expect(loadConfig(join(dir, 'codegen.config.yaml'))).rejects.toThrow(
      /codegen\.config\.yaml:4:14: error: apis\[0\]\.options: expected an object of options, not a list/,
    );
  });

  it('locates option errors in JSON configs, and reports them (without positions) from .mjs configs', async () => {
    const json = project(
      `{\n  "apis": [\n    { "input": "${INPUTS.graphql}", "output": "out/api",\n      "options": { "assumeValidSDL": "yes" } }\n  ]\n}\n`,
      'codegen.config.json',
    );
    await expect(loadConfig(join(json, 'codegen.config.json'))).rejects.toThrow(
      /codegen\.config\.json:4:38: error: apis\[0\]\.options\.assumeValidSDL: expected true or false/,
    );
    const mjs = project(
      `export default { apis: [{ input: '${INPUTS.graphql}', output: 'out/api', options: { scalarz: {} } }] };\n`,
      'codegen.config.mjs',
    );
    await expect(loadConfig(join(mjs, 'codegen.config.mjs'))).rejects.toThrow(
      /codegen\.config\.mjs:1:1: error: apis\[0\]\.options\.scalarz: unknown graphql option "scalarz"/,
    );
  });

  it('hands generators typed options with paths resolved against the config folder', async () => {
    const dir = project(configWith('proto', ['includePaths: schemas/proto']));
    const [api] = (await loadConfig(join(dir, 'codegen.config.yaml'))) as ApiConfig<'proto'>[];
    expect(api.options).toEqual({ includePaths: [join(dir, 'schemas/proto')] });
  });
});

describe('absolute paths', () => {
  it('keeps every absolute path as written: input, documents, output, handlers, templates', async () => {
    const elsewhere = tempDir('codegen-elsewhere-');
    cpSync(join(ROOT, 'schemas'), join(elsewhere, 'schemas'), { recursive: true });
    const at = (path: string) => join(elsewhere, path);
    const dir = project(
      [
        'apis:',
        `  - input: ${at(INPUTS.graphql)}`,
        `    documents: ${at('schemas/graphql/operations')}`,
        `    output: ${at('out/graphql')}`,
        '    emit: [types, server]',
        `    handlers: ${at('src/resolvers.ts')}`,
        `    templates: ${at('templates')}`,
        '',
      ].join('\n'),
    );
    const [api] = await loadConfig(join(dir, 'codegen.config.yaml'));
    expect(api).toMatchObject({
      inputs: [at(INPUTS.graphql)],
      documents: [at('schemas/graphql/operations')],
      output: at('out/graphql'),
      handlers: at('src/resolvers.ts'),
      templates: at('templates'),
    });
  });

  it('generates a proto API whose input and includePaths are absolute paths', () => {
    const protos = tempDir('codegen-protos-');
    cpSync(join(ROOT, 'schemas/proto'), protos, { recursive: true });
    // Imports a file by its include-path name, so it only loads if includePaths is honoured.
    mkdirSync(join(protos, 'acme/boards/v1'), { recursive: true });
    const board = join(protos, 'acme/boards/v1/boards.proto');
    writeFileSync(
      board,
      'syntax = "proto3";\npackage acme.boards.v1;\nimport "acme/tasks/v1/tasks.proto";\nmessage Board { repeated acme.tasks.v1.Task tasks = 1; }\n',
    );
    const dir = project(
      [
        'apis:',
        '  - name: boards',
        `    input: ${board}`,
        '    output: out/boards',
        '    options:',
        `      includePaths: [${protos}]`,
        '',
      ].join('\n'),
    );

    const result = codegen([], dir);
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'out/boards/acme/boards/v1/boards_pb.ts'), 'utf8')).toContain('export type Board =');
    expect(existsSync(join(dir, 'out/boards/acme/tasks/v1/tasks_pb.ts'))).toBe(true);
  });
});

describe('the options listing', () => {
  it('README lists exactly what the declarations say', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const begin = readme.indexOf(README_OPTIONS_BEGIN);
    const end = readme.indexOf(README_OPTIONS_END);
    expect(begin, 'README.md has no options section').toBeGreaterThan(-1);
    expect(readme.indexOf(README_OPTIONS_BEGIN, begin + 1), 'README.md has two options sections').toBe(-1);
    // On failure, paste optionsMarkdown()'s text (the expected value below) over the README's section.
    expect(readme.slice(begin, end + README_OPTIONS_END.length)).toBe(optionsMarkdown());
  });

  it('--help lists each style with its options', () => {
    const help = codegen(['--help']).stdout;
    expect(help).toContain("Options per style (an API's `options:` in the config):");
    for (const [style, option] of [
      ['openapi', 'redis'],
      ['graphql', 'scalars'],
      ['graphql', 'mappers'],
      ['graphql', 'assumeValidSDL'],
      ['proto', 'includePaths'],
      ['asyncapi', 'redis'],
    ]) {
      expect(help).toMatch(new RegExp(`\\n  ${style}\\n(    .*\\n)*    ${option}: `));
    }
  });
});
