/**
 * What every style's generated `mock.ts` exports as `serveMock`, and how it listens: `codegen mock`
 * imports the generated module, calls `serveMock({ port })` and prints the URL; tests call it too.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** @public */
export interface MockOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Milliseconds between the messages a mock sends by itself (realtime channels); default 1000. */
  intervalMs?: number;
}

/** @public */
export interface MockServer {
  /** `http://host:port`, without the API's base path. */
  url: string;
  /** Stops listening and ends open connections (streams included). */
  close(): Promise<void>;
}

/** Listens with `server` as `options` say; resolves once it accepts connections. */
export function listenMock(server: Server, options: MockOptions = {}): Promise<MockServer> {
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      const close = () =>
        new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
      resolve({ url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`, close });
    });
  });
}
