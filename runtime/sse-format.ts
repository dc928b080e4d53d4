/**
 * The text/event-stream wire format (WHATWG HTML standard, server-sent events), written by the
 * server. Each function returns one complete block ending in the blank line that dispatches it,
 * so a block can be formatted once and written to every subscriber of a channel.
 */

/** Any line ending the event-stream format knows: CRLF, LF or a lone CR. */
const LINE_BREAK = /\r\n|\r|\n/;

/** The marker a finite stream may end with, as AI streaming APIs do: convention, not SSE. */
export const DONE_MARKER = "[DONE]";

/** One event as it goes on the wire: the payload already encoded as text (JSON or plain). */
export interface WireEvent {
  /** Written as `id:`; omitted when undefined. */
  id?: string | undefined;
  /** Written as `event:`; omitted when undefined or `"message"` (the default name). */
  event?: string | undefined;
  /** The payload text. Every line becomes its own `data:` line, so line breaks survive. */
  data: string;
}

/**
 * Formats one event. A line break inside `id` or `event` would start a new field, so those are
 * refused; a NUL in `id` would make clients ignore it, so that is refused too.
 *
 * @throws TypeError for an `id` or `event` containing CR, LF or (for `id`) NUL.
 */
export function formatEvent(event: WireEvent): string {
  let block = "";
  if (event.id !== undefined) {
    if (/[\r\n\0]/.test(event.id)) throw new TypeError(`SSE: an event id cannot contain CR, LF or NUL: ${JSON.stringify(event.id)}`);
    block += `id: ${event.id}\n`;
  }
  if (event.event !== undefined && event.event !== "message") {
    if (/[\r\n]/.test(event.event)) throw new TypeError(`SSE: an event name cannot contain CR or LF: ${JSON.stringify(event.event)}`);
    block += `event: ${event.event}\n`;
  }
  // JSON text never holds a raw line break, so the common case skips the split.
  if (event.data.indexOf("\n") === -1 && event.data.indexOf("\r") === -1) return `${block}data: ${event.data}\n\n`;
  for (const line of event.data.split(LINE_BREAK)) block += `data: ${line}\n`;
  return `${block}\n`;
}

/** Sets the client's reconnection delay (the `retry` field) without dispatching an event. */
export function formatRetry(milliseconds: number): string {
  if (!Number.isSafeInteger(milliseconds) || milliseconds < 0)
    throw new RangeError(`SSE: retry must be whole milliseconds, not ${milliseconds}`);
  return `retry: ${milliseconds}\n\n`;
}

/**
 * A comment line, which clients ignore: sent as a keep-alive so proxies do not close an idle
 * stream, as the WHATWG HTML standard advises. Line breaks in `text` would end the comment, so
 * they become spaces.
 */
export function formatComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, " ")}\n\n`;
}
