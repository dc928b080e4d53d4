/**
 * The event log behind SSE streams: what `Last-Event-ID` resumes from, and the fan-out that
 * carries a published event to every stream of its channel. The interface is shaped after Redis
 * Streams so a shared implementation maps onto it directly: `append` is `XADD channel * ...`
 * (whose ids, `<milliseconds>-<sequence>`, are the ones used here), `since` is `XRANGE channel
 * (<id> +`, and `subscribe` is a pub/sub channel (or a blocking `XREAD`) the appender notifies.
 * The in-memory default below serves one process.
 *
 * It is separate from the REST server's key/value `Store` (idempotency records, rate limits):
 * an ordered, trimmed, subscribable log does not fit a get/set interface.
 */

/** One logged event: its id, its name and its payload already encoded as text. */
export interface LoggedEvent {
  id: string;
  event: string;
  data: string;
}

/** Stops a subscription. */
export type Unsubscribe = () => void;

/** @public */
export interface EventLog {
  /**
   * Appends an event to `channel` and delivers it to the channel's subscribers, in append order.
   * Resolves with the new event's id, which is greater than every id appended before it.
   */
  append(channel: string, event: { event: string; data: string }): Promise<string>;
  /**
   * The retained events of `channel` that come after `lastEventId`, oldest first. An id older than
   * everything retained (trimmed away, or from before a restart) gives every retained event; an id
   * this log cannot have issued (malformed) gives none.
   */
  since(channel: string, lastEventId: string): Promise<LoggedEvent[]>;
  /**
   * Calls `listener` with every event appended to `channel` from now on, in order. Resolves once
   * the subscription is live, so an event appended after that is never missed: a resuming stream
   * subscribes first and reads `since` second.
   */
  subscribe(channel: string, listener: (event: LoggedEvent) => void): Promise<Unsubscribe>;
}

export interface MemoryEventLogOptions {
  /** Most events kept per channel for resume; older ones are trimmed (`XADD MAXLEN`). Default 1000. */
  maxEvents?: number;
  /** Milliseconds an event stays resumable (`XADD MINID`). Default 300 000 (five minutes). */
  maxAgeMs?: number;
  /**
   * Most channels held at once, so a flood of distinct channels cannot exhaust memory. Appending to
   * a new channel in a full log drops the idle channel written longest ago (one without
   * subscribers). Default 10 000.
   */
  maxChannels?: number;
  /** The clock in milliseconds; tests pass a fake one. Default `Date.now`. */
  now?: () => number;
}

interface Channel {
  /** Retained events, oldest first, with the clock time each was appended. */
  events: { event: LoggedEvent; at: number }[];
  listeners: Set<(event: LoggedEvent) => void>;
}

/** An id as its two numbers, `undefined` for text that is not an id of this log. */
function parseId(id: string): [number, number] | undefined {
  const match = /^(\d{1,15})-(\d{1,15})$/.exec(id);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

function isAfter(a: [number, number], b: [number, number]): boolean {
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}

/**
 * Whether event id `id` comes after `than` in log order (`<ms>-<seq>`, as this log and Redis
 * Streams write them); `undefined` when either is not such an id.
 */
export function idIsAfter(id: string, than: string): boolean | undefined {
  const a = parseId(id);
  const b = parseId(than);
  return a && b ? isAfter(a, b) : undefined;
}

/**
 * An `EventLog` in memory. Ids are `<milliseconds>-<sequence>` as Redis gives them, increasing
 * even when the clock stands still or steps back, and increasing across restarts as long as the
 * clock does: a client resuming with an id from before a restart gets every retained event.
 * Listeners run synchronously inside `append`; a listener that throws does not stop the others.
 * @public
 */
export class MemoryEventLog implements EventLog {
  private readonly channels = new Map<string, Channel>();
  private readonly maxEvents: number;
  private readonly maxAgeMs: number;
  private readonly maxChannels: number;
  private readonly now: () => number;
  private last: [number, number] = [0, 0];

  constructor(options: MemoryEventLogOptions = {}) {
    this.maxEvents = options.maxEvents ?? 1000;
    this.maxAgeMs = options.maxAgeMs ?? 300_000;
    this.maxChannels = options.maxChannels ?? 10_000;
    this.now = options.now ?? Date.now;
    for (const [name, value] of [
      ["maxEvents", this.maxEvents],
      ["maxChannels", this.maxChannels],
    ] as const) {
      if (!Number.isSafeInteger(value) || value < 1)
        throw new RangeError(`MemoryEventLog: ${name} must be a positive integer, not ${value}`);
    }
    if (!(this.maxAgeMs > 0))
      throw new RangeError(`MemoryEventLog: maxAgeMs must be a positive number of milliseconds, not ${this.maxAgeMs}`);
  }

  async append(channel: string, event: { event: string; data: string }): Promise<string> {
    const now = this.now();
    this.last = now > this.last[0] ? [now, 0] : [this.last[0], this.last[1] + 1];
    const logged: LoggedEvent = { id: `${this.last[0]}-${this.last[1]}`, event: event.event, data: event.data };
    const entry = this.channel(channel);
    entry.events.push({ event: logged, at: now });
    this.trim(entry, now);
    for (const listener of entry.listeners) {
      try {
        listener(logged);
      } catch {
        // One failing subscriber must not cost the others the event.
      }
    }
    return logged.id;
  }

  async since(channel: string, lastEventId: string): Promise<LoggedEvent[]> {
    const after = parseId(lastEventId);
    const entry = this.channels.get(channel);
    if (after === undefined || entry === undefined) return [];
    this.trim(entry, this.now());
    const events = entry.events;
    // Binary search for the first retained event after the id: logs can be long, resumes frequent.
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const id = parseId(events[middle]!.event.id)!;
      if (isAfter(id, after)) high = middle;
      else low = middle + 1;
    }
    return events.slice(low).map((retained) => retained.event);
  }

  async subscribe(channel: string, listener: (event: LoggedEvent) => void): Promise<Unsubscribe> {
    const entry = this.channel(channel);
    // A wrapper makes each subscription distinct even when one function subscribes twice.
    const subscription = (event: LoggedEvent): void => listener(event);
    entry.listeners.add(subscription);
    return () => {
      entry.listeners.delete(subscription);
    };
  }

  /** Channels held, including ones whose events have all expired but are not yet dropped. */
  get size(): number {
    return this.channels.size;
  }

  /** The channel named `name`, created when missing, marked as the most recently written. */
  private channel(name: string): Channel {
    const existing = this.channels.get(name);
    if (existing !== undefined) {
      // Re-inserting keeps the Map in write order, so eviction finds the least recently written.
      this.channels.delete(name);
      this.channels.set(name, existing);
      return existing;
    }
    if (this.channels.size >= this.maxChannels) this.evictIdleChannel();
    const entry: Channel = { events: [], listeners: new Set() };
    this.channels.set(name, entry);
    return entry;
  }

  private evictIdleChannel(): void {
    for (const [name, entry] of this.channels) {
      if (entry.listeners.size === 0) {
        this.channels.delete(name);
        return;
      }
    }
  }

  private trim(entry: Channel, now: number): void {
    let drop = Math.max(0, entry.events.length - this.maxEvents);
    while (drop < entry.events.length && now - entry.events[drop]!.at >= this.maxAgeMs) drop++;
    if (drop > 0) entry.events.splice(0, drop);
  }
}
