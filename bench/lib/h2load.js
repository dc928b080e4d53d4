// h2load (nghttp2's HTTP/2 load generator, C) as the gRPC benchmark's client: it sends one prepared
// gRPC request body over h2c and spends a fraction of the CPU a Node gRPC client spends per call, so
// the server, not the client, is what gets measured on a 2-core machine.
//
// h2load knows HTTP, not gRPC: a gRPC error is HTTP 200 with `grpc-status` in the trailers, which
// it counts as a success. So `probe` first makes the same call with node:http2, checks the
// trailers say `grpc-status: 0` and notes how many DATA bytes one OK answer has; a run then holds
// only OK answers when h2load's DATA byte count is exactly calls × those bytes (an error answer
// has no DATA: Trailers-Only).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { join } from 'node:path';
import { provision } from '../../test/provision.js';
import { timed } from './proc.js';

export const H2LOAD = '/usr/bin/h2load';

/** What the gRPC benchmark starts, and the Debian package that puts it there (see test/provision.js). */
export const H2LOAD_PROGRAM = { path: H2LOAD, debianPackage: 'nghttp2-client', usedBy: 'the gRPC server benchmark' };

/** Installs h2load when missing and possible; returns why it cannot be used, or null. */
export function ensureH2load() {
  if (!existsSync(H2LOAD) && provision([H2LOAD_PROGRAM], 'npm run bench') !== 0)
    return `${H2LOAD} is missing (Debian package nghttp2-client) and could not be installed`;
  const version = spawnSync(H2LOAD, ['--version'], { encoding: 'utf8' });
  return version.status === 0 ? null : `${H2LOAD} does not start: ${version.stderr || version.error}`;
}

export function h2loadVersion() {
  return spawnSync(H2LOAD, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

/** gRPC request headers as h2load sends them. */
const GRPC_HEADERS = ['content-type: application/grpc', 'te: trailers'];

/** A gRPC request body: the 5-byte prefix (uncompressed, big-endian length) and the message. */
export function grpcFrame(message) {
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return frame;
}

/**
 * One call with node:http2 and the same body h2load will send: its `grpc-status`, and the DATA
 * bytes of the answer (for a server stream, of all its messages).
 * @returns {Promise<{ grpcStatus: string | undefined, grpcMessage: string | undefined, dataBytes: number }>}
 */
export function probe(url, path, body) {
  return new Promise((resolve, reject) => {
    const session = connect(url);
    session.once('error', reject);
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' });
    let dataBytes = 0;
    let trailers = {};
    stream.on('data', (chunk) => (dataBytes += chunk.length));
    stream.once('trailers', (received) => (trailers = received));
    stream.once('response', (headers) => {
      // Trailers-Only: the status is in the only HEADERS frame.
      if (headers['grpc-status'] !== undefined) trailers = headers;
    });
    stream.once('error', reject);
    stream.once('close', () => {
      session.close();
      resolve({ grpcStatus: trailers['grpc-status'], grpcMessage: trailers['grpc-message'], dataBytes });
    });
    stream.end(body);
  });
}

/**
 * Runs h2load against `url + path` with `body` as every request's body.
 * @param {{ url: string, path: string, body: Buffer, clients: number, streams: number, requests?: number, seconds?: number, dir: string }} options
 *   `streams` calls in flight per connection, `clients` connections; either a number of calls or a duration.
 */
export function runH2load({ url, path, body, clients, streams, requests, seconds, dir }) {
  const bodyFile = join(dir, 'h2load-body.bin');
  const logFile = join(dir, 'h2load-log.tsv');
  writeFileSync(bodyFile, body);
  rmSync(logFile, { force: true });
  const args = ['-t', '1', '-c', String(clients), '-m', String(streams), '-d', bodyFile, '--log-file', logFile];
  for (const header of GRPC_HEADERS) args.push('-H', header);
  args.push(...(requests !== undefined ? ['-n', String(requests)] : ['-D', String(seconds)]), `${url}${path}`);
  const run = timed(H2LOAD, args, { usageFile: join(dir, 'h2load-usage.txt'), timeoutMs: 300_000 });
  if (!run.ok) throw new Error(`h2load failed (${run.error}): ${`${run.stdout}\n${run.stderr}`.trim().slice(-500)}`);
  const out = run.stdout;
  const number = (pattern, what) => {
    const match = pattern.exec(out);
    if (!match) throw new Error(`h2load printed no ${what}: ${out.slice(-500)}`);
    return Number(match[1]);
  };
  const seconds_ = number(/^finished in ([\d.]+)(?:s|ms)/m, 'duration') / (/^finished in [\d.]+ms/m.test(out) ? 1000 : 1);
  const done = number(/ (\d+) done,/, 'done count');
  const result = {
    command: `h2load ${args.map((arg) => (arg.includes(' ') ? `'${arg}'` : arg)).join(' ')}`,
    seconds: seconds_,
    started: number(/ (\d+) started,/, 'started count'),
    done,
    succeeded: number(/ (\d+) succeeded,/, 'success count'),
    failed: number(/ (\d+) failed,/, 'failure count'),
    errored: number(/ (\d+) errored,/, 'error count'),
    status2xx: number(/status codes: (\d+) 2xx/, 'status counts'),
    dataBytes: number(/\((\d+)\) data/, 'data bytes'),
    callsPerSec: done / seconds_,
    clientCpuUsPerCall: run.cpuMs === null || done === 0 ? null : (run.cpuMs * 1000) / done,
    ...latencies(logFile),
  };
  return result;
}

/** p50 and p99 in ms from h2load's per-request log (start µs, HTTP status, duration µs). */
function latencies(logFile) {
  if (!existsSync(logFile)) return { p50: null, p99: null };
  const durations = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line.split('\t')[2]) / 1000)
    .sort((a, b) => a - b);
  const at = (q) => (durations.length ? durations[Math.min(durations.length - 1, Math.floor(q * durations.length))] : null);
  return { p50: at(0.5), p99: at(0.99) };
}
