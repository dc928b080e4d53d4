/**
 * Issue 11, F6: inputs stay where they belong. `$ref`s (OpenAPI, AsyncAPI), proto imports and
 * files found in GraphQL `documents` folders are read only inside the project root (the config's
 * folder), the folders the config allows (`allowRead`) and, for proto, the include paths; only
 * regular files, only up to a size cap checked before reading; a refused file is named by its path,
 * never quoted. Every case runs the real config loader and generator on real files in a temp folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../generators/core/config/config.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { codegen } from './support/cli.js';
import { tempDir } from './support/tmp.js';

const SECRET = 'tok_3f9a1c0de5ecret_do_not_print';

/** `base/project` (holding codegen.config.yaml) and `base/outside` with a secret in JSON. */
function setup(files: Record<string, string>, config: string): { base: string; project: string; outside: string } {
  const base = tempDir('codegen-contain-');
  const project = join(base, 'project');
  const outside = join(base, 'outside');
  mkdirSync(project);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.json'), JSON.stringify({ token: SECRET, schema: { type: 'string', description: SECRET } }));
  for (const [path, content] of Object.entries(files)) {
    const file = join(base, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  writeFileSync(join(project, 'codegen.config.yaml'), config);
  return { base, project, outside };
}

/** A minimal OpenAPI document whose one schema is `$ref: <ref>`, the ref on line 8, column 14. */
function openapi(ref: string): string {
  return [
    'openapi: 3.1.0',
    'info: { title: t, version: "1" }',
    'paths: {}',
    'components:',
    '  schemas:',
    '    Local: { type: string }',
    '    Leak:',
    `      $ref: ${JSON.stringify(ref)}`,
    '',
  ].join('\n');
}

const CONFIG = 'apis:\n  - input: api.yaml\n    output: out\n';

/** Runs codegen on the project; returns the error message (or '' when it generated). */
async function run(project: string): Promise<string> {
  try {
    await generate(await loadConfig(join(project, 'codegen.config.yaml')));
    return '';
  } catch (cause) {
    return (cause as Error).message;
  }
}

async function refused(ref: string, files: Record<string, string> = {}): Promise<string> {
  const { project } = setup({ 'project/api.yaml': openapi(ref), ...files }, CONFIG);
  const message = await run(project);
  expect(message).toMatch(
    new RegExp(
      `^api\\.yaml:8:13: error: \\$ref ${JSON.stringify(ref).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} points to a file that cannot be read`,
    ),
  );
  return message;
}

describe('$ref stays inside the project root', () => {
  it('refuses an absolute path to /etc/passwd by its path, quoting nothing of it', async () => {
    const message = await refused('/etc/passwd');
    expect(message).toContain('/etc/passwd: it is outside the folders codegen reads');
    expect(message).toMatch(/hint: codegen reads referenced files only inside \.; .*allowRead: \[/);
    expect(message).not.toMatch(/root:|:0:0/);
  });

  it('refuses ../ out of the project, and a JSON pointer into a secret there prints no part of it', async () => {
    for (const ref of ['../outside/secret.json#/token', '../outside/secret.json#/schema', '../outside/secret.json#/nope']) {
      const message = await refused(ref);
      expect(message).toContain('outside the folders codegen reads');
      expect(message).not.toContain('tok_');
    }
  });

  it('refuses /proc/self/environ without printing the environment', async () => {
    const message = await refused('/proc/self/environ');
    expect(message).toContain('outside the folders codegen reads');
    expect(message).not.toMatch(/PATH=|HOME=/);
  });

  it('refuses /dev/zero at once, without reading it', async () => {
    const started = performance.now();
    const message = await refused('/dev/zero');
    expect(message).toContain('outside the folders codegen reads');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('refuses a symbolic link inside the project that leads out of it', async () => {
    const { project, outside } = setup({ 'project/api.yaml': openapi('./schemas/shared.json#/schema') }, CONFIG);
    mkdirSync(join(project, 'schemas'));
    symlinkSync(join(outside, 'secret.json'), join(project, 'schemas', 'shared.json'));
    const message = await run(project);
    expect(message).toMatch(
      /^api\.yaml:8:13: error: .*schemas\/shared\.json: it leads \(through a symbolic link\) to .*outside\/secret\.json, outside the folders codegen reads/,
    );
    expect(message).not.toContain('tok_');
    // The same through a linked folder.
    const { project: second, outside: other } = setup({ 'project/api.yaml': openapi('./linked/secret.json#/schema') }, CONFIG);
    symlinkSync(other, join(second, 'linked'));
    expect(await run(second)).toMatch(/through a symbolic link.*outside the folders codegen reads/);
  });

  it('follows $refs across files inside the project, links that stay inside included', async () => {
    const { project } = setup(
      {
        'project/api.yaml': openapi('./schemas/pet.yaml#/Pet'),
        'project/schemas/pet.yaml': 'Pet:\n  type: object\n  properties:\n    id: { $ref: "../common/id.yaml#/Id" }\n',
        'project/common/id.yaml': 'Id: { type: string, format: uuid }\n',
      },
      CONFIG,
    );
    symlinkSync(join(project, 'common'), join(project, 'alias'));
    writeFileSync(join(project, 'schemas', 'pet.yaml'), 'Pet:\n  type: object\n  properties:\n    id: { $ref: "../alias/id.yaml#/Id" }\n');
    const [output] = await generate(await loadConfig(join(project, 'codegen.config.yaml')));
    expect(output.files.find((file) => file.path === 'types.ts')?.content).toMatch(/Leak/);
  });

  it('reads a folder outside the project that the config allows with allowRead', async () => {
    const { project } = setup({ 'project/api.yaml': openapi('../outside/secret.json#/schema') }, `${CONFIG}    allowRead: [../outside]\n`);
    expect(await run(project)).toBe('');
  });

  it('through the CLI: exit 1, located, the secret file named by its path only; --allow-read allows a folder', () => {
    const { project } = setup({ 'project/api/api.yaml': openapi('../../outside/secret.json#/schema') }, CONFIG);
    const refusedRun = codegen(['generate', 'api/api.yaml', '-o', 'out'], project);
    expect(refusedRun.code).toBe(1);
    expect(refusedRun.stderr).toMatch(
      /^api\/api\.yaml:8:13: error: \$ref "\.\.\/\.\.\/outside\/secret\.json#\/schema" points to a file that cannot be read \(cannot read .*outside\/secret\.json: it is outside the folders codegen reads\)/m,
    );
    expect(refusedRun.stderr).toContain('--allow-read');
    expect(refusedRun.stderr + refusedRun.stdout).not.toContain('tok_');
    const allowed = codegen(['generate', 'api/api.yaml', '--allow-read', '../outside', '-o', 'out'], project);
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
  });

  it("without a config (codegen generate <input>), the project root is the input's folder", async () => {
    const { inlineConfig } = await import('../generators/core/config/config.js');
    const { project, outside } = setup(
      { 'project/api/api.yaml': openapi('../shared/pet.yaml#/Pet'), 'project/shared/pet.yaml': 'Pet: { type: string }\n' },
      CONFIG,
    );
    const input = join(project, 'api', 'api.yaml');
    const inline = (allow?: string[]) =>
      generate(inlineConfig(input, join(project, 'out'), undefined, undefined, undefined, allow)).then(
        () => '',
        (cause: Error) => cause.message,
      );
    expect(await inline()).toMatch(
      /\$ref "\.\.\/shared\/pet\.yaml#\/Pet" points to a file that cannot be read .*outside the folders codegen reads/,
    );
    expect(await inline([join(project, 'shared')])).toBe('');
    expect(outside).toBeTruthy();
  });
});

describe('only regular files, within a size cap checked before reading', () => {
  it('refuses a device even in an allowed folder, at once', async () => {
    const { project } = setup({ 'project/api.yaml': openapi('/dev/zero') }, `${CONFIG}    allowRead: [/dev]\n`);
    const started = performance.now();
    expect(await run(project)).toMatch(/cannot read \/dev\/zero: it is not a regular file/);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('does not read a device named as the input either: the CLI exits 1 at once', () => {
    const started = performance.now();
    for (const style of ['openapi', 'proto']) {
      const { project } = setup({}, `apis:\n  - input: /dev/zero\n    style: ${style}\n    output: out\n`);
      const result = codegen([], project);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/cannot read \/dev\/zero: it is not a regular file/);
    }
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('refuses a FIFO in the project without opening it (opening one blocks)', async () => {
    const { project } = setup({ 'project/api.yaml': openapi('./pipe.yaml') }, CONFIG);
    execFileSync('mkfifo', [join(project, 'pipe.yaml')]);
    expect(await run(project)).toMatch(/cannot read pipe\.yaml: it is not a regular file/);
  });

  it('refuses a folder', async () => {
    const { project } = setup({ 'project/api.yaml': openapi('./schemas'), 'project/schemas/a.yaml': 'A: {}\n' }, CONFIG);
    expect(await run(project)).toMatch(/cannot read schemas: it is a folder/);
  });

  it('refuses a referenced file over the default cap of 64 MiB by its size, before reading it', async () => {
    const { project } = setup({ 'project/api.yaml': openapi('./huge.json'), 'project/huge.json': '' }, CONFIG);
    truncateSync(join(project, 'huge.json'), 65 * 1024 * 1024); // sparse: costs no disk
    const started = performance.now();
    expect(await run(project)).toMatch(
      /api\.yaml:8:13: error: .*cannot read huge\.json: it is 65 MiB, over the limit of 64 MiB per input file/,
    );
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('takes the cap from maxInputBytes, for the input itself too', async () => {
    const pet = `Pet: { type: string, description: "${'x'.repeat(2000)}" }\n`;
    const { project } = setup(
      { 'project/api.yaml': openapi('./pet.yaml#/Pet'), 'project/pet.yaml': pet },
      `${CONFIG}    maxInputBytes: 1000\n`,
    );
    expect(await run(project)).toMatch(/cannot read pet\.yaml: it is 2\d{3} bytes, over the limit of 1000 bytes/);
    writeFileSync(join(project, 'codegen.config.yaml'), `${CONFIG}    maxInputBytes: 100\n`);
    expect(await run(project)).toMatch(/cannot read api\.yaml: it is \d+ bytes, over the limit of 100 bytes/);
  });
});

describe('proto imports stay inside the include paths and the project', () => {
  const PROTO_CONFIG = 'apis:\n  - input: proto/acme/api.proto\n    output: out\n    options:\n      includePaths: [proto]\n';
  const api = (imported: string) => `syntax = "proto3";\npackage acme;\nimport "${imported}";\nmessage A { string id = 1; }\n`;
  const leak = 'syntax = "proto3";\npackage leak;\nmessage Leak { string token = 1; }\n';

  it('refuses import "../../x.proto", located at the import', async () => {
    const { project } = setup(
      { 'project/proto/acme/api.proto': api('../../outside/leak.proto'), 'outside/leak.proto': leak },
      PROTO_CONFIG,
    );
    const message = await run(project);
    expect(message).toMatch(/^proto\/acme\/api\.proto:3:8: error: import "\.\.\/\.\.\/outside\/leak\.proto" is not a plain path/);
    expect(message).toMatch(/hint: add the folder that holds the file to `includePaths`/);
  });

  it('refuses an import that a symbolic link leads out of the include paths', async () => {
    const { project, outside } = setup(
      { 'project/proto/acme/api.proto': api('acme/leak.proto'), 'outside/leak.proto': leak },
      PROTO_CONFIG,
    );
    symlinkSync(join(outside, 'leak.proto'), join(project, 'proto', 'acme', 'leak.proto'));
    const message = await run(project);
    expect(message).toMatch(
      /^proto\/acme\/api\.proto:3:8: error: import "acme\/leak\.proto": cannot read .*: it leads \(through a symbolic link\) to .*outside\/leak\.proto, outside the folders codegen reads/,
    );
    expect(message).not.toContain('Leak');
  });

  it('reads imports inside the include paths, and from an include path outside the project the config names', async () => {
    const inside = setup(
      {
        'project/proto/acme/api.proto': api('acme/common.proto'),
        'project/proto/acme/common.proto': 'syntax = "proto3";\npackage acme;\nmessage C {}\n',
      },
      PROTO_CONFIG,
    );
    expect(await run(inside.project)).toBe('');
    const shared = setup(
      { 'project/proto/acme/api.proto': api('leak.proto'), 'outside/leak.proto': leak },
      PROTO_CONFIG.replace('[proto]', '[proto, ../outside]'),
    );
    expect(await run(shared.project)).toBe('');
  });
});

describe('GraphQL documents folders', () => {
  const GRAPHQL_CONFIG = 'apis:\n  - input: schema.graphql\n    documents: operations\n    output: out\n    emit: [types, client]\n';

  it('refuses a file in a documents folder that is a link leading out, quoting nothing of it', async () => {
    const { project, outside } = setup(
      { 'project/schema.graphql': 'type Query { hello: String }\n', 'project/operations/hello.graphql': 'query Hello { hello }\n' },
      GRAPHQL_CONFIG,
    );
    writeFileSync(join(outside, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    symlinkSync(join(outside, 'passwd'), join(project, 'operations', 'leak.graphql'));
    const message = await run(project);
    expect(message).toMatch(
      /cannot read operations\/leak\.graphql: it leads \(through a symbolic link\) to .*outside\/passwd, outside the folders codegen reads/,
    );
    expect(message).not.toContain('root');
  });
});

describe('config keys of containment', () => {
  it('reports a wrong allowRead and a wrong maxInputBytes, each at its line', async () => {
    const { project } = setup(
      { 'project/api.yaml': openapi('#/components/schemas/Local') },
      'apis:\n  - input: api.yaml\n    output: out\n    allowRead: 3\n    maxInputBytes: -1\n',
    );
    const message = await run(project);
    expect(message).toContain('codegen.config.yaml:4:16: error: apis[0].allowRead: expected a folder path or a list of them');
    expect(message).toContain('codegen.config.yaml:5:20: error: apis[0].maxInputBytes: expected a positive whole number of bytes');
  });

  it('writes the handler file, inside the project, only where it really is: not through a linked folder leading out', async () => {
    const { project, outside } = setup(
      {
        'project/api.yaml': openapi('#/components/schemas/Local').replace(
          'paths: {}',
          'paths:\n  /a:\n    get:\n      operationId: getA\n      responses: { "204": { description: none } }',
        ),
      },
      'apis:\n  - input: api.yaml\n    output: out\n    emit: [types, server]\n    handlers: src/handlers.ts\n',
    );
    symlinkSync(outside, join(project, 'src'));
    const { planWrites } = await import('../generators/core/pipeline/writer.js');
    const outputs = await generate(await loadConfig(join(project, 'codegen.config.yaml')));
    await expect(planWrites(outputs)).rejects.toThrow(/refusing to write .*src\/handlers\.ts: .*src is a symbolic link to .*outside/);
    expect(readdirSync(outside)).toEqual(['secret.json']);
  });
});
