/**
 * The generated Node gRPC client bounds what it buffers: a response message over its `readMaxBytes`
 * (default 4 MiB, as grpc-js and grpc-go) fails with RESOURCE_EXHAUSTED instead of being read into
 * memory, whatever the server is willing to send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateGrpc, load } from './support/grpc-setup.js';

interface Server {
  listen(port: number, host?: string): Promise<number>;
  close(): Promise<void>;
}
interface ClientModule {
  createClient(options: object): { taskService: { updateTask(request: object): Promise<{ title: string }> }; close(): void };
  Code: Record<string, number>;
}

let server: Server;
let url: string;
let lib: ClientModule;

beforeAll(async () => {
  const { folder } = await generateGrpc('grpc-client-limits');
  const usage = await load<{ createServer(options?: object): Server }>(folder, 'usage.js');
  lib = await load<ClientModule>(folder, 'out/client.js');
  server = usage.createServer({ readMaxBytes: 16 * 1024 * 1024 });
  url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
});

afterAll(() => server.close());

describe('Node gRPC client receive limit', () => {
  const title = 'x'.repeat(5 * 1024 * 1024); // echoed back by updateTask: a 5 MiB response

  it('refuses a 5 MiB response by default with RESOURCE_EXHAUSTED', async () => {
    const client = lib.createClient({ baseUrl: url, token: 'editor', timeout: 20_000 });
    try {
      const failure = await client.taskService.updateTask({ task: { id: 't1', title } }).catch((cause: unknown) => cause);
      expect(failure).toMatchObject({ code: lib.Code.ResourceExhausted, kind: 'too-large' });
    } finally {
      client.close();
    }
  });

  it('reads it when readMaxBytes allows', async () => {
    const client = lib.createClient({ baseUrl: url, token: 'editor', timeout: 20_000, readMaxBytes: 8 * 1024 * 1024 });
    try {
      const updated = await client.taskService.updateTask({ task: { id: 't1', title } });
      expect(updated.title.length).toBe(title.length);
    } finally {
      client.close();
    }
  });
});
