/**
 * The protos under ../shared/corpus/protobuf with everything codegen writes for services: server,
 * Node and browser clients next to the messages (health, channelz, route_guide, helloworld...),
 * type-checked under strict with both compilers. The message side alone is covered, with
 * run-time checks, in proto-messages.test.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiConfig } from '../generators/core/config/config.js';
import { generate } from '../generators/core/pipeline/generate.js';
import { applyPlan, planWrites } from '../generators/core/pipeline/writer.js';
import { ROOT } from './support/cli.js';
import { COMPILERS, STRICTEST, typecheck } from './support/typecheck.js';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'protobuf');

/** The set's own protos: not the copies of google/ files it carries, unless `google/` is the set. */
function protoFiles(dir: string, skip = 'google/'): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.proto') && !file.startsWith(skip))
    .sort()
    .map((file) => join(dir, file));
}

describe('corpus: services of protos written by others', async () => {
  // googleapis-visible: Cloud Tasks, Secret Manager, Datastore, IAM with google.api annotations,
  // over the proto2 descriptor.proto of its include path (the well-known copies are not inputs).
  const sets = [
    { name: 'grpc-proto', skip: 'google/' },
    { name: 'grpc-examples', skip: 'google/' },
    { name: 'googleapis-visible', skip: 'google/protobuf/' },
  ].map(({ name, skip }) => ({ name, skip, include: join(CORPUS, name) }));
  mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
  const out = mkdtempSync(join(ROOT, '.vitest-tmp', 'proto-services-'));
  const apis: ApiConfig[] = sets.map((set) => ({
    name: set.name,
    inputs: protoFiles(set.include, set.skip),
    documents: [],
    style: 'proto',
    output: join(out, set.name),
    emit: ['types', 'client', 'server'],
    options: { includePaths: [set.include] },
    root: ROOT,
  }));
  const outputs = await generate(apis);
  await applyPlan(await planWrites(outputs));

  it('writes a server and both clients for every set with services', () => {
    for (const { files } of outputs) {
      expect(files.map((file) => file.path)).toEqual(expect.arrayContaining(['server.ts', 'client.ts', 'client-web.ts']));
    }
    const examples = outputs[1].files.find((file) => file.path === 'server.ts')!.content;
    expect(examples).toContain('export interface RouteGuideHandlers');
    expect(examples).toContain('export interface GreeterHandlers');
    const googleapis = outputs[2].files.find((file) => file.path === 'server.ts')!.content;
    for (const service of ['CloudTasks', 'SecretManagerService', 'Datastore', 'IAMPolicy'])
      expect(googleapis).toContain(`export interface ${service}Handlers`);
  });

  for (const [name, compiler] of Object.entries(COMPILERS)) {
    it(`type-checks under strict with ${name}`, () => {
      const result = typecheck(out, compiler, 'node', undefined, STRICTEST);
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    }, 180_000);
  }
});
