/**
 * The checks of a WebSocket upgrade request that come before `ws` answers 101: the path and the
 * subprotocol (the `Origin` is checked by runtime/cors-policy.ts, as for HTTP: WebSocket has no
 * same-origin policy, so a page of any site may open a socket to this server with the user's cookies). A refusal is an ordinary HTTP answer on
 * the raw socket, and no WebSocket ever exists.
 */
import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

/** Parameters of a matched path, by the names of the template's `{placeholders}`. */
export type PathParams = Readonly<Record<string, string>>;

/**
 * A matcher for a channel address such as `/rooms/{roomId}`: a placeholder matches one non-empty
 * segment, percent-decoded. The query string is ignored (it may carry a token).
 */
export function compilePath(template: string): (url: string | undefined) => PathParams | undefined {
  const expected = template.split("/");
  return (url) => {
    const target = url ?? "/";
    const query = target.indexOf("?");
    const segments = (query === -1 ? target : target.slice(0, query)).split("/");
    if (segments.length !== expected.length) return undefined;
    const params: Record<string, string> = {};
    for (let i = 0; i < expected.length; i++) {
      const part = expected[i]!;
      const segment = segments[i]!;
      if (part.startsWith("{") && part.endsWith("}")) {
        if (segment === "") return undefined;
        try {
          params[part.slice(1, -1)] = decodeURIComponent(segment);
        } catch {
          return undefined;
        }
      } else if (part !== segment) {
        return undefined;
      }
    }
    return params;
  };
}

/**
 * The subprotocol to agree on: the first of the server's `supported` list (its preference order)
 * that the client offered. `false` when they share none, or when the server declares none: then
 * no `Sec-WebSocket-Protocol` is answered, never one the server does not speak.
 */
export function chooseProtocol(offered: ReadonlySet<string>, supported: readonly string[]): string | false {
  for (const protocol of supported) if (offered.has(protocol)) return protocol;
  return false;
}

/** The subprotocols a handshake offers (`Sec-WebSocket-Protocol: a, b`). */
export function offeredProtocols(request: IncomingMessage): Set<string> {
  const header = request.headers["sec-websocket-protocol"];
  const offered = new Set<string>();
  if (header === undefined) return offered;
  for (const token of header.split(",")) {
    const protocol = token.trim();
    if (protocol !== "") offered.add(protocol);
  }
  return offered;
}

/**
 * Answers an upgrade request with a plain HTTP error and closes the socket. Browsers report it as
 * a failed connection (close code 1006) without the status; other clients see the status.
 */
export function refuseUpgrade(socket: Duplex, status: number, message: string, headers: Readonly<Record<string, string>> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${message}\n`;
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  socket.once("finish", () => socket.destroy());
  socket.end(`${head}\r\n${body}`);
}
