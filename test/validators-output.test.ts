/**
 * The generated validators in out/ as users get them (issue 12, items 1 and 6): each type guard
 * agrees with the type it narrows to, through the validator module and through the generated
 * REST server and client.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type TasksApiHandlers } from '../out/rest/server.js';
import type { UploadAttachmentBody } from '../out/rest/types.js';
import { isUploadAttachmentBody, validateUploadAttachmentBody } from '../out/rest/validators.js';

const TASK_ID = '2eb8aa08-aa98-11ea-b4aa-73b441d16380';

describe('binary fields are Blobs in the type and in its guard (item 1)', () => {
  it('the guard of `file: Blob` accepts a Blob and a File, and rejects a string', () => {
    const body: UploadAttachmentBody = { file: new Blob(['abc']) };
    expect(isUploadAttachmentBody(body)).toBe(true);
    expect(isUploadAttachmentBody({ file: new File(['abc'], 'a.txt'), caption: 'notes' })).toBe(true);
    expect(isUploadAttachmentBody({ file: 'abc' })).toBe(false);
    expect(validateUploadAttachmentBody({ file: 'abc' })).toEqual({
      ok: false,
      errors: [{ path: '/file', keyword: 'type', message: 'must be a file (Blob)' }],
    });
    expect(validateUploadAttachmentBody({})).toEqual({ ok: false, errors: [{ path: '/file', keyword: 'required', message: 'is required' }] });
  });

  describe('through the generated server and client', () => {
    let server: Server;
    let url: string;
    const received: unknown[] = [];

    beforeAll(async () => {
      // Only uploadAttachment is called; the other handlers are never reached.
      const handlers = new Proxy({} as TasksApiHandlers, {
        get: (_target, name) =>
          name === 'uploadAttachment'
            ? ((request: { body: UploadAttachmentBody }) => {
                received.push(request.body);
                const { file, caption } = request.body;
                const location = `/v1/tasks/${TASK_ID}/attachments/${TASK_ID}`;
                return { status: 201, headers: { location }, body: { id: TASK_ID, fileName: file instanceof File ? file.name : 'blob', size: file.size, ...(caption === undefined ? {} : { caption }) } };
              })
            : () => {
                throw new Error(`unexpected call of ${String(name)}`);
              },
      });
      server = createHttpServer(createServer(handlers, { auth: { verify: async () => ({ id: 'u1' }) } }));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('a multipart upload reaches the handler with a File its guard accepts', async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(10)]), 'zeros.bin');
      form.append('caption', 'zeros');
      const response = await fetch(`${url}/v1/tasks/${TASK_ID}/attachments`, { method: 'POST', body: form, headers: { authorization: 'Bearer t' } });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ fileName: 'zeros.bin', size: 10, caption: 'zeros' });
      const body = received.at(-1);
      expect(body).toMatchObject({ caption: 'zeros' });
      expect((body as { file: unknown }).file).toBeInstanceOf(Blob);
      expect(isUploadAttachmentBody(body)).toBe(true);
    });

    it('the generated client uploads a Blob the server accepts', async () => {
      const { TasksApiClient } = await import('../out/rest/client.js');
      const client = new TasksApiClient({ baseUrl: url, auth: { bearerAuth: 't' } });
      const stored = await client.uploadAttachment({ taskId: TASK_ID, body: { file: new Blob(['hello']), caption: 'hi' } });
      expect(stored).toMatchObject({ size: 5, caption: 'hi' });
      expect(isUploadAttachmentBody(received.at(-1))).toBe(true);
    });
  });
});
