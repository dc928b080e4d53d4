/**
 * `codegen diff` for AsyncAPI (SSE and WebSocket): channels are matched by key, messages by their
 * tag (the SSE `event:` name or the WebSocket discriminator value: what the wire carries), and
 * payloads compared as requests (client → server, `receive`) or responses (server → client, `send`)
 * through json-schema.ts. A channel whose address gained a new version segment carries its
 * breaking changes as `versioned`.
 */
import { resolve } from 'node:path';
import type { SourceLocation } from '../core/diagnostics.js';
import { Documents, own, type SourceDoc } from '../core/schema/json-documents.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import { loadAsyncApi } from '../asyncapi/load.js';
import type { Action, Channel, ChannelOperation, Message, RealtimeModel } from '../asyncapi/model.js';
import { CWD_ROOTS, type Change, type DiffResult, type SideRoots } from './changes.js';
import { SchemaDiff, type SchemaSide } from './json-schema.js';

export async function diffAsyncApi(oldFile: string, newFile: string, roots: SideRoots = CWD_ROOTS()): Promise<DiffResult> {
  const before = await loadAsyncApi(oldFile, { displayRoot: roots.old, ...(roots.oldRead ? { readRoots: roots.oldRead } : {}) });
  const after = await loadAsyncApi(newFile, { displayRoot: roots.new, ...(roots.newRead ? { readRoots: roots.newRead } : {}) });
  return { style: 'asyncapi', changes: compareRealtime(before, after, rawDocument(oldFile, roots.old), rawDocument(newFile, roots.new)) };
}

function rawDocument(file: string, displayRoot: string): SourceDoc | undefined {
  const opened = new Documents(resolve(displayRoot)).open(resolve(file));
  return Array.isArray(opened) ? undefined : opened;
}

/** Where each message's payload is written in the root document (inline, or a local `$ref` followed once). */
function payloadPointers(model: RealtimeModel, root: SourceDoc | undefined): Map<string, string[]> {
  const pointers = new Map<string, string[]>();
  if (!root) return pointers;
  const follow = (pointer: string[]): string[] => {
    let node: unknown = root.data;
    for (const key of pointer) node = own(node, key);
    const ref = own(node, '$ref');
    return typeof ref === 'string' && ref.startsWith('#/')
      ? ref
          .slice(2)
          .split('/')
          .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
      : pointer;
  };
  for (const channel of model.channels) {
    for (const message of channel.messages) {
      if (pointers.has(message.payload)) continue;
      const at = follow(['channels', channel.key, 'messages', message.key]);
      pointers.set(message.payload, follow([...at, 'payload']));
    }
  }
  return pointers;
}

function schemaSide(model: RealtimeModel, root: SourceDoc | undefined): SchemaSide {
  const defs = new Map<string, JsonSchema>(model.schemas.map((named) => [named.name, named.schema]));
  const payloads = payloadPointers(model, root);
  return {
    defs,
    locate: (name, path) => {
      const pointer = name === undefined ? undefined : payloads.get(name);
      if (root && pointer)
        return root.locate(
          [
            ...pointer,
            ...path.flatMap((step) => (step === '[]' ? ['items'] : step.startsWith('#') ? [step.slice(1)] : ['properties', step])),
          ],
          'key',
        );
      const schema = name === undefined ? undefined : defs.get(name);
      return typeof schema === 'object' ? schema['x-location'] : undefined;
    },
  };
}

const VERSION_SEGMENT = /^v\d+$/i;
const versionOf = (address: string) => address.split('/').find((s) => VERSION_SEGMENT.test(s)) ?? '';

export function compareRealtime(before: RealtimeModel, after: RealtimeModel, oldRoot?: SourceDoc, newRoot?: SourceDoc): Change[] {
  const schemas = new SchemaDiff(schemaSide(before, oldRoot), schemaSide(after, newRoot));
  const changes: Change[] = [];
  const newChannels = new Map(after.channels.map((c) => [c.key, c]));
  for (const old of before.channels) {
    const now = newChannels.get(old.key);
    if (!now) {
      changes.push({
        kind: 'channel-removed',
        class: 'breaking',
        message: `channel ${old.key} (${old.address}) removed`,
        wire: 'old clients connecting get 404',
        code: 'the generated client and server lose the channel',
        location: old.location,
      });
      continue;
    }
    const local: Change[] = [];
    const schemaStart = schemas.changes.length;
    compareChannel(old, now, schemas, local);
    changes.push(...local);
    if (versionOf(now.address) !== '' && versionOf(old.address) !== versionOf(now.address))
      for (const change of [...local, ...schemas.changes.slice(schemaStart)]) if (change.class === 'breaking') change.versioned = true;
  }
  for (const now of after.channels) {
    if (!before.channels.some((c) => c.key === now.key))
      changes.push({
        kind: 'channel-added',
        class: 'safe',
        message: `channel ${now.key} (${now.address}) added`,
        wire: 'old clients do not connect to it',
        code: 'the generated client and server gain it',
        location: now.location,
      });
  }
  return [...changes, ...schemas.changes];
}

function directionOf(message: Message): Action[] {
  return [...message.actions].sort();
}

function compareChannel(old: Channel, now: Channel, schemas: SchemaDiff, out: Change[]): void {
  const name = `channel ${now.key}`;
  if (old.address !== now.address)
    out.push({
      kind: 'channel-address-changed',
      class: 'breaking',
      message: `${name}: address ${old.address} → ${now.address}`,
      wire: 'old clients connect to the old address and get 404',
      code: 'the generated client connects to the new address',
      location: now.location,
    });
  if (old.transport !== now.transport)
    out.push({
      kind: 'channel-transport-changed',
      class: 'breaking',
      message: `${name}: transport ${old.transport} → ${now.transport}`,
      wire: 'old clients speak the old protocol',
      code: 'the generated client changes entirely',
      location: now.location,
    });
  if (old.sse?.resume && now.sse && !now.sse.resume)
    out.push({
      kind: 'sse-resume-removed',
      class: 'dangerous',
      message: `${name}: resume after Last-Event-ID turned off`,
      wire: 'reconnecting clients miss the events sent while they were away (§6.1.7)',
      code: 'the generated server keeps no event log',
      location: now.location,
    });
  if (old.sse && !old.sse.resume && now.sse?.resume)
    out.push({
      kind: 'sse-resume-added',
      class: 'safe',
      message: `${name}: resume after Last-Event-ID turned on`,
      wire: 'events carry ids; reconnecting clients get what they missed',
      code: 'the generated server keeps an event log',
      location: now.location,
    });
  if (old.sse && now.sse && old.sse.retry !== now.sse.retry)
    out.push({
      kind: 'sse-retry-changed',
      class: 'safe',
      message: `${name}: retry ${old.sse.retry ?? 'none'} → ${now.sse.retry ?? 'none'} ms`,
      wire: 'clients wait another time before reconnecting (none sent: their default, about 3 s)',
      code: 'the generated server sends the new retry: line when a stream opens',
      location: now.location,
    });
  if (old.sse && now.sse && old.sse.done !== now.sse.done)
    out.push({
      kind: 'sse-done-changed',
      class: 'breaking',
      message: `${name}: end marker ${old.sse.done === undefined ? 'none' : JSON.stringify(old.sse.done)} → ${now.sse.done === undefined ? 'none' : JSON.stringify(now.sse.done)}`,
      wire:
        old.sse.done === undefined
          ? 'old clients read the new end marker as an event and fail to parse it'
          : 'old clients wait for the old end marker and never see the stream end (or treat it as an event)',
      code: 'the generated client stops at another data: line',
      location: now.location,
    });
  if (old.sse && now.sse && old.sse.method !== now.sse.method)
    out.push({
      kind: 'sse-method-changed',
      class: 'breaking',
      message: `${name}: ${old.sse.method} → ${now.sse.method}`,
      wire: `old clients open the stream with ${old.sse.method} and get 405`,
      code: 'the generated client opens it another way (EventSource ↔ fetch reader)',
      location: now.location,
    });
  if (old.websocket && now.websocket) {
    const dropped = old.websocket.subprotocols.filter((p) => !now.websocket!.subprotocols.includes(p));
    if (dropped.length > 0)
      out.push({
        kind: 'ws-subprotocol-removed',
        class: 'breaking',
        message: `${name}: subprotocol ${dropped.join(', ')} no longer accepted`,
        wire: 'old clients asking only for it fail the handshake',
        code: 'the generated client offers the new list',
        location: now.location,
      });
    if (now.websocket.maxMessageSize < old.websocket.maxMessageSize)
      out.push({
        kind: 'ws-max-message-size-narrowed',
        class: 'breaking',
        message: `${name}: max message size ${old.websocket.maxMessageSize} → ${now.websocket.maxMessageSize} bytes`,
        wire: 'messages old clients send may now close the connection with 1009',
        code: 'the generated server checks the new size',
        location: now.location,
      });
  }

  const byTag = (list: Message[]) => new Map(list.map((m) => [m.tag, m]));
  const oldMessages = byTag(old.messages);
  const newMessages = byTag(now.messages);
  for (const [tag, message] of oldMessages) {
    const twin = newMessages.get(tag);
    const what = old.transport === 'sse' ? `event "${tag}"` : `message "${tag}"`;
    if (!twin) {
      // Same payload under another tag: the event was renamed, which old clients see as a removal.
      const renamed = now.messages.find((m) => m.payload === message.payload && !oldMessages.has(m.tag));
      out.push({
        kind: renamed ? (old.transport === 'sse' ? 'event-renamed' : 'message-renamed') : 'message-removed',
        class: 'breaking',
        message: renamed ? `${name}: ${what} renamed to "${renamed.tag}"` : `${name}: ${what} removed`,
        wire: message.actions.includes('send')
          ? `old clients listen for "${tag}" and never receive it${renamed ? `; "${renamed.tag}" is unknown to them` : ''}`
          : `old clients still send "${tag}" and the server rejects it (1003/1008)`,
        code: 'the generated message union changes; handlers for the old tag no longer compile',
        location: renamed ? renamed.location : message.location,
      });
      continue;
    }
    if (directionOf(message).join() !== directionOf(twin).join()) {
      out.push({
        kind: 'message-direction-changed',
        class: 'breaking',
        message: `${name}: ${what} now travels ${directionOf(twin).join('+')} (was ${directionOf(message).join('+')})`,
        wire: 'one side sends what the other no longer expects',
        code: 'the message moves between the send and receive unions',
        location: twin.location,
      });
    }
    const sent = message.actions.includes('send') && twin.actions.includes('send');
    const received = message.actions.includes('receive') && twin.actions.includes('receive');
    const ref = (m: Message) => ({ $ref: `#/$defs/${m.payload}` });
    if (sent)
      schemas.compare(ref(message), ref(twin), { direction: 'response', label: `${name} ${what} payload`, location: twin.location });
    if (received)
      schemas.compare(ref(message), ref(twin), { direction: 'request', label: `${name} ${what} payload`, location: twin.location });
  }
  compareReplies(old, now, out);
  for (const [tag, message] of newMessages) {
    if (oldMessages.has(tag) || old.messages.some((m) => m.payload === message.payload && !newMessages.has(m.tag))) continue;
    const sent = message.actions.includes('send');
    out.push({
      kind: 'message-added',
      class: sent ? 'dangerous' : 'safe',
      message: `${name}: ${now.transport === 'sse' ? 'event' : 'message'} "${tag}" added`,
      wire: sent ? 'old clients receive a tag they do not know (their union validator rejects it)' : 'old clients do not send it',
      code: 'the generated message union gains it',
      location: message.location as SourceLocation,
    });
  }
}

/** Request tag → the tags that answer it and the operation saying so, over the channel's operations with a reply. */
function repliesOf(channel: Channel): Map<string, { replies: Set<string>; operation: ChannelOperation }> {
  const tagOf = new Map(channel.messages.map((m) => [m.key, m.tag]));
  const replies = new Map<string, { replies: Set<string>; operation: ChannelOperation }>();
  for (const operation of channel.operations) {
    const answers = (operation.reply?.messages ?? []).map((key) => tagOf.get(key) ?? key);
    for (const key of operation.messages) {
      const tag = tagOf.get(key) ?? key;
      const entry = replies.get(tag) ?? { replies: new Set<string>(), operation };
      // Located at the operation that declares the reply, when one does.
      if (answers.length > 0) entry.operation = operation;
      for (const answer of answers) entry.replies.add(answer);
      replies.set(tag, entry);
    }
  }
  return replies;
}

/**
 * A request's reply, matched by the tags on the wire: an answer dropped leaves old clients awaiting
 * it (the generated request() times out); an answer added is one more message they may ignore.
 */
function compareReplies(old: Channel, now: Channel, out: Change[]): void {
  const before = repliesOf(old);
  const after = repliesOf(now);
  for (const [request, { replies }] of before) {
    const twin = after.get(request);
    if (!twin) continue; // the request itself is gone: reported as a message change
    const dropped = [...replies].filter((tag) => !twin.replies.has(tag));
    const added = [...twin.replies].filter((tag) => !replies.has(tag));
    const name = `channel ${now.key}: "${request}"`;
    if (dropped.length > 0)
      out.push({
        kind: 'reply-removed',
        class: 'breaking',
        message: `${name} is no longer answered by ${dropped.map((t) => `"${t}"`).join(', ')}`,
        wire: 'old clients wait for an answer the server no longer sends, until their request times out',
        code: 'the generated request() resolves with another reply type, or becomes a plain send',
        location: twin.operation.location,
      });
    if (added.length > 0)
      out.push({
        kind: 'reply-added',
        class: replies.size === 0 ? 'safe' : 'dangerous',
        message: `${name} is now answered by ${added.map((t) => `"${t}"`).join(', ')}`,
        wire:
          replies.size === 0
            ? 'old clients receive the answer as an ordinary message'
            : 'old clients awaiting the old answer may take the new one as unrelated',
        code: 'the generated request() returns the new reply type',
        location: twin.operation.location,
      });
  }
}
