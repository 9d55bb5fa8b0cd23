import { describe, expect, it } from 'vitest';
import { renderClockList } from '../../../../src/cli/views/clock.js';

describe('zklab clock list, as a table', () => {
  it('says so when no clock is faked', () => {
    expect(renderClockList([], 0)).toBe("no node's clock is faked");
  });

  it('gives a row per faked node, with how long ago its fault began', () => {
    const out = renderClockList(
      [
        { node: 'zk1', offsetMs: 30_000, offset: '+30s', rateValue: 1, rate: '1×', sinceMs: 1_000 },
        { node: 'c2', offsetMs: 0, offset: '+0ms', rateValue: 1.5, rate: '1.5×', sinceMs: 4_000 },
      ],
      6_500,
    );
    const lines = out.split('\n').map((l) => l.trim().split(/\s+/));
    expect(lines[0]).toEqual(['NODE', 'OFFSET', 'RATE', 'SINCE']);
    expect(lines.slice(1)).toEqual([
      ['zk1', '+30s', '1×', '5.5s', 'ago'],
      ['c2', '+0ms', '1.5×', '2.5s', 'ago'],
    ]);
  });
});
