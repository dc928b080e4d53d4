/**
 * The loop every seeded fuzz test shares: `concurrency` workers draw cases from one seeded `Rng`
 * until `target` cases were sent or `timeLimitMs` passed; each case's outcome is counted under a key
 * (a status, a close code) and any broken expectation is collected as a failure.
 */
import { Rng } from './e2e-fuzz.js';

export interface FuzzLoop<Case> {
  seed: number;
  target: number;
  timeLimitMs: number;
  concurrency: number;
  next(rng: Rng): Case;
  /** Runs one case; returns the key its outcome is counted under, and reports what is wrong through `fail`. */
  run(fuzzCase: Case, fail: (reason: string) => void): Promise<string>;
}

export interface FuzzResult {
  sent: number;
  seconds: number;
  counts: Map<string, number>;
  failures: string[];
}

export async function fuzz<Case>(loop: FuzzLoop<Case>): Promise<FuzzResult> {
  const rng = new Rng(loop.seed);
  const started = Date.now();
  const counts = new Map<string, number>();
  const failures: string[] = [];
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (sent < loop.target && Date.now() - started < loop.timeLimitMs) {
      const fuzzCase = loop.next(rng);
      sent++;
      const key = await loop.run(fuzzCase, (reason) => failures.push(reason));
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: loop.concurrency }, worker));
  return { sent, seconds: (Date.now() - started) / 1000, counts, failures };
}

/** One line for the test log: the seed (to reproduce), how many, how long, and the outcomes. */
export function fuzzSummary(label: string, seed: number, result: FuzzResult, unit = 'requests'): string {
  const outcomes = [...result.counts]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ');
  return `${label}: seed 0x${seed.toString(16)}, ${result.sent} ${unit} in ${result.seconds.toFixed(1)} s; outcomes: ${outcomes}; failures ${result.failures.length}`;
}
