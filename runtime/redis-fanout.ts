/**
 * A `FanOut` over Redis pub/sub, so that a broadcast published on one server instance reaches the
 * WebSocket clients of every instance. Written when the API's config says `options.redis: true`.
 *
 * `publish` is `PUBLISH <prefix><topic>`; `subscribe` is one `SUBSCRIBE` per topic, on one
 * subscriber connection shared by every topic of the process (and by a `RedisEventLog` given the
 * same `subscriber`); with `sharded: true` (a Redis Cluster) they are `SPUBLISH` and `SSUBSCRIBE`.
 * Like Redis pub/sub itself, delivery is at most once: what is published while an instance's
 * subscriber is disconnected does not reach that instance's sockets.
 *
 * @example
 * import { createClient } from "redis";
 * import { createRealtimeServer, RedisFanOut } from "./server.js";
 *
 * const client = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true });
 * client.on("error", (error) => console.error("redis:", error)); // else Node exits on a Redis error
 * await client.connect();
 * const fanOut = new RedisFanOut(client); // subscribes on client.duplicate(), made on first use
 * const realtime = createRealtimeServer(handlers, { websocket: { fanOut, verifyToken } });
 * // On shutdown: await realtime.close(); await fanOut.close(); await client.close();
 *
 * While Redis is unreachable `publish` rejects with a `RedisUnavailableError` within `timeoutMs`
 * (the caller of the endpoint's `publish` gets it), and so does a socket's subscription (the
 * endpoint reports it through `onError`).
 */
import { redisCall, RedisSubscriptions, type RedisConnection, type RedisPubSubOptions } from "./redis-pubsub.js";
import type { FanOut, FanOutListener } from "./pubsub.js";

export { RedisUnavailableError } from "./redis-pubsub.js";

/**
 * The node-redis v5 client methods `RedisFanOut` calls (a `createClient()` client has them).
 * @public
 */
export interface RedisFanOutClient extends RedisConnection {
  publish(channel: string, message: string): Promise<unknown>;
  /** SPUBLISH, for `sharded: true`. */
  sPublish?(channel: string, message: string): Promise<unknown>;
}

/** @public */
export interface RedisFanOutOptions extends RedisPubSubOptions {
  /** Prefix of the pub/sub channels, so several applications can share a Redis. Default `"ws:"`. */
  prefix?: string;
}

/**
 * A `FanOut` over a connected node-redis client. The client stays yours; `close()` ends this
 * fan-out's subscriptions (and closes the subscriber connection it made itself).
 * @public
 */
export class RedisFanOut implements FanOut {
  private readonly prefix: string;
  private readonly subscriptions: RedisSubscriptions;

  constructor(
    private readonly client: RedisFanOutClient,
    options: RedisFanOutOptions = {},
  ) {
    this.prefix = options.prefix ?? "ws:";
    this.subscriptions = new RedisSubscriptions(client, options, "RedisFanOut");
    if (this.subscriptions.sharded && !client.sPublish)
      throw new TypeError("RedisFanOut: sharded pub/sub needs a client with sPublish (node-redis v5)");
  }

  async publish(topic: string, message: string): Promise<void> {
    const channel = this.prefix + topic;
    const { client } = this;
    const sharded = this.subscriptions.sharded;
    await redisCall(client, `RedisFanOut: ${sharded ? "SPUBLISH" : "PUBLISH"} ${channel}`, this.subscriptions.timeoutMs, () =>
      sharded && client.sPublish ? client.sPublish(channel, message) : client.publish(channel, message),
    );
  }

  subscribe(topic: string, listener: FanOutListener): Promise<() => Promise<void>> {
    return this.subscriptions.add(this.prefix + topic, (message) => listener(message));
  }

  /** Ends every subscription; later `subscribe` calls fail, `publish` still works. */
  close(): Promise<void> {
    return this.subscriptions.close();
  }
}
