/**
 * The transports of the browser client, through `fetch`: gRPC-Web (binary,
 * `createGrpcWebTransport`) or Connect's protocol (JSON, readable in the network panel,
 * `createConnectWebTransport`). Two functions rather than an option, so a bundle holds only the
 * transport it uses. Browsers cannot send client or bidirectional streams over either, so the web
 * clients offer unary and server streaming only.
 */
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport as connectGrpcWebTransport } from "@connectrpc/connect-web";
import { clientInterceptors, timeoutSettings, type GrpcClientOptions } from "./grpc-client.js";

/** @public */
export interface GrpcWebClientOptions extends GrpcClientOptions {
  /** `fetch`'s `credentials`, e.g. "include" to send cookies cross-origin. */
  credentials?: RequestInit["credentials"];
}

/**
 * A gRPC-Web transport to the server at `options.baseUrl` (e.g. `https://api.example.com`).
 * @public
 */
export function createGrpcWebTransport(options: GrpcWebClientOptions): Transport {
  if ((options as { protocol?: unknown }).protocol === "connect") {
    throw new TypeError("gRPC-Web is this function's protocol; for Connect's protocol call createConnectClient(options)");
  }
  return connectGrpcWebTransport(transportSettings(options));
}

/**
 * A transport to the server at `options.baseUrl` over Connect's protocol (JSON).
 * @public
 */
export function createConnectWebTransport(options: GrpcWebClientOptions): Transport {
  return createConnectTransport(transportSettings(options));
}

function transportSettings(options: GrpcWebClientOptions) {
  const { credentials, fetch: send } = options;
  const custom =
    send === undefined && credentials === undefined
      ? {}
      : {
          // Connect calls fetch(input, init); the generated clients' `Fetch` takes one Request.
          fetch: (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
            const request = new Request(input, credentials === undefined ? init : { ...init, credentials });
            return send === undefined ? globalThis.fetch(request) : send(request);
          },
        };
  return { baseUrl: options.baseUrl, interceptors: clientInterceptors(options), ...timeoutSettings(options), ...custom };
}
