/**
 * `codegen init`: a config that fits every style, from the schemas named or found, and one that
 * loads as it is written.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../generators/core/config/config.js';
import { codegen, ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

function projectWithSchemas(): string {
  const dir = tempDir('codegen-init-');
  cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  return dir;
}

describe('codegen init', () => {
  it('finds a schema of each style in the folder and writes one commented entry per API', async () => {
    const dir = projectWithSchemas();
    // Not schemas: source code, package metadata, other YAML, dependencies.
    writeFileSync(join(dir, 'package.json'), '{"name":"x"}');
    writeFileSync(join(dir, 'docker-compose.yaml'), 'services:\n  db:\n    image: postgres\n');
    mkdirSync(join(dir, 'node_modules/dep'), { recursive: true });
    writeFileSync(join(dir, 'node_modules/dep/openapi.json'), '{"openapi":"3.1.0"}');

    const result = codegen(['init'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tasks-openapi (openapi), tasks-graphql (graphql), tasks-proto (proto), tasks-asyncapi (asyncapi)');
    const text = readFileSync(join(dir, 'codegen.config.yaml'), 'utf8');
    expect(text).toContain('input: schemas/openapi/tasks.yaml');
    expect(text).toMatch(/documents:\n\s+- schemas\/graphql\/operations\/tasks.graphql/);
    expect(text).toContain('includePaths: [schemas/proto]'); // the root above acme/tasks/v1, like protoc -I
    expect(text).toContain('DateTime: string'); // the SDL's custom scalar
    expect(text).not.toMatch(/coming|follow/);

    const apis = await loadConfig(join(dir, 'codegen.config.yaml'));
    expect(apis.map((api) => [api.name, api.style, api.emit.join(',')])).toEqual([
      ['tasks-openapi', 'openapi', 'types,validators,client,server'],
      ['tasks-graphql', 'graphql', 'types,client,server'],
      ['tasks-proto', 'proto', 'types,client,server'],
      ['tasks-asyncapi', 'asyncapi', 'types,validators,client,server'],
    ]);
    const generated = codegen([], dir);
    expect(generated.code, generated.stderr).toBe(0);
    expect(existsSync(join(dir, 'src/generated/tasks-proto/server.ts'))).toBe(true);
    expect(existsSync(join(dir, 'src/tasks-graphql.resolvers.ts'))).toBe(true);
  });

  it('takes the files it is given, detecting each style from the content, not the name', () => {
    const dir = tempDir('codegen-init-');
    writeFileSync(join(dir, 'api.json'), JSON.stringify({ openapi: '3.1.0', info: { title: 'A', version: '1' }, paths: {} }));
    writeFileSync(join(dir, 'events.yml'), 'asyncapi: 3.0.0\ninfo: { title: E, version: "1" }\n');
    writeFileSync(join(dir, 'schema.gql'), '"""A type mentioned: query"""\ntype Query { hello: String }\nscalar URL\n');
    const result = codegen(['init', 'api.json', 'events.yml', 'schema.gql'], dir);
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(join(dir, 'codegen.config.yaml'), 'utf8');
    expect(text).toMatch(/- name: api\n\s+input: api.json/);
    expect(text).toMatch(/- name: events\n\s+input: events.yml/);
    expect(text).toMatch(/- name: schema\n\s+input: schema.gql/);
    expect(text).toContain('URL: string');
    expect(text).toContain('# documents: src/graphql'); // no operations yet: shown, commented
  });

  it('refuses a file that is no schema, and an existing config without --force', () => {
    const dir = tempDir('codegen-init-');
    writeFileSync(join(dir, 'notes.yaml'), 'title: not an API\n');
    const wrong = codegen(['init', 'notes.yaml'], dir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('notes.yaml: not a schema codegen reads');
    expect(existsSync(join(dir, 'codegen.config.yaml'))).toBe(false);

    writeFileSync(join(dir, 'codegen.config.yaml'), '# mine\n');
    const again = codegen(['init'], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    expect(readFileSync(join(dir, 'codegen.config.yaml'), 'utf8')).toBe('# mine\n');
  });

  it('writes a commented example of every style when no schema is found', () => {
    const dir = tempDir('codegen-init-');
    const result = codegen(['init'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('commented example of every style');
    const text = readFileSync(join(dir, 'codegen.config.yaml'), 'utf8');
    for (const title of ['OpenAPI', 'GraphQL', 'Protocol Buffers', 'AsyncAPI']) expect(text).toContain(title);
    // Running it before editing says what to do rather than generating nothing.
    const run = codegen([], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/codegen\.config\.yaml:\d+:\d+: error: apis/);
  });
});
