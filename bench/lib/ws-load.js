// The load of the `ws-server` benchmark: CONNECTIONS plain `ws` clients in this process, each
// keeping WINDOW messages in flight (it sends the next one when an echo arrives), counting echoes.
// Also the correctness checks run before anything is timed.
import WebSocket from 'ws';
import { echoMessage } from './ws-echo.js';

/** Distinct messages the load cycles through (sequence numbers 0..POOL-1), built once. */
const POOL = 1024;

function connect(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`handshake answered ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

function closed(socket) {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/**
 * Checks a server echoes before it is measured: COUNT distinct messages come back byte-identical,
 * as text frames, in order; with `validates`, an invalid message closes the socket with 1008.
 * Resolves with the problems found (none: an empty list).
 */
export async function checkEcho(url, { validates, count = 200 }) {
  const problems = [];
  const socket = await connect(url);
  socket.on('error', () => {});
  const received = [];
  const done = new Promise((resolve) => {
    socket.on('message', (data, isBinary) => {
      received.push({ text: data.toString(), isBinary });
      if (received.length === count) resolve();
    });
  });
  const sent = Array.from({ length: count }, (_, seq) => echoMessage(seq));
  for (const text of sent) socket.send(text);
  const timeout = new Promise((resolve) => setTimeout(resolve, 5000, 'timeout'));
  if ((await Promise.race([done, timeout])) === 'timeout') problems.push(`${received.length} of ${count} echoes within 5 s`);
  const wrong = received.findIndex((echo, index) => echo.isBinary || echo.text !== sent[index]);
  if (wrong !== -1)
    problems.push(`echo ${wrong} differs: sent ${sent[wrong]}, got ${received[wrong].isBinary ? 'a binary frame' : received[wrong].text}`);
  if (validates) {
    const end = closed(socket);
    socket.send(JSON.stringify({ type: 'echo', seq: -1, text: '' }));
    const outcome = await Promise.race([end, new Promise((resolve) => setTimeout(resolve, 5000, null))]);
    if (outcome?.code !== 1008)
      problems.push(
        `an invalid message: expected close 1008, got ${outcome ? `${outcome.code} ${outcome.reason}` : 'no close within 5 s'}`,
      );
  }
  socket.terminate();
  return problems;
}

/**
 * Opens the connections and keeps them busy until `stop()`; `sample()` reads the echo count and the
 * latencies recorded since the last sample (a window's figures are the difference of two samples).
 */
export async function startLoad(url, { connections, window }) {
  const pool = Array.from({ length: POOL }, (_, seq) => echoMessage(seq));
  const sockets = await Promise.all(Array.from({ length: connections }, () => connect(url)));
  let echoes = 0;
  let next = 0;
  let failures = 0;
  let latencies = [];
  for (const socket of sockets) {
    // Echoes come back in order per socket, so a ring of send times gives each one's latency.
    const sentAt = new Float64Array(window);
    let head = 0;
    let tail = 0;
    const send = () => {
      sentAt[tail] = performance.now();
      tail = (tail + 1) % window;
      socket.send(pool[next++ % POOL]);
    };
    socket.on('message', () => {
      echoes++;
      latencies.push(performance.now() - sentAt[head]);
      head = (head + 1) % window;
      if (socket.readyState === WebSocket.OPEN) send();
    });
    socket.on('error', () => {});
    socket.on('close', (code) => {
      if (code !== 1000 && code !== 1001 && code !== 1005) failures++;
    });
    for (let i = 0; i < window; i++) send();
  }
  return {
    sample() {
      const taken = { echoes, at: performance.now(), cpu: process.cpuUsage(), failures, latencies };
      latencies = [];
      return taken;
    },
    async stop() {
      await Promise.all(
        sockets.map((socket) => {
          if (socket.readyState === WebSocket.CLOSED) return undefined;
          const end = closed(socket);
          socket.terminate();
          return end;
        }),
      );
    },
  };
}
