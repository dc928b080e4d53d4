/**
 * What the WebSocket server (`ws-server.ts`) and client (`ws-client.ts`) agree on: close codes,
 * ready states, and the message conventions both sides default to. It imports nothing, so it loads
 * in browsers and in Node alike.
 *
 * Every message is one JSON object in one text frame. A property (the discriminator, `type` by
 * default) names the message's kind; a request carries a correlation id (`id` by default) that its
 * reply repeats. `{ "type": "ping" }` is answered `{ "type": "pong" }` by the server itself,
 * because browsers cannot send protocol-level pings; a ping's correlation id comes back in its
 * pong, so the ping is also a request like any other (`request({ type: "ping" })`).
 */

/**
 * Close codes of RFC 6455 section 7.4 as this API uses them. 1006 is never sent: it means "no close frame".
 * @public
 */
export const CloseCode = {
  /** The client or the server ended the session on purpose. */
  Normal: 1000,
  /** The server is shutting down (or a page navigates away). */
  GoingAway: 1001,
  /** A text frame was expected and a binary one came. */
  UnsupportedData: 1003,
  /** Invalid JSON or message, failed or late first-message authentication, rate limit exceeded. */
  PolicyViolation: 1008,
  /** A message larger than the server's `maxPayload`. */
  MessageTooBig: 1009,
  /** A handler failed; the reason never carries the error itself. */
  InternalError: 1011,
  /** The server holds as many connections as it allows; reconnect later. */
  TryAgainLater: 1013,
} as const;

export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/**
 * `readyState` values, the same numbers as the browser WebSocket API's (WHATWG WebSockets).
 * @public
 */
export const ReadyState = {
  /** Not yet established (or waiting to reconnect). */
  CONNECTING: 0,
  /** Established; sending is allowed only now. */
  OPEN: 1,
  /** A close frame has been sent. */
  CLOSING: 2,
  /** Closed for good, or the connection failed and no reconnect follows. */
  CLOSED: 3,
} as const;

export type ReadyState = (typeof ReadyState)[keyof typeof ReadyState];

/** The conventions both sides use unless an API says otherwise. */
export const MESSAGE_DEFAULTS = {
  /** The property that names a message's kind. */
  discriminator: "type",
  /** The property of a request that its reply repeats. */
  correlationKey: "id",
  /** The kind of the application-level ping, and of its answer. */
  ping: "ping",
  pong: "pong",
  /** The kind of the first message that authenticates a connection, and its token property. */
  auth: "auth",
  tokenKey: "token",
} as const;

/** The member of the message union `M` whose discriminator `K` is `T`. */
export type MessageOf<M, K extends string, T> = Extract<M, Readonly<Record<K, T>>>;

/**
 * The reply a message of kind `T` gets: `Replies` maps request kinds to reply messages (from
 * AsyncAPI's `reply`); kinds it does not name get none.
 */
export type ReplyOf<Replies, T> = T extends keyof Replies ? Replies[T] : void;
