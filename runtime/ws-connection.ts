/**
 * One accepted WebSocket as handlers see it (`WebSocketConnection`), and the per-socket state the
 * endpoint keeps beside it: liveness for the heartbeat, the message-rate budget, topics joined.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import type { TopicMember, TopicRouter } from "./pubsub.js";
import type { PathParams } from "./ws-handshake.js";

export interface WebSocketConnection<Out, Ctx> {
  /** The upgrade request (headers, URL with its query string, remote address). */
  readonly request: IncomingMessage;
  /** The channel address this socket connected to, e.g. `/rooms/42`; also the topic it joined. */
  readonly channel: string;
  /** Values of the channel address's `{placeholders}`. */
  readonly params: PathParams;
  /** The agreed subprotocol, `""` for none. */
  readonly protocol: string;
  /** What `authenticate` or the first message's `verify` returned for this socket. */
  readonly context: Ctx;
  /**
   * Sends a message when the socket is open; `false` when it is not (the message is dropped) or
   * when the client reads too slowly (the socket is then terminated: see `maxBufferedBytes`).
   */
  send(message: Out): boolean;
  /** Joins a topic: what `publish(topic, ...)` sends, on any instance, reaches this socket. */
  subscribe(topic: string): Promise<void>;
  unsubscribe(topic: string): Promise<void>;
  /** Closes with `code` (1000 by default; 4000–4999 for the API's own) and a short `reason`. */
  close(code?: number, reason?: string): void;
}

/** A message-rate budget: `messages` per `intervalMs`, refilled continuously (a token bucket). */
export interface RateLimit {
  messages: number;
  intervalMs: number;
}

/** The largest close reason: a close frame's payload is at most 125 bytes, 2 of them the code. */
const MAX_REASON_BYTES = 123;

/** `reason` cut to what a close frame holds, on a character boundary. */
export function closeReason(reason: string): string {
  if (Buffer.byteLength(reason) <= MAX_REASON_BYTES) return reason;
  let cut = "";
  for (const character of reason) {
    if (Buffer.byteLength(cut + character) > MAX_REASON_BYTES - 3) break;
    cut += character;
  }
  return `${cut}...`;
}

const flush = (peer: Peer<unknown, unknown>): void => peer.uncork();

export class Peer<Out, Ctx> implements WebSocketConnection<Out, Ctx>, TopicMember {
  /** Whether the socket showed a sign of life (pong or message) since the last heartbeat ping. */
  alive = true;
  /** Set while a first-message token is awaited; the timer closes the socket when it runs out. */
  authTimer: ReturnType<typeof setTimeout> | undefined;
  /** Messages that came while the first message's token was being verified, in order. */
  backlog: unknown[] | undefined;
  private readonly topics = new Set<string>();
  private tokens: number;
  private refilledAt: number;
  /** Whether this tick's sends are being held back to leave in one write. */
  private gathering = false;

  constructor(
    readonly socket: WebSocket,
    /** The TCP (or TLS) stream under `socket`, which the sends of one tick are corked on. */
    private readonly transport: Duplex,
    readonly request: IncomingMessage,
    readonly channel: string,
    readonly params: PathParams,
    public context: Ctx,
    private readonly router: TopicRouter,
    private readonly rate: RateLimit | undefined,
    private readonly maxBufferedBytes: number,
  ) {
    this.tokens = rate?.messages ?? 0;
    this.refilledAt = Date.now();
  }

  get protocol(): string {
    return this.socket.protocol;
  }

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  send(message: Out): boolean {
    return this.deliver(JSON.stringify(message));
  }

  /** Sends JSON text already serialized (a broadcast is serialized once for every socket). */
  deliver(text: string): boolean {
    if (!this.open) return false;
    if (this.socket.bufferedAmount > this.maxBufferedBytes) {
      // A close frame would wait behind the backlog it is meant to end; the client sees 1006.
      this.socket.terminate();
      return false;
    }
    if (!this.gathering) {
      // Every message of one TCP read is handled in the same tick, so their answers can leave in
      // one write (a single writev) instead of one system call each, as node:http does for
      // `res.write`. The first send of the tick corks the stream; the tick's end uncorks it.
      this.gathering = true;
      this.transport.cork();
      process.nextTick(flush, this);
    }
    this.socket.send(text);
    return true;
  }

  /** Writes out what this tick's sends left corked. */
  uncork(): void {
    this.gathering = false;
    this.transport.uncork();
  }

  async subscribe(topic: string): Promise<void> {
    this.topics.add(topic);
    await this.router.join(topic, this);
  }

  async unsubscribe(topic: string): Promise<void> {
    if (this.topics.delete(topic)) await this.router.leave(topic, this);
  }

  /** Leaves every topic; called once the socket has closed. */
  async leaveAll(): Promise<void> {
    const topics = [...this.topics];
    this.topics.clear();
    await Promise.all(topics.map((topic) => this.router.leave(topic, this)));
  }

  close(code = 1000, reason = ""): void {
    this.socket.close(code, closeReason(reason));
  }

  /** Takes one message from the rate budget; `false` when it is spent. */
  take(now: number): boolean {
    if (!this.rate) return true;
    const { messages, intervalMs } = this.rate;
    this.tokens = Math.min(messages, this.tokens + ((now - this.refilledAt) * messages) / intervalMs);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
