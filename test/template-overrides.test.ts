/**
 * Templates with a purpose: a user's `templates` folder replaces any built-in template by its path,
 * and the output follows it. For each style, one template is overridden with a copy plus a line of
 * its own, and that line lands in the generated file (and nowhere else); a runtime module is
 * overridden the same way, by `runtime/<name>.ts`.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../generators/core/config/config.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { BUILTIN_RUNTIME, BUILTIN_TEMPLATES } from '../generators/core/pipeline/templates.js';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

/** Per example API: a template of its style and the output file it renders. */
const OVERRIDES = [
  { api: 'rest', template: 'openapi/client.ts.hbs', file: 'client.ts' },
  { api: 'graphql', template: 'graphql/server.ts.hbs', file: 'server.ts' },
  { api: 'grpc', template: 'proto/client.ts.hbs', file: 'client.ts' },
  { api: 'realtime', template: 'asyncapi/server.ts.hbs', file: 'server.ts' },
] as const;

describe('template overrides', async () => {
  const templates = tempDir('codegen-template-overrides-');
  for (const { template } of OVERRIDES) {
    mkdirSync(dirname(join(templates, template)), { recursive: true });
    writeFileSync(join(templates, template), `${readFileSync(join(BUILTIN_TEMPLATES, template), 'utf8')}\n// overridden: ${template}\n`);
  }
  mkdirSync(join(templates, 'runtime'));
  cpSync(join(BUILTIN_RUNTIME, 'client-common.ts'), join(templates, 'runtime', 'client-common.ts'));
  writeFileSync(join(templates, 'runtime', 'client-common.ts'), '\n// overridden: runtime/client-common.ts\n', { flag: 'a' });

  const output = tempDir('codegen-template-overrides-out-');
  const configured = await loadConfig(join(ROOT, 'codegen.config.yaml'));
  const apis = configured.map((api) => {
    const options: Record<string, unknown> = { ...api.options };
    delete options.mappers; // the example's mappers point at examples/ relative to out/
    return { ...api, options, output: join(output, basename(api.output)), templates };
  });
  const sets = await generate(apis);
  const byApi = new Map(apis.map((api, index) => [api.name, sets[index]!]));

  for (const { api, template, file } of OVERRIDES) {
    it(`${api}: ${template} overridden changes ${file}, and only it`, () => {
      const files = byApi.get(api)!.files;
      const marked = files
        .filter((generated) => generated.content.includes(`// overridden: ${template}`))
        .map((generated) => generated.path);
      expect(marked).toEqual([file]);
    });
  }

  it('a runtime module is overridden by runtime/<name>.ts, in every output that has it', () => {
    for (const set of sets) {
      const common = set.files.find((generated) => generated.path === 'runtime/client-common.ts');
      expect(common?.content).toContain('// overridden: runtime/client-common.ts');
    }
  });
});
