// Information row of the `ws-server` benchmark: the raw `ws` echo server plus the work a validating
// echo cannot avoid, written by hand without our runtime: the text frame decoded, JSON.parse, the
// same check as ours (bench/lib/ws-echo.js), close 1008 when it fails, JSON.stringify of the value
// sent back. What ours costs beyond this row is the runtime's own. Prints `listening on <url>`.
//
//   PORT=0 node bench/lib/ws-json.js
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { checkEchoMessage, WS_PATH } from './ws-echo.js';

const server = createServer((_request, response) => response.writeHead(404).end());
const wss = new WebSocketServer({ server, path: WS_PATH, perMessageDeflate: false });
wss.on('connection', (ws) => {
  ws.on('error', () => {});
  ws.on('message', (data, isBinary) => {
    let value;
    try {
      value = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      value = undefined;
    }
    if (!checkEchoMessage(value)) ws.close(1008, 'Invalid message');
    else ws.send(JSON.stringify(value));
  });
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
