// The subscribers of the `pubsub` benchmark: plain `ws` clients in the harness process, as a
// browser would be, on the generated realtime server's chat channel (`/v1/chat`, subprotocol
// `chat.v1`): each authenticates with its first message, joins the room and waits for `joined`.
// Every chat line received is checked (its sequence number is the next one this subscriber
// expects: none lost, none repeated, in order) and its latency recorded: the time now minus the
// publish time in the line (both on this machine's clock, performance.timeOrigin + performance.now()).
import WebSocket from 'ws';

const now = () => performance.timeOrigin + performance.now();

function open(url, room) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'chat.v1', { perMessageDeflate: false });
    const subscriber = { socket, received: 0, nextSeq: 0, problem: null, closed: null };
    socket.once('unexpected-response', (_request, response) => reject(new Error(`handshake answered ${response.statusCode}`)));
    socket.once('error', reject);
    socket.once('open', () => {
      socket.send(JSON.stringify({ type: 'auth', token: 'bench' }));
      socket.send(JSON.stringify({ type: 'join', room }));
    });
    socket.on('close', (code, reason) => {
      subscriber.closed = `${code} ${reason}`;
      reject(new Error(`closed before joining: ${code} ${reason}`));
    });
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'joined') {
        socket.off('error', reject);
        socket.on('error', () => {});
        resolve(subscriber);
      } else if (message.type !== 'said') subscriber.problem ??= `unexpected ${message.type} message`;
    });
  });
}

/**
 * Opens `count` subscribers spread round-robin over `urls` (the instances' chat URLs), in groups so
 * the handshakes do not all queue at once; resolves once every one has joined `room`.
 */
export async function openSubscribers(urls, count, room) {
  const subscribers = [];
  const GROUP = 100;
  for (let first = 0; first < count; first += GROUP) {
    const group = Array.from({ length: Math.min(GROUP, count - first) }, (_, i) => open(urls[(first + i) % urls.length], room));
    subscribers.push(...(await Promise.all(group)));
  }
  let latencies = [];
  let lastAt = 0;
  for (const subscriber of subscribers) {
    subscriber.socket.removeAllListeners('message');
    subscriber.socket.on('message', (data) => {
      const at = now();
      const message = JSON.parse(String(data));
      if (message.type !== 'said') {
        subscriber.problem ??= `unexpected ${message.type} message`;
        return;
      }
      const space = message.text.indexOf(' ');
      const seq = Number(message.text.slice(0, space));
      if (seq !== subscriber.nextSeq) subscriber.problem ??= `line ${seq} arrived when ${subscriber.nextSeq} was expected`;
      subscriber.nextSeq = seq + 1;
      subscriber.received++;
      latencies.push(at - Number(message.text.slice(space + 1)));
      lastAt = at;
    });
  }
  return {
    count: subscribers.length,
    /** Starts a phase: counts, expected sequence numbers and latencies start again from 0. */
    reset() {
      for (const subscriber of subscribers) {
        subscriber.received = 0;
        subscriber.nextSeq = 0;
      }
      latencies = [];
      lastAt = 0;
    },
    /**
     * Resolves once every subscriber received `expected` lines (or one failed, or `timeoutMs`
     * passed) with the phase's figures and the problems found: a subscriber that received another
     * count, out of order, or was closed.
     */
    async settle(expected, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const done = () => subscribers.every((s) => s.received >= expected || s.problem || s.closed);
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      // A little longer, so that a copy of the last line arriving right behind it counts as one too many.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const problems = [];
      const wrong = subscribers.filter((s) => s.received !== expected || s.problem || s.closed);
      for (const s of wrong.slice(0, 3)) {
        const index = subscribers.indexOf(s);
        problems.push(
          `subscriber ${index}: ${s.received} of ${expected} lines${s.problem ? `, ${s.problem}` : ''}${s.closed ? `, closed ${s.closed}` : ''}`,
        );
      }
      if (wrong.length > 3) problems.push(`… ${wrong.length} subscribers in all`);
      const received = subscribers.reduce((sum, s) => sum + s.received, 0);
      return { received, latencies, lastAt, problems };
    },
    async close() {
      await Promise.all(
        subscribers.map(
          ({ socket }) =>
            new Promise((resolve) => {
              if (socket.readyState === WebSocket.CLOSED) return resolve();
              socket.once('close', resolve);
              socket.terminate();
            }),
        ),
      );
    },
  };
}
