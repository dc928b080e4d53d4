/**
 * An `EventLog` in Redis, so that SSE streams on several server instances share one log: an event
 * published on one instance reaches the streams of every instance, and a client that reconnects
 * to another instance resumes from its `Last-Event-ID`. Written when the API's config says
 * `options.redis: true`.
 *
 * Each channel is a Redis Stream (`<prefix><channel>`), so event ids are Redis Stream ids
 * (`<ms>-<seq>`), the same on every instance. `append` runs one Lua script: `XADD MAXLEN ~`
 * (trimmed to about `maxEvents`), `PEXPIRE` (an idle channel goes after `maxAgeMs`) and `PUBLISH`
 * of the event with the id before it, so every subscriber sees the events in stream order and
 * notices a gap (a message lost while its connection was down): it then reads what it missed with
 * `XRANGE`. `since` is `XRANGE` after the id, within `maxEvents` and `maxAgeMs` like
 * `MemoryEventLog`. Needs Redis 5 or later.
 *
 * The stream and the pub/sub channel of a channel have the same name, so on a Redis Cluster they
 * share a slot and the script touches one node; with `sharded: true` it publishes with `SPUBLISH`
 * (Redis 7.0+), which a cluster delivers from that node only.
 *
 * @example
 * import { createClient } from "redis";
 * import { createRealtimeServer, RedisEventLog, RedisFanOut } from "./server.js";
 *
 * const client = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true });
 * client.on("error", (error) => console.error("redis:", error)); // else Node exits on a Redis error
 * await client.connect();
 * // One subscriber connection for the process, shared by the event log and the fan-out.
 * const subscriber = client.duplicate();
 * subscriber.on("error", (error) => console.error("redis subscriber:", error));
 * await subscriber.connect();
 * const realtime = createRealtimeServer(handlers, {
 *   sse: { eventLog: new RedisEventLog(client, { subscriber }) },
 *   websocket: { fanOut: new RedisFanOut(client, { subscriber }), verifyToken },
 * });
 * // On shutdown: await realtime.close(); await eventLog.close(); then close the clients.
 *
 * While Redis is unreachable `append` and `since` reject with a `RedisUnavailableError` within
 * `timeoutMs`; the SSE endpoint then ends new streams (clients retry and resume) and the error
 * reaches whoever called `publish`.
 */
import { redisCall, RedisSubscriptions, RedisUnavailableError, type RedisConnection, type RedisPubSubOptions } from "./redis-pubsub.js";
import type { EventLog, LoggedEvent, Unsubscribe } from "./sse-store.js";

export { RedisUnavailableError } from "./redis-pubsub.js";

/**
 * The node-redis v5 client methods `RedisEventLog` calls (a `createClient()` client has them).
 * @public
 */
export interface RedisEventLogClient extends RedisConnection {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** @public */
export interface RedisEventLogOptions extends RedisPubSubOptions {
  /** Prefix of the stream keys and pub/sub channels. Default `"sse:"`. */
  prefix?: string;
  /** Events kept per channel for resume (`XADD MAXLEN ~`: about this many, `since` gives at most this many). Default 1000. */
  maxEvents?: number;
  /** Milliseconds an event stays resumable; a channel idle this long is deleted. Default 300 000. */
  maxAgeMs?: number;
}

/**
 * KEYS[1] stream; ARGV: pub/sub channel (the stream's name: same slot), max events, max age,
 * event, data. Returns the new id. `publish` is PUBLISH, or SPUBLISH for sharded pub/sub.
 */
function appendScript(publish: "PUBLISH" | "SPUBLISH"): string {
  return `local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1)
local prev = ""
if last[1] then prev = last[1][1] end
local id = redis.call("XADD", KEYS[1], "MAXLEN", "~", ARGV[2], "*", "event", ARGV[4], "data", ARGV[5])
redis.call("PEXPIRE", KEYS[1], ARGV[3])
redis.call("${publish}", ARGV[1], cjson.encode({ prev, id, ARGV[4], ARGV[5] }))
return id`;
}

const APPEND = /* @__PURE__ */ appendScript("PUBLISH");
const APPEND_SHARDED = /* @__PURE__ */ appendScript("SPUBLISH");

/** KEYS[1] stream; ARGV[1] first id. Returns the entries from it, the stream's last id and Redis's clock. */
const RANGE = `local entries = redis.call("XRANGE", KEYS[1], ARGV[1], "+")
local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1)
local time = redis.call("TIME")
local lastId = ""
if last[1] then lastId = last[1][1] end
return { entries, lastId, time[1], time[2] }`;

/** KEYS[1] stream. Returns its last id, "" when it has none. */
const LAST = `local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1)
if last[1] then return last[1][1] end
return ""`;

/** An event as `append` publishes it, with the id of the event before it in the stream. */
interface Published extends LoggedEvent {
  prev: string;
}

interface ChannelState {
  key: string;
  listeners: Set<(event: LoggedEvent) => void>;
  /** The id delivered last ("" for an empty stream); undefined until the subscription is live. */
  last: string | undefined;
  /** Messages not delivered yet, in arrival order. */
  queue: Published[];
  /** A read of the stream (filling a gap) is in flight; the queue waits for it. */
  busy: boolean;
  /** The subscriber reconnected: read the stream before trusting the next message. */
  stale: boolean;
  /** `since` calls waiting for this process to have delivered up to an id. */
  waiters: { id: string; resolve: () => void }[];
  /** Resolves once live, with the removal of the Redis subscription. */
  started: Promise<() => Promise<void>>;
}

/**
 * An `EventLog` over a connected node-redis client (`RedisEventLogClient`). The client stays
 * yours; `close()` ends this log's subscriptions (and the subscriber connection it made itself).
 * @public
 */
export class RedisEventLog implements EventLog {
  private readonly prefix: string;
  private readonly maxEvents: number;
  private readonly maxAgeMs: number;
  private readonly timeoutMs: number;
  private readonly subscriptions: RedisSubscriptions;
  private readonly channels = new Map<string, ChannelState>();

  constructor(
    private readonly client: RedisEventLogClient,
    options: RedisEventLogOptions = {},
  ) {
    this.prefix = options.prefix ?? "sse:";
    this.maxEvents = options.maxEvents ?? 1000;
    this.maxAgeMs = options.maxAgeMs ?? 300_000;
    if (!Number.isSafeInteger(this.maxEvents) || this.maxEvents < 1)
      throw new RangeError(`RedisEventLog: maxEvents must be a positive integer, not ${this.maxEvents}`);
    if (!(this.maxAgeMs > 0) || !Number.isFinite(this.maxAgeMs))
      throw new RangeError(`RedisEventLog: maxAgeMs must be a positive number of milliseconds, not ${this.maxAgeMs}`);
    this.subscriptions = new RedisSubscriptions(client, options, "RedisEventLog");
    this.timeoutMs = this.subscriptions.timeoutMs;
    this.subscriptions.onReconnect(() => {
      for (const state of this.channels.values()) {
        state.stale = true;
        this.drain(state);
      }
    });
  }

  async append(channel: string, event: { event: string; data: string }): Promise<string> {
    const key = this.prefix + channel;
    const args = [key, String(this.maxEvents), String(Math.ceil(this.maxAgeMs)), event.event, event.data];
    const reply = await this.eval(`append to ${key}`, this.subscriptions.sharded ? APPEND_SHARDED : APPEND, key, args);
    if (typeof reply !== "string" || parseId(reply) === undefined)
      throw new TypeError(`RedisEventLog: unexpected reply to XADD: ${JSON.stringify(reply)}`);
    return reply;
  }

  async since(channel: string, lastEventId: string): Promise<LoggedEvent[]> {
    const after = parseId(lastEventId);
    if (after === undefined) return [];
    const key = this.prefix + channel;
    const { entries, lastId, now } = await this.range(key, `${after[0]}-${after[1] + 1}`);
    const cutoff = now - this.maxAgeMs;
    let events = entries.filter((event) => parseId(event.id)![0] > cutoff);
    if (events.length > this.maxEvents) events = events.slice(events.length - this.maxEvents);
    // A stream that subscribed before this read must not get these events again later: wait until
    // this process has delivered everything read here, so they are behind the stream's cursor.
    await this.caughtUp(channel, lastId);
    return events;
  }

  async subscribe(channel: string, listener: (event: LoggedEvent) => void): Promise<Unsubscribe> {
    let state = this.channels.get(channel);
    if (!state) {
      const created: ChannelState = {
        key: this.prefix + channel,
        listeners: new Set(),
        last: undefined,
        queue: [],
        busy: false,
        stale: false,
        waiters: [],
        started: Promise.resolve(async () => {}),
      };
      created.started = this.start(created);
      this.channels.set(channel, (state = created));
    }
    const joined = state;
    // A wrapper makes each subscription distinct even when one function subscribes twice.
    const subscription = (event: LoggedEvent): void => listener(event);
    joined.listeners.add(subscription);
    try {
      await joined.started;
    } catch (error) {
      this.leave(channel, joined, subscription);
      throw error;
    }
    return () => this.leave(channel, joined, subscription);
  }

  /** Ends every subscription of this log; appends and reads still work. */
  async close(): Promise<void> {
    const states = [...this.channels.values()];
    this.channels.clear();
    for (const state of states) {
      state.listeners.clear();
      for (const waiter of state.waiters.splice(0)) waiter.resolve();
    }
    await this.subscriptions.close();
  }

  /** Subscribes to the channel's messages, then reads where the stream ends: live from there. */
  private async start(state: ChannelState): Promise<() => Promise<void>> {
    const remove = await this.subscriptions.add(state.key, (message) => this.receive(state, message));
    try {
      const last = await this.eval(`read the end of ${state.key}`, LAST, state.key, []);
      state.last = typeof last === "string" ? last : "";
    } catch (error) {
      await remove().catch(() => {});
      throw error;
    }
    // Messages that came while reading are in `queue`; those up to `last` are dropped there.
    this.drain(state);
    return remove;
  }

  private leave(channel: string, state: ChannelState, subscription: (event: LoggedEvent) => void): void {
    if (!state.listeners.delete(subscription) || state.listeners.size > 0) return;
    if (this.channels.get(channel) === state) this.channels.delete(channel);
    for (const waiter of state.waiters.splice(0)) waiter.resolve();
    state.started.then((remove) => remove()).catch(() => {});
  }

  private receive(state: ChannelState, message: string): void {
    let value: unknown;
    try {
      value = JSON.parse(message);
    } catch {
      value = undefined;
    }
    if (!isPublishedEvent(value) || parseId(value[1]) === undefined) {
      this.subscriptions.onError(new TypeError(`RedisEventLog: ignored a message on ${state.key} that append did not publish`));
      return;
    }
    const [prev, id, event, data] = value;
    state.queue.push({ prev, id, event, data });
    this.drain(state);
  }

  /**
   * Delivers queued messages in stream order: one that follows the last delivered event goes out
   * at once; a gap (or a reconnect) is filled from the stream first.
   */
  private drain(state: ChannelState): void {
    if (state.busy || state.last === undefined) return;
    for (;;) {
      if (state.stale) return this.fill(state, false);
      const next = state.queue[0];
      if (next === undefined) return;
      if (compareIds(next.id, state.last) <= 0) {
        state.queue.shift();
      } else if (next.prev === state.last) {
        state.queue.shift();
        this.deliver(state, next);
      } else {
        return this.fill(state, true);
      }
    }
  }

  /** Reads and delivers what the stream holds after the last delivered event. */
  private fill(state: ChannelState, gap: boolean): void {
    state.busy = true;
    state.stale = false;
    const after = parseId(state.last ?? "");
    this.range(state.key, after ? `${after[0]}-${after[1] + 1}` : "-")
      .then(
        ({ entries }) => {
          for (const event of entries) if (compareIds(event.id, state.last ?? "") > 0) this.deliver(state, event);
        },
        (error: unknown) =>
          this.subscriptions.onError(new RedisUnavailableError(`RedisEventLog: reading missed events of ${state.key}`, error)),
      )
      .finally(() => {
        state.busy = false;
        // What the stream no longer holds (trimmed, expired, unreadable) is lost: go on after it.
        const head = state.queue[0];
        if (gap && head !== undefined && state.last !== undefined && compareIds(head.id, state.last) > 0 && head.prev !== state.last) {
          state.queue.shift();
          this.deliver(state, head);
        }
        this.drain(state);
      });
  }

  private deliver(state: ChannelState, event: LoggedEvent): void {
    state.last = event.id;
    const logged: LoggedEvent = { id: event.id, event: event.event, data: event.data };
    for (const listener of state.listeners) {
      try {
        listener(logged);
      } catch {
        // One failing subscriber must not cost the others the event.
      }
    }
    if (state.waiters.length > 0) {
      state.waiters = state.waiters.filter((waiter) => {
        if (compareIds(waiter.id, event.id) > 0) return true;
        waiter.resolve();
        return false;
      });
    }
  }

  /** Resolves once this process's subscription of `channel` (if any) delivered `id` (at most `timeoutMs`). */
  private caughtUp(channel: string, id: string): Promise<void> {
    const state = this.channels.get(channel);
    if (state === undefined || id === "" || (state.last !== undefined && compareIds(state.last, id) >= 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.timeoutMs);
      const waiter = { id, resolve: done };
      state.waiters.push(waiter);
      function done(): void {
        clearTimeout(timer);
        const index = state!.waiters.indexOf(waiter);
        if (index !== -1) state!.waiters.splice(index, 1);
        resolve();
      }
    });
  }

  private async range(key: string, from: string): Promise<{ entries: LoggedEvent[]; lastId: string; now: number }> {
    const reply = await this.eval(`read ${key}`, RANGE, key, [from]);
    if (!Array.isArray(reply) || reply.length !== 4 || !Array.isArray(reply[0]))
      throw new TypeError(`RedisEventLog: unexpected reply to XRANGE: ${JSON.stringify(reply)}`);
    const entries: LoggedEvent[] = [];
    for (const entry of reply[0] as unknown[]) {
      if (!Array.isArray(entry) || typeof entry[0] !== "string" || !Array.isArray(entry[1])) continue;
      const fields = entry[1] as unknown[];
      let event: string | undefined;
      let data: string | undefined;
      for (let index = 0; index + 1 < fields.length; index += 2) {
        if (fields[index] === "event") event = String(fields[index + 1]);
        else if (fields[index] === "data") data = String(fields[index + 1]);
      }
      if (event !== undefined && data !== undefined) entries.push({ id: entry[0], event, data });
    }
    const now = Number(reply[2]) * 1000 + Math.floor(Number(reply[3]) / 1000);
    return { entries, lastId: typeof reply[1] === "string" ? reply[1] : "", now };
  }

  private eval(what: string, script: string, key: string, args: string[]): Promise<unknown> {
    return redisCall(this.client, `RedisEventLog: ${what}`, this.timeoutMs, () =>
      this.client.eval(script, { keys: [key], arguments: args }),
    );
  }
}

/** What `append` publishes: `[previous id, id, event, data]`, all strings. */
function isPublishedEvent(value: unknown): value is [string, string, string, string] {
  return Array.isArray(value) && value.length === 4 && value.every((part) => typeof part === "string");
}

/** An id as its two numbers, `undefined` for text that is not a Redis Stream id. */
function parseId(id: string): [number, number] | undefined {
  const match = /^(\d{1,15})-(\d{1,15})$/.exec(id);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** Orders two ids; "" (no event) comes before every id. */
function compareIds(a: string, b: string): number {
  const left = parseId(a) ?? [-1, -1];
  const right = parseId(b) ?? [-1, -1];
  return left[0] - right[0] || left[1] - right[1];
}
