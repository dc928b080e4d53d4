/**
 * The typed publish/subscribe of one GraphQL `Subscription` field, what the generated `pubsub.ts`
 * is made of: a `Topic` (topic.ts) named after the field, keyed by the arguments that identify a
 * stream, whose subscriptions yield the events graphql-js resolves the field from
 * (`{ [field]: payload }`), so a resolver is one line:
 *
 *   subscribe: (_parent, args, { pubsub }) => pubsub.taskChanged.subscribe(args)
 *
 * The `FanOut` decides how far a publish reaches: `MemoryFanOut` one process, `RedisFanOut`
 * every instance on one Redis.
 */
import type { FanOut } from "./pubsub.js";
import { Topic, type TopicCodec, type TopicKeyPart } from "./topic.js";

/** @public */
export interface PubSubOptions {
  /**
   * How payloads travel as text; default JSON, which turns a `Date` into a string and has no
   * `bigint`, `Map` or `undefined`. Give one that keeps them (e.g. superjson's
   * `{ encode: stringify, decode: parse }`) when a mapped type or a custom scalar's value is not
   * plain JSON. Memory and Redis both encode, so one process shows what several instances will see.
   */
  codec?: TopicCodec<unknown>;
}

/** @public */
export interface FieldSubscribeOptions<Args, Payload> {
  /** Ends the subscription (graphql-js completes the operation) when aborted. */
  signal?: AbortSignal;
  /**
   * Payloads for which it returns false are not sent to this subscriber: the place for the
   * arguments that are not part of the key. It must not throw.
   */
  filter?: (payload: Payload, args: Args) => boolean;
  /** Payloads kept for a subscriber slower than the publishers (see `SubscribeOptions`); default 1000. */
  maxQueued?: number;
  /** Told of a message that could not be decoded (it is skipped); default `console.error`. */
  onError?: (error: unknown) => void;
}

/**
 * One subscriber's events, in publishing order, as graphql-js reads them: `{ [field]: payload }`.
 * @public
 */
export interface FieldEvents<Field extends string, Payload> extends AsyncIterableIterator<{ [F in Field]: Payload }> {
  return(): Promise<IteratorResult<{ [F in Field]: Payload }, undefined>>;
}

/**
 * `publish`'s parameters: the key's arguments and the payload, or only the payload for a field
 * whose stream no argument narrows.
 * @public
 */
export type PublishArgs<Args, KeyName extends keyof Args, Payload> = [KeyName] extends [never]
  ? [payload: Payload]
  : [key: Pick<Args, KeyName>, payload: Payload];

/**
 * The pub/sub of one `Subscription` field: `Field` its name, `Args` its arguments, `KeyName` the
 * arguments that form the key (`never` for none), `Payload` what its events carry.
 * @public
 */
export class SubscriptionTopic<Field extends string, Args, KeyName extends keyof Args, Payload> {
  private readonly topic: Topic<Pick<Args, KeyName>, Payload>;

  constructor(
    private readonly fanOut: FanOut,
    private readonly field: Field,
    keyNames: readonly KeyName[],
    codec?: TopicCodec<unknown>,
  ) {
    // The key's arguments are scalars or enums (the generator's rule), so each is a key part.
    const keyParts = (key: Pick<Args, KeyName>) => keyNames.map((name) => key[name] as TopicKeyPart);
    this.topic = new Topic<Pick<Args, KeyName>, Payload>(field, keyParts, codec as TopicCodec<Payload> | undefined);
  }

  /** Sends `payload` to every subscriber of the key, on every instance the fan-out reaches. */
  publish(...args: PublishArgs<Args, KeyName, Payload>): Promise<void> {
    if (args.length === 1) return this.topic.publish(this.fanOut, {} as Pick<Args, KeyName>, args[0]);
    return this.topic.publish(this.fanOut, args[0], args[1]);
  }

  /**
   * Resolves once subscribed (graphql-js awaits it, so nothing published after the client's
   * `subscribe` is answered is missed) with the events of the key that `args` name.
   */
  async subscribe(args: Args, options: FieldSubscribeOptions<Args, Payload> = {}): Promise<FieldEvents<Field, Payload>> {
    const { filter, signal, maxQueued, onError } = options;
    const payloads = await this.topic.subscribe(this.fanOut, args, {
      ...(filter ? { filter: (payload: Payload) => filter(payload, args) } : {}),
      ...(signal ? { signal } : {}),
      ...(maxQueued !== undefined ? { maxQueued } : {}),
      ...(onError ? { onError } : {}),
    });
    const field = this.field;
    const events: FieldEvents<Field, Payload> = {
      async next() {
        const result = await payloads.next();
        return result.done ? result : { done: false, value: { [field]: result.value } as { [F in Field]: Payload } };
      },
      async return() {
        await payloads.return();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return events;
      },
    };
    return events;
  }
}
