/**
 * A generated server (REST or GraphQL) as a Fastify plugin: `app.register(fastifyPlugin(listener), { prefix })`.
 * The plugin's routes hand node's request and response, as Fastify got them, to the server's
 * listener (`reply.hijack()`: Fastify writes nothing), and its content-type parsers leave bodies
 * unread, so the server reads them under its own limits (413, 408, 415) and conventions.
 * Fastify is not imported: the types below are the little of it the plugin uses.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NodeListener } from "./http-listener.js";

/** What the plugin uses of a `FastifyInstance`. @public */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    contentType: string,
    parser: (request: never, payload: IncomingMessage, done: (error: Error | null, body?: unknown) => void) => void,
  ): void;
  all(path: string, handler: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): unknown }) => void): unknown;
}

/** A Fastify plugin (`(instance, options, done)`), for `app.register`. @public */
export type FastifyPluginLike = (instance: FastifyInstanceLike, options: unknown, done: (error?: Error) => void) => void;

/**
 * A Fastify plugin serving the generated server's routes. Register it with the `prefix` its
 * routes live under (REST: the document's base path, e.g. `/v1`; GraphQL: its `path`): Fastify
 * passes the full path on, so the server's own paths stay as they are. Requests under the prefix
 * that match no route get the server's 404; Fastify's hooks (`onRequest`, …) run before it as usual.
 *
 * @example
 * const app = Fastify();
 * await app.register(fastifyPlugin(createServer(handlers, options)), { prefix: "/v1" });
 * @public
 */
export function fastifyPlugin(listener: NodeListener): FastifyPluginLike {
  return (instance, _options, done) => {
    // Encapsulated (this plugin's routes only): every body stays on the request stream for the server.
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser("*", (_request, _payload, parsed) => parsed(null));
    const handler = (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): unknown }): void => {
      reply.hijack();
      listener(request.raw, reply.raw);
    };
    instance.all("/", handler);
    instance.all("/*", handler);
    done();
  };
}
