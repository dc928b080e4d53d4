/**
 * `codegen mock` on the AsyncAPI example (schemas/asyncapi/tasks.asyncapi.yaml): an SSE client
 * (`eventsource`) and a WebSocket client (`ws`) receive the messages the mock publishes on its
 * timer, and the generated validators accept each; a request on the socket gets a sample reply, and
 * a POST stream sends a sample of its events then ends.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EventSource } from 'eventsource';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startMock, type RunningMock } from '../bin/mock.js';
import { loadConfig } from '../generators/core/config/config.js';
import { ROOT } from './support/cli.js';

type Validate = (value: unknown) => { ok: boolean; errors?: unknown };

const [realtime] = (await loadConfig(join(ROOT, 'codegen.config.yaml'))).filter((api) => api.name === 'realtime');
if (!realtime) throw new Error('codegen.config.yaml has no API named realtime');
let mock: RunningMock | undefined;
afterAll(() => mock?.close());

describe('codegen mock on the AsyncAPI example', () => {
  it('publishes timed messages to SSE and WebSocket clients, and answers requests, all valid', { timeout: 120_000 }, async () => {
    mock = await startMock(realtime, { seed: 1, port: 0, intervalMs: 50 });
    expect(mock.warnings).toEqual([]);
    const validators = (await import(pathToFileURL(join(mock.folder, 'validators.js')).href)) as Record<string, Validate>;
    const validate = (name: string) => validators[name] as Validate;
    const url = mock.url;

    // SSE: three timed events of the task feed, each valid for its event name.
    const events = await new Promise<{ type: string; data: unknown }[]>((resolve, reject) => {
      const source = new EventSource(`${url}/v1/tasks/events`);
      const seen: { type: string; data: unknown }[] = [];
      const on = (type: string) => (event: MessageEvent<string>) => {
        seen.push({ type, data: JSON.parse(event.data) });
        if (seen.length === 3) {
          source.close();
          resolve(seen);
        }
      };
      for (const type of ['task.created', 'task.updated', 'task.deleted']) source.addEventListener(type, on(type));
      source.onerror = () => seen.length === 0 && reject(new Error('the SSE stream failed'));
    });
    const byEvent: Record<string, string> = {
      'task.created': 'validateTaskCreatedPayload',
      'task.updated': 'validateTaskUpdatedPayload',
      'task.deleted': 'validateTaskDeletedPayload',
    };
    for (const event of events) expect(validate(byEvent[event.type] as string)(event.data), event.type).toMatchObject({ ok: true });

    // WebSocket: authenticate, receive timed messages, and get a reply to `say`.
    const socket = new WebSocket(`${url.replace('http', 'ws')}/v1/chat`, ['chat.v1']);
    const received: Record<string, unknown>[] = [];
    const reply = new Promise<Record<string, unknown>>((resolve, reject) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as Record<string, unknown>;
        if (message.type === 'ack') resolve(message);
        else received.push(message);
      });
      socket.once('close', (code, reason) => reject(new Error(`the socket closed: ${code} ${String(reason)}`)));
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'auth', token: 'any-token' }));
    socket.send(JSON.stringify({ type: 'say', id: 'request-1', room: '0f0e0d0c-0b0a-4908-8706-050403020100', text: 'hello' }));
    const ack = await reply;
    expect(ack.id).toBe('request-1');
    expect(validate('validateChatServerMessage')(ack)).toMatchObject({ ok: true });
    await expect.poll(() => received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    for (const message of received)
      expect(validate('validateChatServerMessage')(message), JSON.stringify(message)).toMatchObject({ ok: true });
    socket.close();

    // A POST stream: a sample of each event, then the end marker.
    const stream = await fetch(`${url}/v1/tasks/${'3fa85f64-5717-4562-b3fc-2c963f66afa6'}/summary`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer any-token' },
      body: '{}',
    });
    const text = await stream.text();
    const chunk = /^event: chunk\ndata: (.*)$/m.exec(text)?.[1];
    expect(validate('validateChunkPayload')(JSON.parse(chunk ?? 'null'))).toMatchObject({ ok: true });
    expect(text).toContain('data: [DONE]');
  });
});
