/**
 * The bench's closing table (bench/lib/summary.js): every registered row with its target, met or
 * missed by the ratio; a section that registered none gets its row from the result it returned; a
 * section that threw is a "harness failed" row. Figures here are made up: nothing is timed.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain-JS module of the bench, without declarations.
import { meets, printSummary, recordTarget, summaryRows, TARGETS, targetText } from '../bench/lib/summary.js';

describe('bench summary', () => {
  it('prints one row per target, met or missed by its ratio, and a row for a section that threw', () => {
    recordTarget({ section: 'ws-server', id: 'ws', ours: '90,000 msg/s', peer: 'raw ws 100,000 msg/s', ratio: 0.9, cpuRatio: 0.97 });
    recordTarget({ section: 'sse-server', id: 'sse', ours: '1 event/s', peer: 'loop', ratio: 1.2, cpuRatio: 1.1 });
    const lines: string[] = [];
    printSummary((line: string) => lines.push(line), {
      ran: [
        { section: 'ws-server', result: { ok: true } },
        { section: 'sse-server', result: { ok: true } },
        { section: 'grpc-messages', result: { ratio: { binaryMin: 1.3 } } },
        { section: 'rest-server', error: new Error('boom') },
      ],
    });
    const text = lines.join('\n');
    const row = (what: string) => text.split('\n').find((line) => line.includes(what)) ?? '';
    expect(row(TARGETS.ws.what)).toMatch(/0\.90×\s+0\.97×\s+≥ 0\.95×\s+missed$/);
    expect(row(TARGETS.sse.what)).toMatch(/1\.20×\s+1\.10×\s+≥ 1×\s+met$/);
    expect(row(TARGETS['protobuf-binary'].what)).toMatch(/1\.30×\s+—\s+≥ 1×\s+met$/);
    expect(row('section rest-server')).toMatch(/✗ harness failed$/);
    expect(summaryRows().map((entry: { id?: string; met: boolean | null }) => [entry.id, entry.met])).toEqual([
      ['ws', false],
      ['sse', true],
      ['protobuf-binary', true],
      [undefined, null],
    ]);
  });

  it('reads a target in either direction', () => {
    expect(meets(0.5, TARGETS.generation)).toBe(true);
    expect(meets(0.51, TARGETS.generation)).toBe(false);
    expect(meets(null, TARGETS.ws)).toBe(null);
    expect(targetText(TARGETS['tsc-5'])).toBe('≤ 1.5×');
  });
});
