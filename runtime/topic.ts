/**
 * Typed topics over a `FanOut` (pubsub.ts): what the generated pub/sub modules of GraphQL
 * `Subscription` fields and gRPC streaming methods are made of. A topic has a name, a key that
 * narrows it (a field's arguments, a stream's key) and a payload type; each subscriber reads its
 * payloads as an async iterator, in publishing order, from a bounded queue.
 */
import type { FanOut } from "./pubsub.js";

/** A part of a topic's key: the value of a GraphQL argument, a gRPC key, … */
export type TopicKeyPart = string | number | boolean | bigint;

/** How a topic's payloads travel as text. */
export interface TopicCodec<Payload> {
  encode(payload: Payload): string;
  decode(text: string): Payload;
}

/** Payloads as JSON text: plain objects, arrays, strings, numbers, booleans and null. */
export const jsonCodec: TopicCodec<never> = {
  encode: (payload) => JSON.stringify(payload),
  decode: (text) => JSON.parse(text) as never,
};

/** @public */
export interface SubscribeOptions<Payload> {
  /** Ends the subscription (the iterator finishes) when aborted. */
  signal?: AbortSignal;
  /** Payloads for which it returns false are skipped; it must not throw. */
  filter?: (payload: Payload) => boolean;
  /**
   * Payloads kept for a consumer slower than the publishers. One more ends the subscription with
   * a `SubscriptionOverflowError` after the kept ones are read: memory stays bounded, and the
   * consumer learns that it missed something instead of silently losing it. Default 1000.
   */
  maxQueued?: number;
  /** Told of a message that could not be decoded (it is skipped). Default: `console.error`. */
  onError?: (error: unknown) => void;
}

/**
 * A subscriber fell `maxQueued` payloads behind its topic.
 * @public
 */
export class SubscriptionOverflowError extends Error {
  constructor(topic: string, maxQueued: number) {
    super(`subscription to ${topic} fell more than ${maxQueued} messages behind and was ended`);
    this.name = "SubscriptionOverflowError";
  }
}

/**
 * One subscriber's payloads, in publishing order: `for await` it, and `return()` (or `break`)
 * to unsubscribe.
 * @public
 */
export interface TopicSubscription<Payload> extends AsyncIterableIterator<Payload> {
  return(): Promise<IteratorResult<Payload, undefined>>;
}

/**
 * A typed topic: a name, the key that narrows it (GraphQL arguments, a gRPC key) and the codec of
 * its payloads. It holds no connection: `publish` and `subscribe` take the `FanOut` to use, so one
 * definition serves memory and Redis alike.
 * @public
 */
export class Topic<Key, Payload> {
  constructor(
    /** The topic's name, the start of every channel it publishes on. */
    readonly name: string,
    /** The parts of a key, in a fixed order; none for a topic without a key. */
    private readonly keyParts: (key: Key) => readonly TopicKeyPart[],
    private readonly codec: TopicCodec<Payload> = jsonCodec,
  ) {}

  /** The channel of `key`: the name, then each part URI-encoded after a `:` (so no two keys share one). */
  channel(key: Key): string {
    let channel = this.name;
    for (const part of this.keyParts(key)) channel += `:${encodeURIComponent(String(part))}`;
    return channel;
  }

  /** Sends `payload` to every subscriber of `key`, on every instance `fanOut` reaches. */
  publish(fanOut: FanOut, key: Key, payload: Payload): Promise<void> {
    return fanOut.publish(this.channel(key), this.codec.encode(payload));
  }

  /**
   * Resolves, once subscribed (so nothing published after it resolves is missed), with the
   * payloads published on `key` from then on.
   */
  async subscribe(fanOut: FanOut, key: Key, options: SubscribeOptions<Payload> = {}): Promise<TopicSubscription<Payload>> {
    const maxQueued = options.maxQueued ?? 1000;
    if (!(Number.isInteger(maxQueued) && maxQueued > 0)) throw new RangeError(`maxQueued must be a positive integer, not ${maxQueued}`);
    const channel = this.channel(key);
    const queue = new PayloadQueue<Payload>(channel, maxQueued);
    const { filter, signal } = options;
    const onError =
      options.onError ?? ((error: unknown) => console.error(`${channel}: ${error instanceof Error ? error.message : String(error)}`));
    if (signal?.aborted) return queue.finish();
    const unsubscribe = await fanOut.subscribe(channel, (text) => {
      let payload: Payload;
      try {
        payload = this.codec.decode(text);
      } catch (error) {
        onError(error);
        return;
      }
      if (filter && !filter(payload)) return;
      if (!queue.push(payload)) queue.end();
    });
    const abort = () => void queue.return();
    queue.onEnd(() => {
      signal?.removeEventListener("abort", abort);
      unsubscribe().catch(onError);
    });
    signal?.addEventListener("abort", abort, { once: true });
    if (signal?.aborted) abort();
    return queue;
  }
}

/** A bounded queue read as an async iterator: what one subscriber has not read yet. */
class PayloadQueue<Payload> implements TopicSubscription<Payload> {
  private readonly items: Payload[] = [];
  private head = 0;
  private waiting: ((result: IteratorResult<Payload, undefined>) => void) | undefined;
  private waitingFail: ((error: unknown) => void) | undefined;
  private ended = false;
  private failure: Error | undefined;
  private endListener: (() => void) | undefined;

  constructor(
    private readonly channel: string,
    private readonly maxQueued: number,
  ) {}

  /** Hands `payload` to a waiting reader or queues it; false when the queue is full. */
  push(payload: Payload): boolean {
    if (this.ended) return true;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = this.waitingFail = undefined;
      waiting({ value: payload, done: false });
      return true;
    }
    if (this.items.length - this.head >= this.maxQueued) {
      this.failure = new SubscriptionOverflowError(this.channel, this.maxQueued);
      return false;
    }
    this.items.push(payload);
    return true;
  }

  onEnd(listener: () => void): void {
    if (this.ended) listener();
    else this.endListener = listener;
  }

  /** Stops taking payloads; what is queued can still be read, then the failure (if any) or done. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.endListener?.();
    this.endListener = undefined;
    const waiting = this.waiting;
    const fail = this.waitingFail;
    this.waiting = this.waitingFail = undefined;
    if (this.failure && fail) {
      const failure = this.failure;
      this.failure = undefined;
      fail(failure);
    } else waiting?.({ value: undefined, done: true });
  }

  /** An already finished subscription (subscribed with an aborted signal). */
  finish(): this {
    this.end();
    return this;
  }

  next(): Promise<IteratorResult<Payload, undefined>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head] as Payload;
      this.items[this.head++] = undefined as Payload;
      // Compact now and then, so a long-lived queue does not grow with what was read.
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) {
      const failure = this.failure;
      this.failure = undefined;
      return failure ? Promise.reject(failure) : Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.waitingFail = reject;
    });
  }

  return(): Promise<IteratorResult<Payload, undefined>> {
    this.items.length = this.head = 0;
    this.failure = undefined;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
