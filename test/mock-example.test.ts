/**
 * `codegen mock` on the example (schemas/openapi/tasks.yaml): the mock is the generated server, so
 * its conventions hold (pagination links, ETag and 304, Problem Details for an invalid request,
 * 401 without credentials); bodies depend only on the seed; and the CLI command serves it until
 * SIGINT.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../bin/mock.js';
import { loadConfig } from '../generators/core/config/config.js';
import { codegen, ROOT } from './support/cli.js';

const [rest] = (await loadConfig(join(ROOT, 'codegen.config.yaml'))).filter((api) => api.name === 'rest');
if (!rest) throw new Error('codegen.config.yaml has no API named rest');
const auth = { authorization: 'Bearer any-token' };
const PROJECT = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

const mocks: RunningMock[] = [];
async function mock(seed: number): Promise<RunningMock> {
  const started = await startMock(rest as NonNullable<typeof rest>, { seed, port: 0 });
  mocks.push(started);
  return started;
}
afterAll(() => Promise.all(mocks.map((started) => started.close())));

async function bodies(server: RunningMock): Promise<string[]> {
  const paths = ['/v1/projects', `/v1/projects/${PROJECT}`, `/v1/projects/${PROJECT}/tasks`, `/v1/tasks/${PROJECT}`];
  return Promise.all(paths.map(async (path) => (await fetch(new URL(path, server.url), { headers: auth })).text()));
}

describe('codegen mock on the example', () => {
  it('keeps the conventions: Link, ETag and 304, Problem Details, 401', { timeout: 120_000 }, async () => {
    const server = await mock(1);
    expect(server.warnings.filter((warning) => warning.message.startsWith('mock:'))).toEqual([]);

    const page = await fetch(new URL(`/v1/projects/${PROJECT}/tasks?limit=2`, server.url), { headers: auth });
    expect(page.status).toBe(200);
    const body = (await page.json()) as { items: unknown[]; nextCursor: string | null };
    expect(typeof body.nextCursor).toBe('string');
    expect(page.headers.get('link')).toContain('rel="next"');
    expect(page.headers.get('link')).toContain(`cursor=${encodeURIComponent(body.nextCursor ?? '')}`);

    const task = await fetch(new URL(`/v1/tasks/${PROJECT}`, server.url), { headers: auth });
    expect(task.status).toBe(200);
    const etag = task.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const again = await fetch(new URL(`/v1/tasks/${PROJECT}`, server.url), { headers: { ...auth, 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);

    const invalid = await fetch(new URL('/v1/projects/not-a-uuid/tasks?limit=1000', server.url), { headers: auth });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await invalid.json()) as { errors: { pointer: string }[] };
    expect(problem.errors.map((error) => error.pointer).sort()).toEqual(['/path/projectId', '/query/limit']);

    const invalidBody = await fetch(new URL('/v1/projects', server.url), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 42 }),
    });
    expect(invalidBody.status).toBe(422);

    const anonymous = await fetch(new URL(`/v1/tasks/${PROJECT}`, server.url));
    expect(anonymous.status).toBe(401);
  });

  it('answers the same bodies for the same seed, other bodies for another', { timeout: 120_000 }, async () => {
    const [first, same, other] = await Promise.all([mock(1), mock(1), mock(2)]);
    const [a, b, c] = await Promise.all([bodies(first), bodies(same), bodies(other)]);
    expect(b).toEqual(a);
    for (const [index, text] of (c ?? []).entries()) expect(text).not.toBe(a?.[index]);
  });

  it('serves from the command line until SIGINT', { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'codegen.js'), 'mock', 'rest', '--port', '0', '--seed', '3'], { cwd: ROOT });
    // A failed expectation must not leave the server running.
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const found = /on (http:\/\/\S+)/.exec(output)?.[1];
          if (found) resolve(found);
        });
        child.once('exit', (code) => reject(new Error(`codegen mock exited with ${code}: ${output}`)));
      });
      const response = await fetch(new URL('/v1/projects', url), { headers: auth });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
      // A second mock on the same port: a usage error naming the port, not a stack trace.
      const taken = codegen(['mock', 'rest', '--port', new URL(url).port]);
      expect(taken.code).toBe(2);
      expect(taken.stderr).toContain(`port ${new URL(url).port} is in use`);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
