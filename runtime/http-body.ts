/**
 * A request body read within bounds, for every server that reads one from node:http (REST, GraphQL,
 * SSE): at most `maxBytes` (a larger declared length is refused before a byte is read, a body
 * growing past it stops being buffered there), complete within `timeoutMs` of the call, in linear
 * time. On a refusal the listeners are removed and the rest is drained unread, so the answer is not
 * lost to a TCP reset. What a refusal is (an exception, a response) is each caller's own.
 */
import { Buffer } from "node:buffer";
import type { IncomingMessage } from "node:http";

/** What a caller answers when a body is refused, given the limit it broke. */
export interface BodyRefusals<Refusal> {
  /** More than `maxBytes` declared or received (413). */
  tooLarge(maxBytes: number): Refusal;
  /** Not complete within `timeoutMs` (408). */
  late(timeoutMs: number): Refusal;
  /** The stream failed (the client went away, a malformed chunked body). */
  broken(error: Error): Refusal;
}

/**
 * Reads `request`'s body and calls `done` once: with the bytes, or with a refusal. A callback
 * rather than a promise, so that a caller on a hot path (GraphQL's JSON POST) adds no microtask.
 */
export function readBody<Refusal>(
  request: IncomingMessage,
  maxBytes: number,
  timeoutMs: number,
  refusals: BodyRefusals<Refusal>,
  done: (refusal: Refusal | undefined, body: Buffer) => void,
): void {
  if (Number(request.headers["content-length"]) > maxBytes) return done(refusals.tooLarge(maxBytes), EMPTY);
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = (refusal: Refusal | undefined): void => {
    if (late !== undefined) lateBodies.delete(late);
    request.off("data", onData);
    request.off("end", onEnd);
    request.off("error", onError);
    if (refusal === undefined) return done(undefined, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    request.resume();
    done(refusal, EMPTY);
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > maxBytes) finish(refusals.tooLarge(maxBytes));
    else chunks.push(chunk);
  };
  const onEnd = (): void => finish(undefined);
  const onError = (error: Error): void => finish(refusals.broken(error));
  // A body that has arrived whole (`complete`: the parser has seen its end) cannot be late.
  // Others join the bodies the shared watch checks, rather than each arming a timer.
  const late: LateBody | undefined = request.complete
    ? undefined
    : { deadline: Date.now() + timeoutMs, expire: () => finish(refusals.late(timeoutMs)) };
  if (late !== undefined) watchBody(late);
  request.on("data", onData);
  request.on("end", onEnd);
  request.on("error", onError);
}

const EMPTY = Buffer.alloc(0);

/** A body still arriving: when it is late, and what answers it then. */
interface LateBody {
  deadline: number;
  expire: () => void;
}

/**
 * Bodies still arriving, checked by one timer every `BODY_WATCH_MS` while there are any: under
 * load that is one timer for every request rather than one armed and cleared per request (a
 * measurable share of a POST's CPU). A late body is answered within that much of its deadline.
 */
const lateBodies = new Set<LateBody>();
const BODY_WATCH_MS = 50;
let bodyWatch: ReturnType<typeof setInterval> | undefined;

function watchBody(body: LateBody): void {
  lateBodies.add(body);
  if (bodyWatch !== undefined) return;
  bodyWatch = setInterval(() => {
    if (lateBodies.size === 0) {
      clearInterval(bodyWatch);
      bodyWatch = undefined;
      return;
    }
    const now = Date.now();
    for (const late of lateBodies) if (late.deadline <= now) late.expire();
  }, BODY_WATCH_MS);
  // The watch never keeps a process alive on its own.
  bodyWatch.unref();
}
