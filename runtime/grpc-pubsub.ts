/**
 * The typed pub/sub of gRPC streaming methods: what the generated `pubsub.ts` of a proto API is
 * made of. Each server- or bidi-streaming method has a topic (topic.ts) carrying its response
 * message, bound here to the `FanOut` that `createPubSub(fanOut)` was given, so handlers write
 * `pubsub.TaskService.syncTasks.publish(event)` and `await ….subscribe({ signal })`.
 *
 * Messages travel as their protobuf binary encoding in base64: the generated codec's bytes, so
 * every field (unknown ones, int64 as bigint) survives the trip, at about half the time and size
 * of proto3 JSON (ARCHITECTURE.md, "gRPC pub/sub").
 */
import { fromBinary, toBinary, type Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { MessageCodec } from "./proto-codec.js";
import type { FanOut } from "./pubsub.js";
import type { SubscribeOptions, Topic, TopicCodec, TopicSubscription } from "./topic.js";

/**
 * A message type's topic codec: its binary encoding in base64, through the generated codec or,
 * for a well-known type (which has none), protobuf-es's reflection.
 */
export function binaryTopicCodec<T extends Message>(codec: MessageCodec<T> | GenMessage<T>): TopicCodec<T> {
  const { encode, decode } =
    "encode" in codec
      ? codec
      : { encode: (message: T) => toBinary(codec, message), decode: (bytes: Uint8Array) => fromBinary(codec, bytes) };
  return {
    encode: (message) => Buffer.from(encode(message)).toString("base64"),
    decode: (text) => decode(Buffer.from(text, "base64")),
  };
}

/** The key of a topic without one: every subscriber hears every message. */
export function noKey(): readonly [] {
  return [];
}

/**
 * The topic of a streaming method, on the `FanOut` of its pub/sub: every subscriber, on every
 * instance the fan-out reaches, receives each message published, in publishing order.
 * @public
 */
export class StreamTopic<Payload> {
  constructor(
    private readonly fanOut: FanOut,
    private readonly topic: Topic<undefined, Payload>,
  ) {}

  /** The topic's name: its channel on the fan-out. */
  get name(): string {
    return this.topic.name;
  }

  /** Sends `message` to every subscriber. */
  publish(message: Payload): Promise<void> {
    return this.topic.publish(this.fanOut, undefined, message);
  }

  /**
   * Resolves once subscribed (nothing published after that is missed) with the messages from
   * then on; end it with `options.signal` (the call's `context.signal`) or `return()`.
   */
  subscribe(options?: SubscribeOptions<Payload>): Promise<TopicSubscription<Payload>> {
    return this.topic.subscribe(this.fanOut, undefined, options);
  }
}

/**
 * The topic of a streaming method narrowed by a key (fields of its request message, named by the
 * rpc's `codegen:topic … key=…` comment): a subscriber hears what is published on its key only.
 * @public
 */
export class KeyedStreamTopic<Key, Payload> {
  constructor(
    private readonly fanOut: FanOut,
    private readonly topic: Topic<Key, Payload>,
  ) {}

  /** The topic's name: the start of each key's channel on the fan-out. */
  get name(): string {
    return this.topic.name;
  }

  /** Sends `message` to every subscriber of `key`. */
  publish(key: Key, message: Payload): Promise<void> {
    return this.topic.publish(this.fanOut, key, message);
  }

  /**
   * Resolves once subscribed with the messages published on `key` from then on (a request of the
   * method is a key: its other fields are ignored).
   */
  subscribe(key: Key, options?: SubscribeOptions<Payload>): Promise<TopicSubscription<Payload>> {
    return this.topic.subscribe(this.fanOut, key, options);
  }
}
