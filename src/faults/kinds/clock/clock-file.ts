import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDir } from '../../../lab/fs.js';

/**
 * A node's clock file, which the shim (shim.c) maps into every process of the node: 32 bytes, little-endian,
 *   u64 seq (a seqlock: odd while being written), i64 baseRealNs, i64 baseFakeNs, f64 rate;
 * the node's wall clock reads baseFake + (real − baseReal) · rate. A missing or short file, or a rate not above 0,
 * is no fault. Only the controller writes it, with pwrite: seq made odd, the body, seq made even again.
 *
 * How faults combine (the pure functions below): a skew sets the reading to true time + offset now and keeps the
 * rate; a drift keeps the reading where it is now and from here on advances it at the new rate; a reset is true time.
 */

export const CLOCK_FILE_BYTES = 32;

/** A node's clock: a fake timeline anchored at one real instant. */
export interface NodeClock {
  readonly baseRealNs: bigint;
  readonly baseFakeNs: bigint;
  readonly rate: number;
}

/** True time: no fault. */
export const TRUE_CLOCK: NodeClock = { baseRealNs: 0n, baseFakeNs: 0n, rate: 1 };

export const isTrue = (c: NodeClock): boolean => c.rate === 1 && c.baseRealNs === c.baseFakeNs;

/** What the node's wall clock reads at the real instant `realNs`. */
export function readingAt(c: NodeClock, realNs: bigint): bigint {
  const since = realNs - c.baseRealNs;
  return c.rate === 1 ? c.baseFakeNs + since : c.baseFakeNs + BigInt(Math.round(Number(since) * c.rate));
}

/** From now on: true time + offset (a jump), at the rate the clock had. */
export const skewed = (c: NodeClock, nowNs: bigint, offsetMs: number): NodeClock => ({
  baseRealNs: nowNs,
  baseFakeNs: nowNs + BigInt(offsetMs) * 1_000_000n,
  rate: c.rate,
});

/** From now on: advancing at `rate` from what it reads now (no jump). */
export const drifted = (c: NodeClock, nowNs: bigint, rate: number): NodeClock => ({
  baseRealNs: nowNs,
  baseFakeNs: readingAt(c, nowNs),
  rate,
});

/** How far ahead of true time the clock reads at `nowNs`, in ms (negative: behind). */
export const offsetMsAt = (c: NodeClock, nowNs: bigint): number => Number(readingAt(c, nowNs) - nowNs) / 1e6;

/** The true wall time, in ns (the controller's clock is never faked). */
export const realNowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

/** The body of a clock file, after its seq. */
function body(c: NodeClock): Buffer {
  const b = Buffer.alloc(24);
  b.writeBigInt64LE(c.baseRealNs, 0);
  b.writeBigInt64LE(c.baseFakeNs, 8);
  b.writeDoubleLE(c.rate, 16);
  return b;
}

/** Decodes a clock file's bytes; true time for a short file or one without a rate. */
export function decodeClock(bytes: Buffer): NodeClock {
  if (bytes.length < CLOCK_FILE_BYTES) return TRUE_CLOCK;
  const rate = bytes.readDoubleLE(24);
  if (!(rate > 0)) return TRUE_CLOCK;
  return { baseRealNs: bytes.readBigInt64LE(8), baseFakeNs: bytes.readBigInt64LE(16), rate };
}

/** The clock a node's file holds now (true time when there is none). */
export function readClockFile(file: string): NodeClock {
  return existsSync(file) ? decodeClock(readFileSync(file)) : TRUE_CLOCK;
}

/** When the file last changed: when its latest fault was set. */
export const clockFileChangedAt = (file: string): number | undefined =>
  existsSync(file) ? statSync(file).mtimeMs : undefined;

/**
 * Writes a node's clock under the seqlock, in place: the file's size never changes, so a process that mapped it
 * sees every write.
 */
export function writeClockFile(file: string, c: NodeClock): void {
  ensureDir(dirname(file));
  const fresh = !existsSync(file) || statSync(file).size < CLOCK_FILE_BYTES;
  const fd = openSync(file, fresh ? 'w+' : 'r+');
  try {
    if (fresh) writeSync(fd, Buffer.alloc(CLOCK_FILE_BYTES), 0, CLOCK_FILE_BYTES, 0);
    const seqBytes = Buffer.alloc(8);
    readSync(fd, seqBytes, 0, 8, 0);
    // Even (settled) before; odd while the body changes; even again after.
    const seq = seqBytes.readBigUInt64LE(0) & ~1n;
    writeSync(fd, u64(seq + 1n), 0, 8, 0);
    writeSync(fd, body(c), 0, 24, 8);
    writeSync(fd, u64(seq + 2n), 0, 8, 0);
  } finally {
    closeSync(fd);
  }
}

const u64 = (n: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n, 0);
  return b;
};
