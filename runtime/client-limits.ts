/**
 * Per-client limits of what stays open (SSE streams, WebSockets): who a client is, and how many
 * of them it holds. Without them one client could take every slot of the global limit, and
 * everyone else would be refused with it.
 *
 * A client is its principal when authentication found one with an identity (a string or a number,
 * or an object's `id` or `sub`, as the REST server's idempotency scope), else its client key: by
 * default the socket's remote address, as the REST server's and GraphQL's rate limits key clients.
 * Behind a reverse proxy every client has the proxy's address: pass a `clientKey` that reads the
 * address the proxy forwards (`X-Forwarded-For`, from a proxy you trust).
 */
import type { IncomingMessage } from "node:http";

/** The identity of a principal: itself when a string or number, else its `id` or `sub` field. */
export function principalIdentity(principal: unknown): string | undefined {
  if (typeof principal === "string" || typeof principal === "number") return String(principal);
  if (typeof principal === "object" && principal !== null) {
    const fields = principal as Record<string, unknown>;
    for (const field of ["id", "sub"]) {
      const value = fields[field];
      if (typeof value === "string" || typeof value === "number") return String(value);
    }
  }
  return undefined;
}

/**
 * Who `request` comes from: `principal:<identity>` when `principal` has one, else
 * `client:<clientKey(request)>` (default: the remote address).
 */
export function clientOf(request: IncomingMessage, principal: unknown, clientKey?: (request: IncomingMessage) => string): string {
  const identity = principalIdentity(principal);
  if (identity !== undefined) return `principal:${identity}`;
  return `client:${clientKey ? clientKey(request) : (request.socket?.remoteAddress ?? "unknown")}`;
}

/** Open things (streams, sockets, handshakes in progress), in all and per client. */
export class OpenCounts {
  private total = 0;
  private readonly perClient = new Map<string, number>();

  /** @throws RangeError when a limit is not a positive integer (`Infinity` for no global limit). */
  constructor(
    readonly max: number,
    readonly maxPerClient: number,
  ) {
    if (!(max === Infinity || (Number.isSafeInteger(max) && max >= 1)))
      throw new RangeError(`the global limit must be a positive integer, not ${max}`);
    if (!Number.isSafeInteger(maxPerClient) || maxPerClient < 1)
      throw new RangeError(`the per-client limit must be a positive integer, not ${maxPerClient}`);
  }

  /** Counts one more for `client`, or says which limit refuses it (nothing is counted then). */
  admit(client: string): "total" | "client" | undefined {
    const mine = this.perClient.get(client) ?? 0;
    if (this.total >= this.max) return "total";
    if (mine >= this.maxPerClient) return "client";
    this.total++;
    this.perClient.set(client, mine + 1);
    return undefined;
  }

  /** Gives back what `admit` counted for `client`; call it once per admitted one. */
  release(client: string): void {
    this.total--;
    const mine = (this.perClient.get(client) ?? 1) - 1;
    if (mine > 0) this.perClient.set(client, mine);
    else this.perClient.delete(client);
  }

  /** How many are open in all. */
  get size(): number {
    return this.total;
  }
}
