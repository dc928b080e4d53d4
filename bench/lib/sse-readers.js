// The readers of the `sse-server` benchmark: plain node:http GET clients in the harness process
// (one connection each, no agent pooling). Each starts in "check" mode, parsing every event
// (`id:` and `data:` lines up to the blank line) so the harness can verify it got every event in
// order, and is then switched to "count" mode, which only counts complete events: the blank lines
// that end them (`\n\n`, also across chunk boundaries) in the raw bytes.
import { request } from 'node:http';
import { StringDecoder } from 'node:string_decoder';

const BLANK_LINE = Buffer.from('\n\n');

/** Opens one reader of `url`; resolves once the response headers are in. */
export function openReader(url) {
  return new Promise((resolve, reject) => {
    const get = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      const reader = {
        status: response.statusCode,
        contentType: response.headers['content-type'] ?? '',
        /** Events parsed in check mode, `{ id, data }` with `data` the joined data lines. */
        events: [],
        /** Complete events (data or not: the retry block counts too) seen in count mode. */
        counted: 0,
        counting: false,
        ended: false,
        close: () => get.destroy(),
      };
      const decoder = new StringDecoder('utf8');
      let text = '';
      let lastByteNewline = false;
      response.on('data', (chunk) => {
        if (reader.counting) {
          if (lastByteNewline && chunk[0] === 0x0a) reader.counted++;
          for (let at = chunk.indexOf(BLANK_LINE); at !== -1; at = chunk.indexOf(BLANK_LINE, at + 2)) reader.counted++;
          lastByteNewline = chunk[chunk.length - 1] === 0x0a;
          return;
        }
        text += decoder.write(chunk);
        lastByteNewline = chunk[chunk.length - 1] === 0x0a;
        let end;
        while ((end = text.indexOf('\n\n')) !== -1) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          let id;
          const data = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length) reader.events.push({ id, data: data.join('\n') });
        }
      });
      response.on('end', () => (reader.ended = true));
      response.on('error', () => (reader.ended = true));
      resolve(reader);
    });
    get.on('error', reject);
    get.end();
  });
}

/** Switches readers to count mode; call it while no event is in flight (nothing half-parsed). */
export function startCounting(readers) {
  for (const reader of readers) reader.counting = true;
}
