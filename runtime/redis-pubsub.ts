/**
 * What `RedisEventLog` (sse-redis.ts) and `RedisFanOut` (redis-fanout.ts) share: the node-redis v5
 * methods they call, typed structurally so that no Redis package is imported (a `createClient()`
 * client satisfies these interfaces as it is), one subscriber connection multiplexing every
 * channel, and calls that fail fast while Redis is unreachable.
 *
 * A connection in subscriber mode can run no other command, so pub/sub needs a second one: pass
 * `subscriber` (e.g. `await client.duplicate().connect()`, and the same one to the event log and
 * the fan-out, so a process holds one), or leave it out and one is duplicated from the client on
 * first use and closed by `close()`.
 *
 * With `sharded: true` the channels are shard channels (SPUBLISH/SSUBSCRIBE, Redis 7.0+): on a
 * Redis Cluster a plain PUBLISH is forwarded to every node, whereas a shard channel lives on the
 * node that owns its slot, so pub/sub scales with the nodes like the keys do. A node-redis
 * cluster (`createCluster`) satisfies these interfaces too, and may be its own `subscriber`: it
 * subscribes on a connection of its own per node.
 */

/** Called with each message of a subscribed pub/sub channel. */
export type RedisMessageListener = (message: string, channel: string) => void;

/**
 * What node-redis calls with a message: always strings here (buffers come only in its buffer
 * mode, which this runtime never asks for), but a cluster client types its listeners as taking
 * either, so this one must accept both.
 */
export type RedisRawListener = (message: string | Uint8Array, channel: string | Uint8Array) => void;

/**
 * A connection that subscribes (node-redis: a client, used for nothing else).
 * @public
 */
export interface RedisSubscriber {
  /** Resolves once Redis confirmed the subscription. */
  subscribe(channel: string, listener: RedisRawListener): Promise<unknown>;
  /** Removes `listener`; node-redis unsubscribes from Redis when it was the channel's last. */
  unsubscribe(channel: string, listener: RedisRawListener): Promise<unknown>;
  /** SSUBSCRIBE, for `sharded: true` (on a cluster, at the node owning the channel's slot). */
  sSubscribe?(channel: string, listener: RedisRawListener): Promise<unknown>;
  /** SUNSUBSCRIBE, for `sharded: true`. */
  sUnsubscribe?(channel: string, listener: RedisRawListener): Promise<unknown>;
  readonly isReady?: boolean;
  /**
   * node-redis emits "ready" after every (re)connection and "error" on every failure (a cluster
   * emits no "ready": its node connections resubscribe on their own).
   */
  on?(event: "ready" | "error", listener: (error?: unknown) => void): unknown;
}

/** The subscriber this runtime makes itself from `duplicate()`, and so connects and closes. */
export interface RedisOwnedSubscriber extends RedisSubscriber {
  connect(): Promise<unknown>;
  close(): Promise<unknown>;
  on(event: "ready" | "error", listener: (error?: unknown) => void): unknown;
}

/** What both classes need of the client they are given. */
export interface RedisConnection {
  /** node-redis: false while disconnected, so calls fail at once instead of waiting. */
  readonly isReady?: boolean;
  /** A new connection with the same settings; used when no `subscriber` is given. */
  duplicate?(): RedisOwnedSubscriber;
}

export interface RedisPubSubOptions {
  /** The connection to subscribe on. Default: `client.duplicate()`, connected on first use. */
  subscriber?: RedisSubscriber;
  /** Milliseconds a call (or a subscription) waits for Redis before it fails. Default 2000. */
  timeoutMs?: number;
  /** Told of connection errors and of anything lost to them. Default: `console.error`, at most once per 10 s. */
  onError?: (error: unknown) => void;
  /**
   * Sharded pub/sub: SPUBLISH/SSUBSCRIBE instead of PUBLISH/SUBSCRIBE. Set it on a Redis Cluster
   * (where PUBLISH reaches every node); needs Redis 7.0 or later. Every instance sharing the
   * channels must agree: a shard channel does not hear a PUBLISH. Default false.
   */
  sharded?: boolean;
}

/**
 * Redis could not be reached (not connected, no reply in time, or the connection failed).
 * @public
 */
export class RedisUnavailableError extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "RedisUnavailableError";
  }
}

/**
 * Runs one Redis call for `what`: fails at once while `connection` is disconnected, and after
 * `timeoutMs` without a reply; every failure becomes a `RedisUnavailableError`.
 */
export async function redisCall<T>(
  connection: { readonly isReady?: boolean },
  what: string,
  timeoutMs: number,
  run: () => Promise<T>,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    if (connection.isReady === false) throw new Error("not connected to Redis");
    const reply = run();
    // A reply (or failure) after the timeout must not become an unhandled rejection.
    reply.catch(() => {});
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no reply from Redis within ${timeoutMs} ms`)), timeoutMs);
    });
    return await Promise.race([reply, timeout]);
  } catch (error) {
    throw error instanceof RedisUnavailableError ? error : new RedisUnavailableError(what, error);
  } finally {
    clearTimeout(timer);
  }
}

function asText(value: string | Uint8Array): string {
  return typeof value === "string" ? value : new TextDecoder().decode(value);
}

/** A logger that drops repeats within `intervalMs` (a reconnect loop reports an error per attempt). */
export function throttledLog(prefix: string, intervalMs = 10_000): (error: unknown) => void {
  let last = -Infinity;
  return (error) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    console.error(`${prefix}: ${error instanceof Error ? error.message : String(error)}`);
  };
}

interface ChannelEntry {
  listeners: Set<RedisMessageListener>;
  /** Calls every listener; the one function node-redis knows for this channel. */
  dispatch: RedisRawListener;
  subscribed: boolean;
  /** Subscribe and unsubscribe calls of this channel run one after the other. */
  chain: Promise<void>;
}

/**
 * The pub/sub side: one Redis subscription per channel, however many local listeners it has, on
 * one subscriber connection for every channel.
 */
export class RedisSubscriptions {
  private readonly channels = new Map<string, ChannelEntry>();
  private readonly given: RedisSubscriber | undefined;
  private owned: Promise<RedisSubscriber> | undefined;
  private readonly reconnectListeners = new Set<() => void>();
  private closed = false;
  readonly timeoutMs: number;
  readonly onError: (error: unknown) => void;
  readonly sharded: boolean;

  constructor(
    private readonly client: RedisConnection,
    options: RedisPubSubOptions,
    private readonly logPrefix: string,
  ) {
    this.given = options.subscriber;
    this.timeoutMs = options.timeoutMs ?? 2000;
    if (!(this.timeoutMs > 0))
      throw new RangeError(`${logPrefix}: timeoutMs must be a positive number of milliseconds, not ${this.timeoutMs}`);
    this.onError = options.onError ?? throttledLog(logPrefix);
    this.sharded = options.sharded ?? false;
    if (this.sharded && this.given && !(this.given.sSubscribe && this.given.sUnsubscribe))
      throw new TypeError(`${logPrefix}: sharded pub/sub needs a subscriber with sSubscribe and sUnsubscribe (node-redis v5)`);
    this.given?.on?.("ready", () => this.reconnected());
  }

  /** Adds `listener` to `channel`; resolves, once Redis confirmed the subscription, with its removal. */
  async add(channel: string, listener: RedisMessageListener): Promise<() => Promise<void>> {
    if (this.closed) throw new Error(`${this.logPrefix}: closed`);
    let entry = this.channels.get(channel);
    if (!entry) {
      const listeners = new Set<RedisMessageListener>();
      const dispatch: RedisRawListener = (raw, rawName) => {
        const message = asText(raw);
        const name = asText(rawName);
        for (const each of listeners) {
          try {
            each(message, name);
          } catch (error) {
            this.report(error);
          }
        }
      };
      entry = { listeners, dispatch, subscribed: false, chain: Promise.resolve() };
      this.channels.set(channel, entry);
    }
    // A fresh function per call, so the same listener may be added twice and removed once.
    const own: RedisMessageListener = (message, name) => listener(message, name);
    entry.listeners.add(own);
    try {
      await this.settle(channel, entry);
    } catch (error) {
      entry.listeners.delete(own);
      await this.settle(channel, entry).catch(() => {});
      throw error;
    }
    const added = entry;
    let removed = false;
    return async () => {
      if (removed) return;
      removed = true;
      added.listeners.delete(own);
      await this.settle(channel, added);
    };
  }

  /** Calls `listener` after the subscriber reconnected (messages published meanwhile are lost). */
  onReconnect(listener: () => void): void {
    this.reconnectListeners.add(listener);
  }

  /** Unsubscribes everything; closes the subscriber connection if this object made it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.channels].map(([channel, entry]) => this.settle(channel, entry).catch(() => {})));
    const owned = this.owned;
    this.owned = undefined;
    if (owned) {
      const connection = (await owned.catch(() => undefined)) as RedisOwnedSubscriber | undefined;
      if (connection)
        await Promise.resolve()
          .then(() => connection.close())
          .catch(() => {});
    }
  }

  /** Makes Redis's subscription of `channel` match whether it has listeners, one change at a time. */
  private settle(channel: string, entry: ChannelEntry): Promise<void> {
    const step = entry.chain.then(async () => {
      const wanted = entry.listeners.size > 0 && !this.closed;
      if (wanted && !entry.subscribed) {
        const subscriber = await this.subscriber();
        const [subscribe, unsubscribe] = this.commands(subscriber);
        try {
          await redisCall(subscriber, `${this.sharded ? "SSUBSCRIBE" : "SUBSCRIBE"} ${channel}`, this.timeoutMs, () =>
            subscribe(channel, entry.dispatch),
          );
        } catch (error) {
          // It may still go through later: take the listener back out of node-redis.
          unsubscribe(channel, entry.dispatch).catch(() => {});
          throw error;
        }
        entry.subscribed = true;
      } else if (!wanted && entry.subscribed) {
        entry.subscribed = false;
        const subscriber = await this.subscriber();
        const [, unsubscribe] = this.commands(subscriber);
        await redisCall(subscriber, `${this.sharded ? "SUNSUBSCRIBE" : "UNSUBSCRIBE"} ${channel}`, this.timeoutMs, () =>
          unsubscribe(channel, entry.dispatch),
        ).catch((error: unknown) => this.report(error));
      }
      if (entry.listeners.size === 0 && !entry.subscribed && this.channels.get(channel) === entry) this.channels.delete(channel);
    });
    entry.chain = step.catch(() => {});
    return step;
  }

  /** The subscriber's (un)subscribe methods for this mode, bound to it. */
  private commands(subscriber: RedisSubscriber): [RedisSubscriber["subscribe"], RedisSubscriber["unsubscribe"]] {
    if (!this.sharded) return [subscriber.subscribe.bind(subscriber), subscriber.unsubscribe.bind(subscriber)];
    const { sSubscribe, sUnsubscribe } = subscriber;
    if (!sSubscribe || !sUnsubscribe)
      throw new TypeError(`${this.logPrefix}: sharded pub/sub needs a subscriber with sSubscribe and sUnsubscribe (node-redis v5)`);
    return [sSubscribe.bind(subscriber), sUnsubscribe.bind(subscriber)];
  }

  private subscriber(): Promise<RedisSubscriber> {
    if (this.given) return Promise.resolve(this.given);
    if (!this.owned) {
      const duplicate = this.client.duplicate?.bind(this.client);
      if (!duplicate) return Promise.reject(new TypeError("Redis pub/sub: pass `subscriber`, or a client with duplicate()"));
      const connection = duplicate();
      // Without a listener an "error" event would end the process.
      connection.on("error", (error) => this.report(error));
      let connected = false;
      connection.on("ready", () => {
        if (connected) this.reconnected();
        connected = true;
      });
      this.owned = redisCall({}, "connecting the subscriber", this.timeoutMs, () => connection.connect()).then(
        () => connection,
        (error: unknown) => {
          this.owned = undefined;
          Promise.resolve()
            .then(() => connection.close())
            .catch(() => {});
          throw error;
        },
      );
    }
    return this.owned;
  }

  private reconnected(): void {
    if (this.closed) return;
    for (const listener of this.reconnectListeners) {
      try {
        listener();
      } catch (error) {
        this.report(error);
      }
    }
  }

  private report(error: unknown): void {
    try {
      this.onError(error);
    } catch {
      // Reporting must not break delivery.
    }
  }
}
