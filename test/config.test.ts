import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../generators/core/config/config.js';
import { tempDir } from './support/tmp.js';

function configFile(name: string, text: string): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'schemas'));
  writeFileSync(join(dir, 'schemas', 'api.yaml'), 'openapi: 3.1.0\n');
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

describe('config', () => {
  it('applies defaults and resolves paths against the config folder', async () => {
    const file = configFile('codegen.config.yaml', 'apis:\n  - input: schemas/api.yaml\n    output: out/api\n');
    const [api] = await loadConfig(file);
    expect(api.name).toBe('api');
    expect(api.style).toBe('openapi');
    expect(api.emit).toEqual(['types', 'validators', 'client']);
    expect(api.output).toBe(join(file, '..', 'out', 'api'));
  });

  it('reports unknown keys and wrong types with their path and line:col', async () => {
    const file = configFile(
      'codegen.config.yaml',
      [
        'apis:',
        '  - input: schemas/api.yaml',
        '    output: out/api',
        '    emitt: [types]',
        '    emit: [types, server2]',
        '    templates: 3',
      ].join('\n'),
    );
    const problem = await loadConfig(file).catch((error: Error) => error.message);
    expect(problem).toContain('codegen.config.yaml:4:5: error: apis[0].emitt: unknown key "emitt"');
    expect(problem).toContain('codegen.config.yaml:5:19: error: apis[0].emit[1]: unknown output "server2"');
    expect(problem).toContain('codegen.config.yaml:6:16: error: apis[0].templates: expected a folder path');
  });

  it('locates errors in JSON configs too', async () => {
    const file = configFile('codegen.config.json', '{\n  "apis": [\n    { "input": "schemas/api.yaml", "output": 5 }\n  ]\n}\n');
    await expect(loadConfig(file)).rejects.toThrow(/codegen\.config\.json:3:46: error: apis\[0\]\.output: expected the output folder/);
  });

  it('refuses an output folder that would hold the config itself', async () => {
    const file = configFile('codegen.config.yaml', 'apis:\n  - input: schemas/api.yaml\n    output: .\n');
    await expect(loadConfig(file)).rejects.toThrow(/must not contain the config folder/);
  });

  it('refuses two APIs writing to one folder', async () => {
    const file = configFile(
      'codegen.config.yaml',
      'apis:\n  - { name: a, input: schemas/api.yaml, output: out }\n  - { name: b, input: schemas/api.yaml, output: out }\n',
    );
    await expect(loadConfig(file)).rejects.toThrow(/also used by API "a"/);
  });
});
