/**
 * Nothing expensive before authentication: who calls, and whether they may, is decided from the
 * request headers alone, before any body is read or buffered, on every protocol and both call paths.
 * A refusal is answered in the protocol the request speaks (gRPC and gRPC-Web: the status in the
 * headers, "Trailers-Only"; Connect: its JSON error, or an end-stream message for a stream), and the
 * body stays unread: on HTTP/2 the stream is reset with NO_ERROR after the answer (as grpc-go does);
 * on HTTP/1.1 Node discards what follows without keeping it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { IncomingHttpHeaders, Http2ServerRequest, Http2ServerResponse, OutgoingHttpHeaders, ServerHttp2Stream } from "node:http2";
import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { codeToHttpStatus, endStreamFlag, endStreamToJson, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { admit, type Admitted, type Hooks } from "./grpc-call.js";
import { resetUnreadRequest } from "./grpc-limits.js";

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

/** Where an admitted (or unguarded) request goes: `admitted` is undefined when no hook applies. */
export type AdmittedHandler = (request: Request, response: Response, admitted: Admitted | undefined) => void;

/**
 * A request listener that runs the auth hooks of `guarded` methods (by path) on the headers, then
 * hands the request to `next`, or refuses it without reading its body.
 */
export function admission(
  guarded: ReadonlyMap<string, DescMethod>,
  hooks: Hooks,
  next: AdmittedHandler,
): (request: Request, response: Response) => void {
  if (hooks.authenticate === undefined) return (request, response) => next(request, response, undefined);
  return (request, response) => {
    const method = guarded.get(pathOf(request.url ?? ""));
    if (method === undefined) return next(request, response, undefined); // health checks, unknown paths
    admit(method, metadataOf(request.headers), hooks).then(
      (admitted) => next(request, response, admitted),
      (error: unknown) => refuse(request, response, refusal(error, method, hooks)),
    );
  };
}

/** Where an admitted gRPC call on a bare HTTP/2 stream goes, with what routed it (`grpc-http2.ts`). */
export type AdmittedStreamHandler<Route> = (
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  route: Route,
  admitted: Admitted | undefined,
) => void;

/** `admission` for the gRPC calls `grpc-http2.ts` serves on their streams: refusals are Trailers-Only. */
export function streamAdmission<Route>(
  guarded: ReadonlyMap<string, DescMethod>,
  hooks: Hooks,
  next: AdmittedStreamHandler<Route>,
): (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, route: Route) => void {
  if (hooks.authenticate === undefined) return (stream, headers, route) => next(stream, headers, route, undefined);
  return (stream, headers, route) => {
    const method = guarded.get(headers[":path"] ?? "");
    if (method === undefined) return next(stream, headers, route, undefined); // health checks
    admit(method, metadataOf(headers), hooks).then(
      (admitted) => next(stream, headers, route, admitted),
      (error: unknown) => {
        if (stream.destroyed || stream.closed) return;
        stream.respond(
          { ":status": 200, ...grpcStatusHeaders(String(headers["content-type"]), refusal(error, method, hooks)) },
          { endStream: true },
        );
        resetUnreadRequest(stream);
      },
    );
  };
}

/** A hook's rejection as the status to answer: a `ConnectError` as it is, anything else INTERNAL. */
function refusal(error: unknown, method: DescMethod, hooks: Hooks): ConnectError {
  if (error instanceof ConnectError) return error;
  // A hook that throws something else is a bug: logged here, never sent (as for handlers).
  hooks.onError(error, method);
  return new ConnectError("internal error", Code.Internal);
}

/** A gRPC Trailers-Only answer's headers (content type and status) for `error`. */
function grpcStatusHeaders(contentType: string, error: ConnectError): OutgoingHttpHeaders {
  const status: OutgoingHttpHeaders = { "content-type": contentType };
  for (const [name, value] of setTrailerStatus(new Headers(), error)) status[name] = value;
  return status;
}

/** Answers `error` in the request's protocol without reading its body; see the file's comment. */
export function refuse(request: Request, response: Response, error: ConnectError): void {
  if (response.headersSent || response.writableEnded) return;
  const type = String(request.headers["content-type"] ?? "");
  if (/^application\/grpc/i.test(type)) {
    // gRPC and gRPC-Web alike: Trailers-Only, one HEADERS frame (or head) with the status, no body.
    const status = grpcStatusHeaders(type, error);
    if (request.httpVersionMajor === 2) {
      const stream = (response as Http2ServerResponse).stream;
      if (stream.destroyed || stream.closed) return;
      stream.respond({ ...response.getHeaders(), ...status, ":status": 200 }, { endStream: true });
    } else {
      (response as ServerResponse).writeHead(200, status).end();
    }
  } else if (/^application\/connect\+/i.test(type)) {
    // A Connect stream: HTTP 200 and the error in the end-stream message.
    const json = Buffer.from(JSON.stringify(endStreamToJson(new Headers(), error, undefined)));
    const message = Buffer.allocUnsafe(5 + json.length);
    message[0] = endStreamFlag;
    message.writeUInt32BE(json.length, 1);
    json.copy(message, 5);
    (response as ServerResponse).writeHead(200, { "content-type": type }).end(message);
  } else {
    // Connect unary (POST or GET): the code's HTTP status and the JSON error.
    (response as ServerResponse)
      .writeHead(codeToHttpStatus(error.code), { "content-type": "application/json" })
      .end(errorToJsonBytes(error, undefined));
  }
  if (request.httpVersionMajor === 2) resetUnreadRequest((response as Http2ServerResponse).stream);
}

/** Request headers as `Headers`, without HTTP/2 pseudo-headers. */
export function metadataOf(headers: IncomingHttpHeaders): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(":") || value === undefined) continue;
    if (typeof value === "string") result.append(name, value);
    else for (const item of value) result.append(name, item);
  }
  return result;
}

/** `/pkg.Service/Method` of `/pkg.Service/Method?query` (Connect's GET requests carry a query). */
function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
