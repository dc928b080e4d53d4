// The closing table of `node bench/run.js`: one row per target of issue 17 (what, ours, peer,
// ratio, CPU ratio, target, met/missed), so that one run gives every figure a note quotes.
//
// A section registers its rows with `recordTarget` while it runs; run.js prints them all at the
// end with `printSummary`. A section that registers nothing gets its rows from `ADAPTERS` below,
// which read the result the section returned (for sections written before this collector); a
// section that threw gets a "harness failed" row. Targets are information: a missed one never
// changes the exit code.
import { fmtRatio, table } from './stats.js';

/**
 * The targets, by row id. `atLeast`: a ratio where more is better for us (throughput:
 * ours / peer); `atMost`: a ratio where less is better (time: ours / peer).
 */
export const TARGETS = {
  generation: { atMost: 0.5, what: 'generation, GitHub REST (types + validators + client + server)' },
  'tsc-5': { atMost: 1.5, what: 'tsc --noEmit on the whole output, TypeScript 5.9' },
  'tsc-7': { atMost: 1.5, what: 'tsc --noEmit on the whole output, TypeScript 7' },
  validators: { atLeast: 2, what: 'validators vs ajv + formats, worst of every cell' },
  'rest-get': { atLeast: 1.1, what: 'REST GET with ETag, req/s' },
  'rest-post': { atLeast: 1.1, what: 'REST POST with validated body, req/s' },
  'protobuf-binary': { atLeast: 1.0, what: 'protobuf binary encode/decode, worst case' },
  'protobuf-json': { atLeast: 1.0, what: 'protobuf JSON encode/decode, worst case' },
  grpc: { atLeast: 1.2, what: 'gRPC unary calls/s' },
  graphql: { atLeast: 1.0, what: 'GraphQL nested query req/s, vs Mercurius + graphql-jit' },
  ws: { atLeast: 0.95, what: 'WebSocket validate + dispatch + echo, msg/s' },
  sse: { atLeast: 1.0, what: 'SSE fan-out, delivered events/s' },
};

/** `≥ 0.95×` / `≤ 1.5×` */
export function targetText(target) {
  if (!target) return 'info';
  return target.atLeast !== undefined ? `≥ ${target.atLeast}×` : `≤ ${target.atMost}×`;
}

/** Whether `value` meets `target`; `null` when either is missing. */
export function meets(value, target) {
  if (value == null || !target) return null;
  return target.atLeast !== undefined ? value >= target.atLeast : value <= target.atMost;
}

/** `within` / `under` (or `over`) the target, for a section's own closing line. */
export function verdictText(value, target) {
  const met = meets(value, target);
  if (met === null) return 'not measured';
  return met ? 'within' : target.atLeast !== undefined ? 'under' : 'over';
}

const rows = [];
const sectionsWithRows = new Set();

/**
 * Registers one row of the closing table.
 *
 * @param {{ section: string, id: string, what?: string, ours?: string, peer?: string,
 *   ratio: number | null, cpuRatio?: number | null, target?: { atLeast?: number, atMost?: number } | null,
 *   note?: string }} row
 *   `id` names the target in `TARGETS` (its text and target are the defaults); `ours`/`peer` are
 *   the measured figures as printed (e.g. `73,067 msg/s`); `ratio` is ours / peer as the section
 *   prints it; `cpuRatio` the same by CPU (for throughput: the peer's CPU per operation over ours,
 *   so that above 1 we use less; for times: ours over the peer's).
 */
export function recordTarget(row) {
  const target = row.target === undefined ? TARGETS[row.id] : row.target;
  rows.push({ ...row, what: row.what ?? TARGETS[row.id]?.what ?? row.id, target: target ?? null });
  sectionsWithRows.add(row.section);
}

/** Rows registered so far (for results.json). */
export function summaryRows() {
  return rows.map((row) => ({ ...row, met: meets(row.ratio, row.target) }));
}

const seconds = (ms) => (ms == null ? '—' : `${(ms / 1000).toFixed(2)} s`);

/**
 * Rows of sections that register none themselves, from the result they return. Each is tolerant:
 * a shape it does not know gives no row, and the summary says the section registered none.
 */
export const ADAPTERS = {
  tsc: (result) =>
    (result.ratios ?? [])
      .filter((r) => r.name.startsWith('ours whole output'))
      .map((r) => {
        const seven = /\(TypeScript 7/.test(r.name);
        const cell = (subject) =>
          result.results?.find((entry) => entry.subject === subject && entry.compilerId === (seven ? 'ts7' : 'ts5'));
        return {
          id: seven ? 'tsc-7' : 'tsc-5',
          ours: seconds(cell('ours')?.time?.median),
          peer: `openapi-typescript ${seconds(cell('openapi-typescript')?.time?.median)}`,
          ratio: r.value,
          cpuRatio: r.cpu,
          note: r.note || undefined,
        };
      }),
  'rest-server': (result) =>
    Object.entries(result.ratios ?? {}).map(([route, r]) => ({
      id: /post/i.test(route) ? 'rest-post' : 'rest-get',
      what: `${TARGETS[/post/i.test(route) ? 'rest-post' : 'rest-get'].what} (${route})`,
      peer: 'Fastify',
      ratio: r.rps ?? null,
      cpuRatio: r.cpu ?? null,
    })),
  'grpc-messages': (result) =>
    result.ratio
      ? [
          { id: 'protobuf-binary', peer: 'protobufjs static (pbjs)', ratio: result.ratio.binaryMin ?? null },
          ...(result.ratio.jsonMin == null ? [] : [{ id: 'protobuf-json', peer: 'protobufjs static (pbjs)', ratio: result.ratio.jsonMin }]),
        ]
      : [],
};

/**
 * Prints the closing table: every registered row, adapted rows for the sections that ran without
 * registering any, and a row per section that threw.
 *
 * @param {(line: string) => void} log
 * @param {{ ran: { section: string, result?: unknown, error?: unknown }[] }} options
 */
export function printSummary(log, { ran }) {
  for (const { section, result, error } of ran) {
    if (error !== undefined) {
      rows.push({ section, what: `section ${section}`, ratio: null, target: null, note: 'harness failed (threw)', failed: true });
      continue;
    }
    if (sectionsWithRows.has(section) || !ADAPTERS[section] || !result) continue;
    let adapted = [];
    try {
      adapted = ADAPTERS[section](result);
    } catch {
      adapted = [];
    }
    for (const row of adapted) recordTarget({ section, ...row });
    if (!adapted.length) rows.push({ section, what: `section ${section}`, ratio: null, target: null, note: 'no figure registered' });
  }
  if (!rows.length) return;
  // In the order the sections ran (adapted rows come after the registered ones otherwise).
  const order = ran.map((entry) => entry.section);
  rows.sort((a, b) => order.indexOf(a.section) - order.indexOf(b.section));
  log('\n## Summary: the issue’s targets, from this run');
  const lines = rows.map((row) => {
    const met = meets(row.ratio, row.target);
    return [
      row.what,
      row.ours ?? '',
      row.peer ?? '',
      fmtRatio(row.ratio),
      fmtRatio(row.cpuRatio ?? null),
      targetText(row.target),
      row.failed ? '✗ harness failed' : met === null ? (row.note ?? (row.target ? 'not measured' : 'information')) : met ? 'met' : 'missed',
    ];
  });
  log(
    table(['what', 'ours', 'peer', 'ratio', 'CPU ratio', 'target', 'met?'], lines)
      .split('\n')
      .map((line) => `   ${line}`)
      .join('\n'),
  );
  log('   (ratio: ours / peer as each section prints it; CPU ratio: by CPU per operation, for throughput the peer’s CPU over ours)');
}
