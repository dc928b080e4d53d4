/**
 * A generated server (REST or GraphQL) as Koa middleware: `app.use(koaMiddleware(listener))`.
 * Requests the server serves are answered by its listener (on `ctx.req`/`ctx.res`, with
 * `ctx.respond = false` so Koa writes nothing); the others go on to `next()`. A body that a
 * body parser mounted earlier has read (`ctx.request.body`) is taken from there.
 * Koa is not imported: the types below are the little of it the middleware uses.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NodeListener } from "./http-listener.js";
import { finished } from "node:stream";

/** What the middleware uses of a Koa `Context`. @public */
export interface KoaContextLike {
  req: IncomingMessage;
  res: ServerResponse;
  respond?: boolean | undefined;
  request: { body?: unknown };
}

/** Koa middleware: its promise settles once the server has answered, or with what `next()` returns. @public */
export type KoaMiddlewareLike = (context: KoaContextLike, next: () => Promise<unknown>) => Promise<void>;

/**
 * Koa middleware serving the generated server's routes (REST: under `basePath`, by default the
 * document's; GraphQL: its `path`). Put it before a body parser, or after one: either way the body is read once.
 *
 * @example
 * const app = new Koa();
 * app.use(koaMiddleware(createServer(handlers, options)));
 * @public
 */
export function koaMiddleware(listener: NodeListener): KoaMiddlewareLike {
  return (context, next) =>
    new Promise<void>((resolve, reject) => {
      const { req, res } = context;
      const parsed = context.request.body;
      if (parsed !== undefined && (req as { body?: unknown }).body === undefined) (req as { body?: unknown }).body = parsed;
      let passed = false;
      listener(req, res, (error) => {
        passed = true;
        if (error !== undefined) reject(error);
        else next().then(() => resolve(), reject);
      });
      if (passed) return;
      // The server answers this one (now or later): Koa must not, and upstream middleware resumes once it has.
      context.respond = false;
      finished(res, () => resolve());
    });
}
