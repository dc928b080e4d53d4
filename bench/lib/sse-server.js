// Section `sse-server`: events per second delivered by our SSE server (createSseEndpoint from
// runtime/sse-*.ts with its in-memory event log, publish fan-out: bench/lib/sse-ours.js)
// against a hand-written `res.write` loop (bench/lib/sse-raw.js), to the same READERS plain
// node:http readers in this process (bench/lib/sse-readers.js). The publisher runs inside each
// server process with the same pacing (bench/lib/sse-publisher.js); each server is its own child
// process, measured for CPU from /proc (bench/lib/servers.js). Before measuring, every reader must
// receive CHECK_EVENTS events, each once, in order, with increasing ids.
import { join } from 'node:path';
import { buildRuntime } from './realtime-runtime.js';
import { tail } from './proc.js';
import { cpuMs, rotatingRounds } from './servers.js';
import { eventPayload, STREAM_PATH } from './sse-publisher.js';
import { openReader, startCounting } from './sse-readers.js';
import { fmtRatio, int, median, table } from './stats.js';
import { recordTarget, TARGETS, targetText, verdictText } from './summary.js';
import { WORK } from './tools.js';

const READERS = 100;
const CHECK_EVENTS = 200;
const TARGET = TARGETS.sse;
/** Measured runs per server, interleaved; figures are the medians. */
const ROUNDS = 3;
const DIR = join(WORK, 'sse-server');
/** The runtime the server imports (the modules they import come along). */
const RUNTIME_FILES = ['sse-server'];

const SERVERS = [
  {
    id: 'ours',
    label: 'codegen: SSE runtime (createSseEndpoint, MemoryEventLog, publish fan-out)',
    args: ['bench/lib/sse-ours.js'],
    env: { NODE_ENV: 'production', BENCH_SSE_OUT: join(DIR, 'js') },
  },
  {
    id: 'raw',
    label: 'hand-written res.write loop (id + data, formatted once per event)',
    args: ['bench/lib/sse-raw.js'],
    env: { NODE_ENV: 'production' },
  },
];

/** The median of every numeric figure over a server's rounds. */
function medians(samples) {
  if (!samples.length) return {};
  const keys = Object.keys(samples[0]).filter((key) => samples.every((sample) => typeof sample[key] === 'number'));
  return Object.fromEntries(keys.map((key) => [key, median(samples.map((sample) => sample[key]))]));
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function control(base, path, method = 'POST') {
  const response = await fetch(`${base}${path}`, { method }).catch(async (error) => {
    // A pooled keep-alive connection the busy server closed meanwhile fails before any answer: a
    // GET is asked again once on a new connection (seen once in CI under load); a POST never is.
    if (method !== 'GET') throw error;
    return fetch(`${base}${path}`, { method, headers: { connection: 'close' } });
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
  return response.json();
}

async function until(condition, timeoutMs, what) {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`${what} within ${timeoutMs / 1000} s`);
    await wait(20);
  }
}

/** Every reader got the check events: each once, in order, its payload intact, ids increasing. */
function checkEvents(readers) {
  const expected = Array.from({ length: CHECK_EVENTS }, (_, seq) => JSON.stringify(eventPayload(seq)));
  const problems = [];
  for (const [index, reader] of readers.entries()) {
    if (reader.status !== 200 || !reader.contentType.startsWith('text/event-stream')) {
      problems.push(`reader ${index}: ${reader.status} ${reader.contentType}`);
      continue;
    }
    if (reader.events.length !== CHECK_EVENTS) problems.push(`reader ${index}: ${reader.events.length} of ${CHECK_EVENTS} events`);
    const wrong = reader.events.findIndex((event, seq) => event.data !== expected[seq]);
    if (wrong !== -1) problems.push(`reader ${index}: event ${wrong} is ${reader.events[wrong].data}`);
    const ids = reader.events.map((event) => event.id);
    if (ids.some((id) => !id) || new Set(ids).size !== ids.length) problems.push(`reader ${index}: missing or repeated ids`);
    // Ours: `<ms>-<seq>`; raw: the counter. Both increase as numbers, part by part.
    const key = (id) => id.split('-').map(Number);
    const increasing = ids.every(
      (id, at) => at === 0 || (([a0, a1 = 0], [b0, b1 = 0]) => a0 > b0 || (a0 === b0 && a1 > b1))(key(id), key(ids[at - 1])),
    );
    if (!increasing) problems.push(`reader ${index}: ids not increasing`);
    if (problems.length > 5) break;
  }
  return problems;
}

async function measure(running, { warmup, seconds }) {
  const base = running.url;
  const readers = await Promise.all(Array.from({ length: READERS }, () => openReader(`${base}${STREAM_PATH}`)));
  try {
    await until(async () => (await control(base, '/status', 'GET')).streams === READERS, 10_000, `${READERS} streams open`);
    await control(base, `/publish?count=${CHECK_EVENTS}`);
    await until(
      () => readers.every((reader) => reader.events.length >= CHECK_EVENTS || reader.ended),
      10_000,
      `every reader got ${CHECK_EVENTS} events`,
    ).catch(() => {});
    const problems = checkEvents(readers);
    if (problems.length) throw new Error(`does not deliver every event in order: ${problems.join('; ')}`);
    startCounting(readers);
    const delivered = () => readers.reduce((sum, reader) => sum + reader.counted, 0);
    const pid = running.child.pid;
    await control(base, '/run');
    await wait(warmup * 1000);
    const before = {
      events: delivered(),
      at: performance.now(),
      cpu: process.cpuUsage(),
      server: cpuMs(pid),
      published: (await control(base, '/status', 'GET')).published,
    };
    await wait(seconds * 1000);
    const after = {
      events: delivered(),
      at: performance.now(),
      cpu: process.cpuUsage(),
      server: cpuMs(pid),
      published: (await control(base, '/status', 'GET')).published,
    };
    await control(base, '/stop');
    const dropped = readers.filter((reader) => reader.ended).length;
    const elapsed = (after.at - before.at) / 1000;
    const events = after.events - before.events;
    const serverCpuMs = before.server === null || after.server === null ? null : after.server - before.server;
    const clientCpuMs = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000;
    return {
      events,
      seconds: elapsed,
      eventsPerSec: events / elapsed,
      publishedPerSec: (after.published - before.published) / elapsed,
      dropped,
      serverCpuNsPerEvent: serverCpuMs === null || !events ? null : (serverCpuMs * 1e6) / events,
      serverCpuShare: serverCpuMs === null ? null : serverCpuMs / 1000 / elapsed,
      clientCpuNsPerEvent: events ? (clientCpuMs * 1e6) / events : null,
      clientCpuShare: clientCpuMs / 1000 / elapsed,
    };
  } finally {
    for (const reader of readers) reader.close();
  }
}

/**
 * @param {{ log: (line: string) => void, quick: boolean, seconds?: number }} options
 */
export async function benchSseServer({ log, quick, seconds = quick ? 3 : 10 }) {
  log('\n## 10. SSE server: our runtime (publish fan-out) vs a hand-written res.write loop');
  const warmup = quick ? 1 : 3;
  const rounds = quick ? 1 : ROUNDS;
  log(
    `   ${rounds} round(s) per server, interleaved, medians shown; ${READERS} node:http readers in the harness process on one channel; the publisher inside each server process, 50 events per batch, waiting on readers with > 64 KB queued; ~130-byte JSON events; ${warmup} s warm-up + ${seconds} s measured`,
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
        const sample = await measure(running, { warmup, seconds });
        results.find((result) => result.server === server.id).samples.push(sample);
        if (sample.dropped) log(`   ! ${server.id}, round ${round + 1}: ${sample.dropped} readers were dropped during the run`);
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
  const ratio = ours?.eventsPerSec && raw?.eventsPerSec ? ours.eventsPerSec / raw.eventsPerSec : null;
  const cpuRatio = ours?.serverCpuNsPerEvent && raw?.serverCpuNsPerEvent ? raw.serverCpuNsPerEvent / ours.serverCpuNsPerEvent : null;
  const measured = (entry) => entry.eventsPerSec != null;
  const ns = (value) => (value == null ? '—' : value >= 1000 ? `${(value / 1000).toFixed(2)} µs` : `${value.toFixed(0)} ns`);
  const share = (value) => (value == null ? '—' : `${Math.round(value * 100)} %`);
  const range = (values) => `${int(Math.round(Math.min(...values)))} – ${int(Math.round(Math.max(...values)))}`;
  const rows = results.map((entry) => [
    entry.label,
    measured(entry) ? int(Math.round(entry.eventsPerSec)) : '✗',
    measured(entry) ? range(entry.samples.map((sample) => sample.eventsPerSec)) : '—',
    measured(entry) ? int(Math.round(entry.publishedPerSec)) : '—',
    measured(entry) ? ns(entry.serverCpuNsPerEvent) : '—',
    measured(entry) ? share(entry.serverCpuShare) : '—',
    measured(entry) ? ns(entry.clientCpuNsPerEvent) : '—',
    measured(entry) ? share(entry.clientCpuShare) : '—',
  ]);
  log('');
  log(
    table(
      ['server', 'delivered events/s', 'min – max', 'published/s', 'server CPU/event', 'server CPU', 'client CPU/event', 'client CPU'],
      rows,
    )
      .split('\n')
      .map((line) => `   ${line}`)
      .join('\n'),
  );
  log(
    `   (delivered = complete events counted by all ${READERS} readers; CPU/event per delivered event; CPU share of one core; "client" is the harness)`,
  );
  const perRound =
    ours?.samples.length && ours.samples.length === raw?.samples.length
      ? ours.samples.map((sample, round) => fmtRatio(sample.eventsPerSec / raw.samples[round].eventsPerSec))
      : [];
  if (perRound.length > 1) log(`   ours / peer per round: ${perRound.join(', ')}`);
  log(
    `   ours / res.write loop = ${fmtRatio(ratio)} events/s, ${fmtRatio(cpuRatio)} by server CPU per delivered event (the loop's CPU/event over ours) (target ${targetText(TARGET)}: ${verdictText(ratio, TARGET)})`,
  );
  recordTarget({
    section: 'sse-server',
    id: 'sse',
    ours: ours?.eventsPerSec ? `${int(Math.round(ours.eventsPerSec))} events/s, ${ns(ours.serverCpuNsPerEvent)}/event` : '—',
    peer: raw?.eventsPerSec
      ? `res.write loop ${int(Math.round(raw.eventsPerSec))} events/s, ${ns(raw.serverCpuNsPerEvent)}/event`
      : 'res.write loop',
    ratio,
    cpuRatio,
  });
  return {
    ok,
    rounds,
    readers: READERS,
    checkEvents: CHECK_EVENTS,
    seconds,
    warmup,
    results,
    ratio: { events: ratio, cpu: cpuRatio, target: TARGET.atLeast },
  };
}
