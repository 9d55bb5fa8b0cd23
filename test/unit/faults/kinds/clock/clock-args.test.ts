import { describe, expect, it } from 'vitest';
import { parseOffset, parseRate } from '../../../../../src/faults/kinds/clock/clock-args.js';
import { clockState, driftWords, skewWords } from '../../../../../src/faults/kinds/clock/words.js';

describe('a clock fault as people write it', () => {
  it('takes signed offsets in ms, s, m, h and d', () => {
    expect(parseOffset('+30s')).toEqual({ ms: 30_000 });
    expect(parseOffset('-2m')).toEqual({ ms: -120_000 });
    expect(parseOffset('1h')).toEqual({ ms: 3_600_000 });
    expect(parseOffset('-500ms')).toEqual({ ms: -500 });
    expect(parseOffset(-30_000)).toEqual({ ms: -30_000 });
    expect(parseOffset('1.5s')).toEqual({ ms: 1500 });
  });

  it('refuses what is not an offset, and offsets beyond a year, saying what to write', () => {
    expect(parseOffset('+2y')).toEqual({ error: expect.stringMatching(/"\+2y" is not an offset \(write .*\+30s/) });
    expect(parseOffset('400d')).toEqual({ error: expect.stringMatching(/beyond a year/) });
    expect(parseOffset(undefined)).toEqual({ error: expect.stringMatching(/got nothing/) });
  });

  it('takes rates above 0 up to 100', () => {
    expect(parseRate('1.5')).toEqual({ rate: 1.5 });
    expect(parseRate('0.5')).toEqual({ rate: 0.5 });
    expect(parseRate('2x')).toEqual({ rate: 2 });
    expect(parseRate(2)).toEqual({ rate: 2 });
    expect(parseRate('0')).toEqual({ error: expect.stringMatching(/would stop the clock/) });
    expect(parseRate('-1')).toEqual({ error: expect.stringMatching(/is negative/) });
    expect(parseRate('101')).toEqual({ error: expect.stringMatching(/above 100/) });
    expect(parseRate('fast')).toEqual({ error: expect.stringMatching(/not a rate \(write how fast/) });
  });

  it('words a fault for the log, the CLI and inspect', () => {
    expect(skewWords('zk1', 30_000)).toBe("zk1's clock +30s");
    expect(skewWords('zk1', -120_000)).toBe("zk1's clock -2m00s");
    expect(driftWords('c2', 1.5)).toBe("c2's clock runs at 1.5×");
    expect(clockState(30_000, 1)).toBe('+30s');
    expect(clockState(0, 2)).toBe('runs at 2×');
    expect(clockState(0, 1)).toBe('true');
  });
});
