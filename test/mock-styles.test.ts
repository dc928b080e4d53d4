/**
 * `startMock` (what `codegen mock` runs) on the example's GraphQL and proto APIs: the command
 * generates, transpiles and serves them through bin/mock-graphql-grpc.ts, and each answers a
 * request from its schema (GraphQL over HTTP; Connect's JSON protocol for the gRPC service).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../bin/mock.js';
import { loadConfig } from '../generators/core/config/config.js';
import { ROOT } from './support/cli.js';

const apis = await loadConfig(join(ROOT, 'codegen.config.yaml'));
const api = (name: string) => {
  const found = apis.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`codegen.config.yaml has no API named ${name}`);
  return found;
};
const running: RunningMock[] = [];
afterAll(() => Promise.all(running.map((mock) => mock.close())));

describe('codegen mock for every style', () => {
  it('serves the GraphQL example from its schema', { timeout: 120_000 }, async () => {
    const mock = await startMock(api('graphql'), { seed: 1, port: 0 });
    running.push(mock);
    const response = await fetch(`${mock.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer any' },
      body: JSON.stringify({ query: '{ task(id: "t-1") { id title } }' }),
    });
    const body = (await response.json()) as { data: { task: { id: string; title: string } } };
    expect(body.data.task.id).toBe('t-1');
    expect(typeof body.data.task.title).toBe('string');
  });

  it('serves the proto example from its descriptors', { timeout: 120_000 }, async () => {
    const mock = await startMock(api('grpc'), { seed: 1, port: 0 });
    running.push(mock);
    const response = await fetch(`${mock.url}/acme.tasks.v1.TaskService/GetTask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 't-1' }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe('t-1');
  });
});
