// Our side of the `ws-server` benchmark: createWebSocketEndpoint from the WebSocket runtime
// (runtime/ws-*.ts copied and transpiled by bench/lib/ws-server.js into
// BENCH_WS_OUT), on a node:http server, with the validator and handler a generated channel would
// have: one message kind, `echo` ({ type, seq: integer ≥ 0, text: 1–2000 characters, nothing
// else }), checked by a plain check function on runtime/validation.js (the shape the generator
// emits; bench/lib/ws-echo.js), and a handler that sends the message back with `connection.send` (JSON.stringify).
// Defaults otherwise (heartbeat every 30 s, 64 KiB max payload, Origin check, which passes
// for clients without an Origin), except `rateLimit: false`: the default 100 messages/s per socket
// would close a benchmark client at once. Prints `listening on http://127.0.0.1:<port>` first.
//
//   BENCH_WS_OUT=bench/.work/ws-server/js PORT=0 node bench/lib/ws-ours.js
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkEchoMessage, WS_PATH } from './ws-echo.js';

const out = resolve(process.env.BENCH_WS_OUT ?? 'bench/.work/ws-server/js');
const { createWebSocketEndpoint, serveWebSockets } = await import(pathToFileURL(`${out}/runtime/ws-server.js`).href);
const { validate } = await import(pathToFileURL(`${out}/runtime/validation.js`).href);

const endpoint = createWebSocketEndpoint({
  path: WS_PATH,
  validate: (value) => validate(value, checkEchoMessage),
  handlers: {
    echo: (message, connection) => {
      connection.send(message);
    },
  },
  rateLimit: false,
  maxConnections: 100_000,
});

const server = createServer((_request, response) => response.writeHead(404).end());
serveWebSockets(server, [endpoint]);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => endpoint.close().then(() => server.close(() => process.exit(0))));
}
