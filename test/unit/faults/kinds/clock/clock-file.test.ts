import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLOCK_FILE_BYTES,
  decodeClock,
  drifted,
  isTrue,
  offsetMsAt,
  readClockFile,
  readingAt,
  skewed,
  TRUE_CLOCK,
  writeClockFile,
} from '../../../../../src/faults/kinds/clock/clock-file.js';

const S = 1_000_000_000n;
const t0 = 1_800_000_000n * S;

describe('how clock faults combine', () => {
  it('reads true time without a fault', () => {
    expect(readingAt(TRUE_CLOCK, t0)).toBe(t0);
    expect(isTrue(TRUE_CLOCK)).toBe(true);
  });

  it('a skew jumps to true time + offset and runs on at the rate it had', () => {
    const c = skewed(TRUE_CLOCK, t0, 30_000);
    expect(readingAt(c, t0)).toBe(t0 + 30n * S);
    expect(readingAt(c, t0 + 10n * S)).toBe(t0 + 40n * S);
    const fast = skewed(drifted(TRUE_CLOCK, t0, 2), t0 + 10n * S, -5_000);
    expect(readingAt(fast, t0 + 10n * S)).toBe(t0 + 5n * S);
    expect(readingAt(fast, t0 + 12n * S)).toBe(t0 + 9n * S);
  });

  it('a drift keeps the reading where it is and advances it at the new rate from there', () => {
    const skew = skewed(TRUE_CLOCK, t0, 30_000);
    const d = drifted(skew, t0 + 10n * S, 1.5);
    expect(readingAt(d, t0 + 10n * S)).toBe(t0 + 40n * S);
    expect(readingAt(d, t0 + 20n * S)).toBe(t0 + 55n * S);
    expect(offsetMsAt(d, t0 + 20n * S)).toBe(35_000);
    const slow = drifted(TRUE_CLOCK, t0, 0.5);
    expect(offsetMsAt(slow, t0 + 10n * S)).toBe(-5_000);
  });
});

describe('the clock file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zklab-clock-'));

  it('is 32 bytes: an even seq, then the clock, read back as written', () => {
    const file = join(dir, 'zk1');
    const c = drifted(skewed(TRUE_CLOCK, t0, -2_000), t0, 1.25);
    writeClockFile(file, c);
    expect(statSync(file).size).toBe(CLOCK_FILE_BYTES);
    expect(readClockFile(file)).toEqual(c);
    const seq = readFileSync(file).readBigUInt64LE(0);
    expect(seq % 2n).toBe(0n);
    writeClockFile(file, TRUE_CLOCK);
    expect(readFileSync(file).readBigUInt64LE(0)).toBe(seq + 2n);
    expect(isTrue(readClockFile(file))).toBe(true);
  });

  it('reads a missing, short or zeroed file as true time', () => {
    expect(readClockFile(join(dir, 'none'))).toEqual(TRUE_CLOCK);
    expect(decodeClock(Buffer.alloc(8))).toEqual(TRUE_CLOCK);
    expect(decodeClock(Buffer.alloc(32))).toEqual(TRUE_CLOCK);
  });
});
