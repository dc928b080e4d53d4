/**
 * The runtime's one publish/subscribe layer, across server instances.
 *
 * A `FanOut` carries serialized messages (text) per topic: a message is serialized once however
 * many subscribers receive it, and text is what a shared implementation moves anyway (Redis:
 * `RedisFanOut` in redis-fanout.ts, PUBLISH and one SUBSCRIBE per topic on a dedicated
 * connection). `MemoryFanOut`, the default, reaches the subscribers of one process only.
 *
 * On top of it: `TopicRouter` here (WebSocket endpoints: one upstream subscription per topic,
 * however many local sockets joined it), and `Topic` in topic.ts (the typed topics generated for
 * GraphQL `Subscription` fields and gRPC streaming methods).
 */

/** Receives every message published on a topic; it must not throw. */
export type FanOutListener = (message: string) => void;

/** @public */
export interface FanOut {
  /** Delivers `message` to every listener of `topic`, in publishing order per topic. */
  publish(topic: string, message: string): Promise<void>;
  /** Adds a listener; resolves, once messages reach it, with the function that removes it. */
  subscribe(topic: string, listener: FanOutListener): Promise<() => Promise<void>>;
}

/**
 * A `FanOut` within one process: `publish` calls every listener before it resolves.
 * @public
 */
export class MemoryFanOut implements FanOut {
  private readonly topics = new Map<string, Set<FanOutListener>>();

  async publish(topic: string, message: string): Promise<void> {
    const listeners = this.topics.get(topic);
    if (listeners) for (const listener of listeners) listener(message);
  }

  async subscribe(topic: string, listener: FanOutListener): Promise<() => Promise<void>> {
    let listeners = this.topics.get(topic);
    if (!listeners) this.topics.set(topic, (listeners = new Set()));
    // A fresh function per subscription, so the same listener may subscribe twice and leave once.
    const entry: FanOutListener = (message) => listener(message);
    listeners.add(entry);
    return async () => {
      listeners.delete(entry);
      if (listeners.size === 0 && this.topics.get(topic) === listeners) this.topics.delete(topic);
    };
  }
}

/** What `TopicRouter` delivers to: one local socket. */
export interface TopicMember {
  deliver(message: string): void;
}

/**
 * The local side of a fan-out: which sockets of this process listen on which topic. It holds one
 * `FanOut` subscription per topic, however many local sockets joined it, and drops it when the
 * last one leaves.
 */
export class TopicRouter {
  private readonly topics = new Map<string, { members: Set<TopicMember>; subscription: Promise<() => Promise<void>> }>();

  constructor(private readonly fanOut: FanOut) {}

  /** Resolves once `member` receives what is published on `topic`. */
  async join(topic: string, member: TopicMember): Promise<void> {
    let entry = this.topics.get(topic);
    if (!entry) {
      const members = new Set<TopicMember>();
      const subscription = this.fanOut.subscribe(topic, (message) => {
        for (const each of members) each.deliver(message);
      });
      this.topics.set(topic, (entry = { members, subscription }));
    }
    entry.members.add(member);
    await entry.subscription;
  }

  async leave(topic: string, member: TopicMember): Promise<void> {
    const entry = this.topics.get(topic);
    if (!entry || !entry.members.delete(member) || entry.members.size > 0) return;
    this.topics.delete(topic);
    const unsubscribe = await entry.subscription;
    await unsubscribe();
  }

  publish(topic: string, message: string): Promise<void> {
    return this.fanOut.publish(topic, message);
  }
}
