/**
 * The SSE runtime (runtime/sse-*.ts) for the tests, which import its modules themselves: the modules
 * a server and a client need (copied where a check needs them on disk: the strict type-checks, the
 * browser page), and the runtime's generic types instantiated for events of any name and payload.
 */
import type { SseClient, SseEvent } from '../../runtime/sse-client.js';
import type { SseEndpoint, SseEndpointOptions, Validator } from '../../runtime/sse-server.js';

export const SSE_SERVER_FILES = ['cors-policy', 'client-limits', 'sse-format', 'sse-store', 'http-body', 'sse-http', 'sse-server'] as const;
export const SSE_CLIENT_FILES = ['client-common', 'sse-client'] as const;
export const SSE_FILES = [...SSE_SERVER_FILES, ...SSE_CLIENT_FILES] as const;

/** An event map accepting any event name and payload, as the tests send them. */
export type AnyEvents = Record<string, unknown>;
export type EndpointOptions = SseEndpointOptions<AnyEvents>;
export type Endpoint = SseEndpoint<AnyEvents>;
export type Client = SseClient<AnyEvents>;
export type ClientEvent = SseEvent<AnyEvents>;
export type AnyValidator = Validator<unknown>;
