/**
 * The plain-HTTP side of the SSE endpoint: refusals as Problem Details (RFC 9457), request bodies
 * read with a size limit, and bearer tokens (CORS is runtime/cors-policy.ts). Nothing here knows
 * about streams.
 */
import { Buffer } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type BodyRefusals, readBody as readLimitedBody } from "./http-body.js";

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
 * Reads a body as UTF-8 text (runtime/http-body.ts): more than `limit` bytes → 413, not complete
 * within `timeoutMs` → 408. On either the rest is discarded unread and the connection closes.
 */
export function readBody(request: IncomingMessage, limit: number, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) =>
    readLimitedBody(request, limit, timeoutMs, REFUSALS, (refusal, body) =>
      refusal === undefined ? resolve(body.toString("utf8")) : reject(refusal),
    ),
  );
}

const REFUSALS: BodyRefusals<SseHttpError> = {
  tooLarge: (limit) =>
    new SseHttpError(413, "Content Too Large", { detail: `The body may have at most ${limit} bytes.`, headers: { connection: "close" } }),
  late: (timeout) =>
    new SseHttpError(408, "Request Timeout", { detail: `The body did not arrive within ${timeout} ms.`, headers: { connection: "close" } }),
  broken: () => new SseHttpError(400, "Bad Request", { detail: "The body could not be read.", headers: { connection: "close" } }),
};

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
