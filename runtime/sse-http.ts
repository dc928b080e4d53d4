/**
 * The plain-HTTP side of the SSE endpoint: refusals as Problem Details (RFC 9457), request bodies
 * read with a size limit, and bearer tokens (CORS is runtime/cors-policy.ts). Nothing here knows
 * about streams.
 */
import { Buffer } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";

/** Thrown by hooks to answer with a status instead of a stream (e.g. 404 for an unknown room). */
export class SseHttpError extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, title: string, init: { detail?: string; headers?: Record<string, string> } = {}) {
    super(title);
    this.name = "SseHttpError";
    this.status = status;
    this.detail = init.detail;
    this.headers = init.headers ?? {};
  }
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.authorization ?? "");
  return match ? match[1] : undefined;
}

/**
 * Reads a body as UTF-8 text, in linear time: more than `limit` bytes → 413, not complete within
 * `timeoutMs` → 408. On either the rest is discarded unread and the connection closes.
 */
export function readBody(request: IncomingMessage, limit: number, timeoutMs = 30_000): Promise<string> {
  const tooLarge = () =>
    new SseHttpError(413, "Content Too Large", { detail: `The body may have at most ${limit} bytes.`, headers: { connection: "close" } });
  if (Number(request.headers["content-length"] ?? 0) > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: SseHttpError | undefined): void => {
      if (timer !== undefined) clearTimeout(timer);
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      if (error === undefined) return resolve(Buffer.concat(chunks, size).toString("utf8"));
      // Discard what is still in flight, so the answer is not lost to a TCP reset.
      request.resume();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(undefined);
    const onError = (): void =>
      finish(new SseHttpError(400, "Bad Request", { detail: "The body could not be read.", headers: { connection: "close" } }));
    // A body that has arrived whole cannot be late: no timer to arm and clear.
    const timer = request.complete
      ? undefined
      : setTimeout(
          () =>
            finish(
              new SseHttpError(408, "Request Timeout", {
                detail: `The body did not arrive within ${timeoutMs} ms.`,
                headers: { connection: "close" },
              }),
            ),
          timeoutMs,
        );
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}

/** Answers with a Problem Details body (RFC 9457); nothing internal is in it. */
export function writeProblem(response: ServerResponse, problem: SseHttpError, cors: Readonly<Record<string, string>>): void {
  const body = JSON.stringify({ type: "about:blank", title: problem.message, status: problem.status, detail: problem.detail });
  const headers = Object.assign(
    { "content-type": "application/problem+json", "content-length": String(Buffer.byteLength(body)) },
    cors,
    problem.headers,
  );
  response.writeHead(problem.status, headers).end(body);
}
