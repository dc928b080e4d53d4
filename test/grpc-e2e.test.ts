/**
 * The gRPC example end to end: `node dist/examples/grpc/main.js` (what `npm run example:grpc`
 * runs) on 127.0.0.1 with PORT=0, called on its one port by the generated Node client (gRPC over
 * HTTP/2, all four call modes), by plain `fetch` (Connect's JSON protocol over HTTP/1.1), and asked
 * for its health; then stopped with SIGTERM, which it answers with exit code 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT } from './support/cli.js';
import { importDist, startExample, type RunningExample } from './support/e2e-example.js';

type ClientModule = typeof import('../out/grpc/client.js');

let lib: ClientModule;
let example: RunningExample;

beforeAll(async () => {
  lib = await importDist<ClientModule>('out/grpc/client.js');
  example = await startExample({}, join(ROOT, 'dist', 'examples', 'grpc', 'main.js'));
});

afterAll(async () => {
  const { code } = await example.stop();
  expect(code).toBe(0);
});

function client(token = 'demo-token') {
  const client = lib.createClient({ baseUrl: example.url, token, timeout: 5_000 });
  return { api: client.taskService, close: () => client.close() };
}

async function* tasks(titles: string[]) {
  for (const title of titles) yield { projectId: 'p-e2e', title };
}

describe('the gRPC example with the generated Node client', () => {
  it('runs all four call modes over HTTP/2', async () => {
    const { api, close } = client();
    try {
      const imported = await api.importTasks(tasks(['one', 'two', 'three']));
      expect(imported.created).toBe(3);
      const first = await api.getTask({ id: imported.ids[0] });
      expect(first).toMatchObject({ id: imported.ids[0], projectId: 'p-e2e', title: 'one' });

      const listed: string[] = [];
      for await (const task of api.listTasks({ projectId: 'p-e2e' })) listed.push(task.title);
      expect(listed).toEqual(['one', 'two', 'three']);

      const created = await api.createTask({ task: { projectId: 'p-e2e', title: 'four', estimateMinutes: 90n } });
      expect(created.estimateMinutes).toBe(90n);
      expect(created.createTime).toBeDefined();

      // Bidi: send one change, read until our own change comes back.
      const outgoing = (async function* () {
        yield { kind: 2, task: { id: created.id, projectId: 'p-e2e', title: 'four, renamed' } };
        await new Promise((resolve) => setTimeout(resolve, 200));
      })();
      let echoed: string | undefined;
      for await (const event of api.syncTasks(outgoing)) {
        if (event.task?.id === created.id) {
          echoed = event.task.title;
          break;
        }
      }
      expect(echoed).toBe('four, renamed');
    } finally {
      close();
    }
  });

  it('answers each failure with its status code', async () => {
    const reader = client('reader-token');
    const stranger = client('wrong-token');
    try {
      const missing = await reader.api.getTask({ id: 'missing' }).catch((error: unknown) => error);
      // The error every generated client throws, carrying Connect's status and the ConnectError it came from.
      expect(missing).toBeInstanceOf(lib.GrpcError);
      expect(lib.isClientError(missing, 'response')).toBe(true);
      expect(missing).toMatchObject({ code: lib.Code.NotFound, operation: 'acme.tasks.v1.TaskService/GetTask' });
      expect((missing as InstanceType<typeof lib.GrpcError>).cause).toBeInstanceOf(lib.ConnectError);
      await expect(reader.api.createTask({ task: { projectId: 'p', title: 'x' } })).rejects.toMatchObject({
        code: lib.Code.PermissionDenied,
      });
      await expect(stranger.api.getTask({ id: 'missing' })).rejects.toMatchObject({ code: lib.Code.Unauthenticated });
    } finally {
      reader.close();
      stranger.close();
    }
  });

  it('serves the same method as JSON over HTTP/1.1 on the same port', async () => {
    const { api, close } = client();
    const created = await api.createTask({ task: { projectId: 'p-json', title: 'over JSON', labels: ['a'] } });
    close();
    const response = await fetch(`${example.url}/acme.tasks.v1.TaskService/GetTask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token' },
      body: JSON.stringify({ id: created.id }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: created.id, projectId: 'p-json', title: 'over JSON', labels: ['a'] });
  });

  it('reports SERVING on grpc.health.v1 without credentials', async () => {
    const response = await fetch(`${example.url}/grpc.health.v1.Health/Check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'acme.tasks.v1.TaskService' }),
    });
    expect(await response.json()).toEqual({ status: 'SERVING' });
  });
});
