/**
 * Code a user writes against the SSE runtime, type-checked beside the rendered files: it compiles
 * only if event maps (interfaces too) type `send`/`publish` and narrow the client's events, and
 * each `@ts-expect-error` proves a wrong payload or event name is refused.
 */

/** Uses the server runtime; written as `server-usage.ts` next to `runtime/`. */
export const SERVER_USAGE = `import { createServer } from "node:http";
import { createSseEndpoint, SseHttpError } from "./runtime/sse-server.js";
import { MemoryEventLog } from "./runtime/sse-store.js";

interface FeedEvents {
  tick: { n: number };
  note: string;
}

const endpoint = createSseEndpoint<FeedEvents, { user: string }, { prompt: string }>({
  eventLog: new MemoryEventLog({ maxEvents: 10 }),
  textEvents: ["note"],
  validators: { tick: (value) => (typeof value === "object" && value !== null && "n" in value && typeof value.n === "number" ? { ok: true, value: { n: value.n } } : { ok: false, errors: [{ path: "/n", message: "must be a number" }] }) },
  authenticate: (_request, token) => (token === undefined ? undefined : { user: token }),
  authorize: (principal) => principal.user !== "blocked",
  channel: ({ url }) => {
    if (!url.pathname.startsWith("/feed")) throw new SseHttpError(404, "Not Found");
    return url.pathname;
  },
  post: async ({ body, stream, principal, signal }) => {
    const prompt: string = body.prompt;
    const user: string | undefined = principal?.user;
    if (!signal.aborted) stream.send("note", prompt + (user ?? ""));
    stream.send("tick", { n: 1 }, { id: "one" });
    // @ts-expect-error a tick's payload is { n: number }
    stream.send("tick", { n: "1" });
    // @ts-expect-error there is no such event
    stream.send("tock", { n: 1 });
  },
});

void endpoint.publish("/feed", "tick", { n: 2 });
// @ts-expect-error a note is a string
void endpoint.publish("/feed", "note", 3);
const count: number = endpoint.streamCount;
createServer(endpoint.handle).listen(count);
`;

/** Uses the client runtime; written as `client-usage.ts` next to `runtime/`. */
export const CLIENT_USAGE = `import { CLOSED, SseClient, SseResponseError } from "./runtime/sse-client.js";
import type { ReadyState } from "./runtime/sse-client.js";

interface FeedEvents {
  tick: { n: number };
  note: string;
}

export async function read(signal: AbortSignal): Promise<number> {
  const stream = new SseClient<FeedEvents>("https://api.example.com/feed", {
    headers: async () => ({ authorization: "Bearer token" }),
    textEvents: ["note"],
    validators: { note: (value) => (typeof value === "string" ? { ok: true, value } : { ok: false, errors: [{ path: "", message: "must be a string" }] }) },
    onInvalid: (error) => console.warn(error.event, error.errors.length),
    signal,
  });
  let total = 0;
  try {
    for await (const message of stream) {
      if (message.event === "tick") total += message.data.n;
      else total += message.data.length;
      const id: string = message.id;
      total += id.length;
    }
  } catch (error) {
    if (error instanceof SseResponseError) return error.status;
    throw error;
  }
  const state: ReadyState = stream.readyState;
  return state === CLOSED ? total : -1;
}

export function wrong(): void {
  // @ts-expect-error POST and GET only
  new SseClient<FeedEvents>("/feed", { method: "PUT" });
  // @ts-expect-error "tock" is not an event of FeedEvents
  new SseClient<FeedEvents>("/feed", { textEvents: ["tock"] });
}
`;
