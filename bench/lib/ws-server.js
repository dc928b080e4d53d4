// Section `ws-server`: messages per second through our WebSocket server (validate + dispatch + echo:
// createWebSocketEndpoint from runtime/ws-*.ts, bench/lib/ws-ours.js) against a raw
// `ws` echo server (bench/lib/ws-raw.js); an information row adds to the raw server the JSON and
// check work a validating echo cannot avoid (bench/lib/ws-json.js). The runtime is copied and
// transpiled here (bench/lib/realtime-runtime.js); each server runs in its own child process,
// measured for CPU from /proc (bench/lib/servers.js). The load is CONNECTIONS plain `ws` clients in this process,
// WINDOW messages in flight on each (bench/lib/ws-load.js). Before measuring, each server must echo
// 200 distinct messages byte-identical and in order, and ours must close an invalid one with 1008.
import { join } from 'node:path';
import { buildRuntime } from './realtime-runtime.js';
import { tail } from './proc.js';
import { cpuMs, rotatingRounds } from './servers.js';
import { fmtRatio, int, median, table } from './stats.js';
import { recordTarget, TARGETS, targetText, verdictText } from './summary.js';
import { versionOf, WORK } from './tools.js';
import { WS_PATH } from './ws-echo.js';
import { checkEcho, startLoad } from './ws-load.js';

const CONNECTIONS = 50;
const WINDOW = 32;
const TARGET = TARGETS.ws;
/** Measured runs per server, interleaved; figures are the medians. */
const ROUNDS = 3;
const DIR = join(WORK, 'ws-server');
/** The runtime modules the server imports (the modules they import come along). */
const RUNTIME_FILES = ['validation', 'ws-server'];

const SERVERS = [
  {
    id: 'ours',
    label: 'codegen: WebSocket runtime (createWebSocketEndpoint), validate + dispatch + echo',
    args: ['bench/lib/ws-ours.js'],
    env: { NODE_ENV: 'production', BENCH_WS_OUT: join(DIR, 'js') },
    validates: true,
  },
  {
    id: 'raw',
    label: `raw ws ${versionOf('ws')} echo server (ws.send(data) on 'message', no validation)`,
    args: ['bench/lib/ws-raw.js'],
    env: { NODE_ENV: 'production' },
    validates: false,
  },
  {
    id: 'json',
    label: 'information: raw ws + JSON.parse + the same check + JSON.stringify, no runtime',
    args: ['bench/lib/ws-json.js'],
    env: { NODE_ENV: 'production' },
    validates: true,
  },
];

/** The median of every numeric figure over a server's rounds. */
function medians(samples) {
  if (!samples.length) return {};
  const keys = Object.keys(samples[0]).filter((key) => samples.every((sample) => typeof sample[key] === 'number'));
  return Object.fromEntries(keys.map((key) => [key, median(samples.map((sample) => sample[key]))]));
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null;
}

/** Runs the load against one server: warm-up, then the measured window. */
async function measure(url, pid, { warmup, seconds }) {
  const load = await startLoad(url, { connections: CONNECTIONS, window: WINDOW });
  try {
    await wait(warmup * 1000);
    const before = load.sample();
    const serverBefore = cpuMs(pid);
    await wait(seconds * 1000);
    const after = load.sample();
    const serverAfter = cpuMs(pid);
    const elapsed = (after.at - before.at) / 1000;
    const messages = after.echoes - before.echoes;
    const clientCpuMs = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000;
    const serverCpuMs = serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore;
    const latencies = after.latencies.sort((a, b) => a - b);
    return {
      messages,
      seconds: elapsed,
      messagesPerSec: messages / elapsed,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      failures: after.failures,
      serverCpuUsPerMessage: serverCpuMs === null || !messages ? null : (serverCpuMs * 1000) / messages,
      serverCpuShare: serverCpuMs === null ? null : serverCpuMs / 1000 / elapsed,
      clientCpuUsPerMessage: messages ? (clientCpuMs * 1000) / messages : null,
      clientCpuShare: clientCpuMs / 1000 / elapsed,
    };
  } finally {
    await load.stop();
  }
}

/**
 * @param {{ log: (line: string) => void, quick: boolean, seconds?: number }} options
 */
export async function benchWsServer({ log, quick, seconds = quick ? 3 : 10 }) {
  log('\n## 9. WebSocket server: our runtime (validate + dispatch + echo) vs a raw ws echo server');
  const warmup = quick ? 1 : 3;
  const rounds = quick ? 1 : ROUNDS;
  log(
    `   ${rounds} round(s) per server, interleaved, medians shown; load: ${CONNECTIONS} ws ${versionOf('ws')} clients in the harness process, ${WINDOW} messages in flight on each, ~100-byte JSON text messages, ${warmup} s warm-up + ${seconds} s measured; each server its own child process`,
  );
  const built = await buildRuntime(DIR, RUNTIME_FILES);
  const results = SERVERS.map((server) => ({ server: server.id, label: server.label, samples: [] }));
  let ok = true;
  if (built.reason) {
    results[0].failure = built.reason;
    ok = false;
    log(`   ✗ ours: ${built.reason}`);
  }
  await rotatingRounds(
    SERVERS.filter((server) => !results.find((result) => result.server === server.id).failure),
    rounds,
    {
      async measure(server, running, round) {
        const entry = results.find((result) => result.server === server.id);
        const url = `${running.url.replace('http://', 'ws://')}${WS_PATH}`;
        const problems = await checkEcho(url, { validates: server.validates });
        if (problems.length) throw new Error(`does not echo as expected: ${problems.join('; ')}`);
        const sample = await measure(url, running.child.pid, { warmup, seconds });
        entry.samples.push(sample);
        if (sample.failures) log(`   ! ${server.id}, round ${round + 1}: ${sample.failures} connections closed abnormally during the run`);
      },
      failed(server, error, running) {
        results.find((result) => result.server === server.id).failure = error.message;
        ok = false;
        log(`   ✗ ${server.id}: ${error.message}`);
        if (running) log(tail(running.stderr()));
      },
    },
  );
  for (const entry of results) Object.assign(entry, medians(entry.samples));

  const of = (id) => results.find((entry) => entry.server === id);
  const ours = of('ours');
  const raw = of('raw');
  const ratio = ours?.messagesPerSec && raw?.messagesPerSec ? ours.messagesPerSec / raw.messagesPerSec : null;
  const cpuRatio =
    ours?.serverCpuUsPerMessage && raw?.serverCpuUsPerMessage ? raw.serverCpuUsPerMessage / ours.serverCpuUsPerMessage : null;
  const measured = (entry) => entry.messagesPerSec != null;
  const msText = (value) => (value == null ? '—' : `${value.toFixed(1)} ms`);
  const us = (value) => (value == null ? '—' : `${value.toFixed(1)} µs`);
  const share = (value) => (value == null ? '—' : `${Math.round(value * 100)} %`);
  const range = (values) => `${int(Math.round(Math.min(...values)))} – ${int(Math.round(Math.max(...values)))}`;
  const rows = results.map((entry) => [
    entry.label,
    measured(entry) ? int(Math.round(entry.messagesPerSec)) : '✗',
    measured(entry) ? range(entry.samples.map((sample) => sample.messagesPerSec)) : '—',
    measured(entry) ? msText(entry.p50) : '—',
    measured(entry) ? msText(entry.p99) : '—',
    measured(entry) ? us(entry.serverCpuUsPerMessage) : '—',
    measured(entry) ? share(entry.serverCpuShare) : '—',
    measured(entry) ? us(entry.clientCpuUsPerMessage) : '—',
    measured(entry) ? share(entry.clientCpuShare) : '—',
  ]);
  log('');
  log(
    table(['server', 'msg/s', 'min – max', 'p50', 'p99', 'server CPU/msg', 'server CPU', 'client CPU/msg', 'client CPU'], rows)
      .split('\n')
      .map((line) => `   ${line}`)
      .join('\n'),
  );
  log('   (CPU: share of one core over the measured window; "client" is the harness process that runs the load)');
  const perRound =
    ours?.samples.length && ours.samples.length === raw?.samples.length
      ? ours.samples.map((sample, round) => fmtRatio(sample.messagesPerSec / raw.samples[round].messagesPerSec))
      : [];
  if (perRound.length > 1) log(`   ours / peer per round: ${perRound.join(', ')}`);
  const json = of('json');
  if (json?.messagesPerSec && ours?.messagesPerSec)
    log(
      `   information: ours / hand-written validating echo = ${fmtRatio(ours.messagesPerSec / json.messagesPerSec)} msg/s, ${fmtRatio(json.serverCpuUsPerMessage / ours.serverCpuUsPerMessage)} by server CPU per message; that echo / raw ws = ${fmtRatio(raw?.messagesPerSec ? json.messagesPerSec / raw.messagesPerSec : null)} msg/s`,
    );
  log(
    `   ours / raw ws = ${fmtRatio(ratio)} msg/s, ${fmtRatio(cpuRatio)} by server CPU per message (raw's CPU/msg over ours) (target ${targetText(TARGET)}: ${verdictText(ratio, TARGET)})`,
  );
  recordTarget({
    section: 'ws-server',
    id: 'ws',
    ours: ours?.messagesPerSec ? `${int(Math.round(ours.messagesPerSec))} msg/s, ${us(ours.serverCpuUsPerMessage)}/msg` : '—',
    peer: raw?.messagesPerSec ? `raw ws ${int(Math.round(raw.messagesPerSec))} msg/s, ${us(raw.serverCpuUsPerMessage)}/msg` : 'raw ws',
    ratio,
    cpuRatio,
  });
  return {
    ok,
    rounds,
    connections: CONNECTIONS,
    window: WINDOW,
    seconds,
    warmup,
    results,
    ratio: { messages: ratio, cpu: cpuRatio, target: TARGET.atLeast },
  };
}
