/**
 * The transport of the Node gRPC client: gRPC over HTTP/2 (cleartext for `http://` URLs, TLS for
 * `https://`), one HTTP/2 session shared by every service client made from it.
 */
import type { Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { clientInterceptors, timeoutSettings, type GrpcClientOptions } from "./grpc-client.js";

/**
 * `fetch` is left out: it cannot send gRPC over HTTP/2 (no trailers, no request streams), so the
 * Node client has its own HTTP/2 session. Browsers' clients (client-web.ts) take `fetch`.
 * @public
 */
export interface GrpcNodeClientOptions extends Omit<GrpcClientOptions, "fetch"> {
  /**
   * Largest response message accepted, in bytes (the server's option of the same name limits
   * requests); a larger one fails the call with RESOURCE_EXHAUSTED before it is buffered.
   * Default 4 MiB, as in grpc-js and grpc-go.
   */
  readMaxBytes?: number;
}

/** grpc-js's and grpc-go's default receive limit. */
const DEFAULT_READ_MAX_BYTES = 4 * 1024 * 1024;

/** @public */
export interface GrpcNodeTransport {
  /** Connect's transport, for Connect's `createClient` of other services. */
  readonly transport: Transport;
  /** Closes the HTTP/2 session; calls in flight fail with CANCELED. */
  close(): void;
}

/**
 * A transport to the gRPC server at `options.baseUrl`; aborting `options.signal` closes it too.
 * @public
 */
export function createNodeTransport(options: GrpcNodeClientOptions): GrpcNodeTransport {
  const sessionManager = new Http2SessionManager(options.baseUrl);
  const transport = createGrpcTransport({
    baseUrl: options.baseUrl,
    sessionManager,
    readMaxBytes: options.readMaxBytes ?? DEFAULT_READ_MAX_BYTES,
    interceptors: clientInterceptors(options),
    ...timeoutSettings(options),
  });
  const close = (): void => sessionManager.abort();
  options.signal?.addEventListener("abort", close, { once: true });
  return { transport, close };
}
