// The peer of the `ws-server` benchmark: a raw `ws` echo server, no validation, no dispatch, no
// limits: `ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }))` (the text
// frame goes back as text, as ours answers it). Same `ws` defaults as ours otherwise
// (permessage-deflate off), on a node:http server. Prints `listening on http://127.0.0.1:<port>`.
//
//   PORT=0 node bench/lib/ws-raw.js
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { WS_PATH } from './ws-echo.js';

const server = createServer((_request, response) => response.writeHead(404).end());
const wss = new WebSocketServer({ server, path: WS_PATH, perMessageDeflate: false });
wss.on('connection', (ws) => {
  ws.on('error', () => {});
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const client of wss.clients) client.terminate();
    server.close(() => process.exit(0));
  });
}
