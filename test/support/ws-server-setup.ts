/**
 * The chat endpoint of the WebSocket tests on a real `http.Server` (127.0.0.1, port 0), and what
 * third-party clients see of it: a plain `ws` client's handshake status or close code, and a raw
 * TCP socket that completes the handshake and then goes silent (a dead peer).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connect as connectTcp, type AddressInfo, type Socket } from 'node:net';
import WebSocket from 'ws';
import { createWebSocketEndpoint, serveWebSockets } from '../../runtime/ws-server.js';
import { loadChat, type Connection, type Endpoint, type EndpointOptions, type Message } from './ws-runtime.js';

export interface ChatServer {
  /** `ws://127.0.0.1:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>` */
  httpUrl: string;
  port: number;
  server: Server;
  endpoint: Endpoint;
  opened: Connection[];
  closed: Array<{ code: number; reason: string }>;
  errors: unknown[];
  /** Every `say` handled, in order, with the authenticated context. */
  said: Array<{ text: string; context: unknown }>;
  stop(): Promise<void>;
}

/** Handlers of the chat channel: `say` broadcasts to the channel, `history` and `work` reply. */
export function chatHandlers(endpoint: () => Endpoint, said: ChatServer['said']): EndpointOptions['handlers'] {
  return {
    say: (message, connection) => {
      said.push({ text: String(message.text), context: connection.context });
      void endpoint().publish(connection.channel, { type: 'said', room: connection.params.room ?? '', text: String(message.text) });
    },
    join: (message, connection) => connection.subscribe(`room:${String(message.room)}`),
    leave: (message, connection) => connection.unsubscribe(`room:${String(message.room)}`),
    history: async (message) => ({ type: 'historyResult', texts: [`history of ${String(message.room)}`] }),
    work: (message) =>
      new Promise((resolve, reject) => {
        setTimeout(
          () => (message.fail ? reject(new Error('secret database detail')) : resolve({ type: 'done', ms: message.ms })),
          Number(message.ms),
        );
      }),
    crash: () => {
      throw new Error('secret stack detail');
    },
  };
}

export async function startChat(overrides: Partial<EndpointOptions> = {}, port = 0): Promise<ChatServer> {
  const chat = await loadChat();
  const server = createServer((_request, response) => {
    response.writeHead(404).end();
  });
  const opened: Connection[] = [];
  const closed: ChatServer['closed'] = [];
  const errors: unknown[] = [];
  const said: ChatServer['said'] = [];
  let endpoint: Endpoint | undefined;
  const current = (): Endpoint => endpoint!;
  endpoint = createWebSocketEndpoint({
    path: '/rooms/{room}',
    validate: chat.validateChatClientMessage,
    handlers: chatHandlers(current, said),
    onOpen: (connection) => opened.push(connection),
    onClose: (_connection, code, reason) => closed.push({ code, reason }),
    onError: (error) => errors.push(error),
    ...overrides,
  });
  serveWebSockets(server, [endpoint]);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${actual}`,
    httpUrl: `http://127.0.0.1:${actual}`,
    port: actual,
    server,
    endpoint,
    opened,
    closed,
    errors,
    said,
    async stop() {
      await endpoint.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface Outcome {
  /** The HTTP status of a refused handshake. */
  status?: number;
  /** The close code and reason the server sent. */
  code?: number;
  reason?: string;
}

/** Opens a plain `ws` client; resolves when it is open, or with how the handshake failed. */
export function open(
  url: string,
  protocols: string[] = [],
  options: WebSocket.ClientOptions = {},
): Promise<{ socket?: WebSocket; outcome?: Outcome }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, protocols, options);
    socket.on('error', () => {});
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_request, response) => {
      resolve({ outcome: { status: response.statusCode } });
      socket.terminate();
    });
    socket.once('close', (code, reason) => resolve({ outcome: { code, reason: reason.toString() } }));
  });
}

/** Opens a plain `ws` client that must succeed. */
export async function openOk(url: string, protocols: string[] = [], options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  const { socket, outcome } = await open(url, protocols, options);
  if (!socket) throw new Error(`expected the socket to open, got ${JSON.stringify(outcome)}`);
  return socket;
}

/** The close code and reason a socket ends with. */
export function closeOf(socket: WebSocket): Promise<Outcome> {
  if (socket.readyState === WebSocket.CLOSED) throw new Error('already closed');
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** Collects the JSON messages a socket receives. */
export function inbox(socket: WebSocket): { messages: Message[]; next(predicate?: (message: Message) => boolean): Promise<Message> } {
  const messages: Message[] = [];
  const waiters: Array<{ predicate: (message: Message) => boolean; resolve: (message: Message) => void }> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Message;
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  return {
    messages,
    next(predicate = () => true) {
      const seen = messages.find(predicate);
      if (seen) {
        messages.splice(messages.indexOf(seen), 1);
        return Promise.resolve(seen);
      }
      return new Promise((resolve) =>
        waiters.push({
          predicate,
          resolve: (message) => {
            messages.splice(messages.indexOf(message), 1);
            resolve(message);
          },
        }),
      );
    },
  };
}

/**
 * A peer that completes the WebSocket handshake over a raw TCP socket and then answers nothing:
 * no pong to the server's pings, no close frame. Resolves once the 101 came back.
 */
export function silentPeer(port: number, path: string): Promise<{ socket: Socket; isClosed(): boolean }> {
  return new Promise((resolve, reject) => {
    const key = randomBytes(16).toString('base64');
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    const socket = connectTcp(port, '127.0.0.1');
    let closed = false;
    socket.once('close', () => {
      closed = true;
    });
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      // From here on every frame (pings included) is read and ignored.
      socket.on('data', () => {});
      if (head.startsWith('HTTP/1.1 101') && head.includes(`Sec-WebSocket-Accept: ${accept}`)) resolve({ socket, isClosed: () => closed });
      else reject(new Error(`handshake failed: ${head.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
    socket.on('error', () => {});
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}
