/**
 * Nothing expensive before authentication: who calls, and whether they may, is decided from the
 * request headers alone, before any body is read or buffered, on every protocol and both call paths.
 * A refusal is answered in the protocol the request speaks (gRPC and gRPC-Web: the status in the
 * headers, "Trailers-Only"; Connect: its JSON error, or an end-stream message for a stream), and the
 * body stays unread: on HTTP/2 the stream is reset with NO_ERROR after the answer (as grpc-go does);
 * on HTTP/1.1 Node discards what follows without keeping it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse, OutgoingHttpHeaders } from "node:http2";
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
    admit(method, metadataOf(request), hooks).then(
      (admitted) => next(request, response, admitted),
      (error: unknown) => {
        let refusal: ConnectError;
        if (error instanceof ConnectError) refusal = error;
        else {
          // A hook that throws something else is a bug: logged here, never sent (as for handlers).
          hooks.onError(error, method);
          refusal = new ConnectError("internal error", Code.Internal);
        }
        refuse(request, response, refusal);
      },
    );
  };
}

/** Answers `error` in the request's protocol without reading its body; see the file's comment. */
export function refuse(request: Request, response: Response, error: ConnectError): void {
  if (response.headersSent || response.writableEnded) return;
  const type = String(request.headers["content-type"] ?? "");
  if (/^application\/grpc/i.test(type)) {
    // gRPC and gRPC-Web alike: Trailers-Only, one HEADERS frame (or head) with the status, no body.
    const status: OutgoingHttpHeaders = { "content-type": type };
    for (const [name, value] of setTrailerStatus(new Headers(), error)) status[name] = value;
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

/** The request headers as `Headers`, without HTTP/2 pseudo-headers. */
export function metadataOf(request: Request): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
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
