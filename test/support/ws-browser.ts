/**
 * Headless Debian Chromium (through playwright-core) for the WebSocket tests, and an HTTP server
 * that serves the page and the transpiled client runtime as ES modules beside the WebSocket
 * endpoints, so the page's own origin is the server's.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import type { Duplex } from 'node:stream';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { wsTempFolder, type Endpoint } from './ws-runtime.js';

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const context = await chromium.launchPersistentContext(wsTempFolder('ws-chromium-'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page, close: () => context.close() };
}

export interface PageServer {
  server: Server;
  /** `http://127.0.0.1:<port>` */
  httpUrl: string;
  /** `ws://127.0.0.1:<port>` */
  url: string;
  /** The status line of every upgrade answered with plain HTTP (a refusal), in order. */
  refusals: string[];
  stop(): Promise<void>;
}

/**
 * Serves `/` (an empty page), the files of `folder` (`/runtime/*.js`, `/chat.js`) as JavaScript,
 * and the endpoints' upgrades. Refusals are recorded from what the server writes on the socket.
 */
export async function servePage(folder: string, endpoints: Endpoint[], host = '127.0.0.1'): Promise<PageServer> {
  const refusals: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>ws test</title>');
      return;
    }
    const file = normalize(join(folder, path));
    if (!file.startsWith(folder) || !file.endsWith('.js')) {
      response.writeHead(404).end();
      return;
    }
    try {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(readFileSync(file));
    } catch {
      response.writeHead(404).end();
    }
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const end = socket.end.bind(socket) as (chunk: string) => Duplex;
    socket.end = ((chunk: unknown) => {
      if (typeof chunk === 'string') refusals.push(chunk.slice(0, chunk.indexOf('\r\n')));
      return end(chunk as string);
    }) as Duplex['end'];
    for (const endpoint of endpoints) if (endpoint.handleUpgrade(request, socket, head)) return;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    httpUrl: `http://${host}:${port}`,
    url: `ws://${host}:${port}`,
    refusals,
    async stop() {
      await Promise.all(endpoints.map((endpoint) => endpoint.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
