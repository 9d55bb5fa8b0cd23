import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { ZkClient } from '../../src/zk/client.js';
import { waitFor } from './wait.js';

/** test/programs/clock_reader.py: a contender that writes down its own wall and monotonic clocks every 100 ms. */
export const CLOCK_READER = join(PACKAGE_ROOT, 'test', 'programs', 'clock_reader.py');

/** One reading of the program's, with how far its wall clock was from true time then (true: this test's own). */
export interface Reading {
  /** The program's time.time(), in ms. */
  readonly wall: number;
  /** The program's time.monotonic(), in ms: CLOCK_MONOTONIC, the machine's, the same as this process reads. */
  readonly mono: number;
  readonly offsetMs: number;
}

/** This test's own wall clock at a monotonic instant: the true time the program read its clocks. */
const trueWallAt = (monoMs: number): number => Date.now() - (Number(process.hrtime.bigint()) / 1e6 - monoMs);

/** Every reading the program `id` wrote in `dir`, oldest first. */
export function readings(dir: string, id: string): Reading[] {
  let text: string;
  try {
    text = readFileSync(join(dir, `${id}.jsonl`), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.endsWith('}'))
    .map((l) => JSON.parse(l) as { wall: number; mono: number })
    .map((r) => ({ wall: r.wall * 1000, mono: r.mono * 1000, offsetMs: r.wall * 1000 - trueWallAt(r.mono * 1000) }));
}

/** The readings taken after the monotonic instant `sinceMono` (this process's hrtime, in ms). */
export const readingsSince = (dir: string, id: string, sinceMono: number): Reading[] =>
  readings(dir, id).filter((r) => r.mono > sinceMono);

export const monoNow = (): number => Number(process.hrtime.bigint()) / 1e6;

/** How fast the program's wall clock ran between two of its readings, against the machine's monotonic clock. */
export const rateBetween = (a: Reading, b: Reading): number => (b.wall - a.wall) / (b.mono - a.mono);

/**
 * The times a server's log stamps its lines with after byte `from` (log4j's ISO8601, the JVM's own wall clock; the
 * machine runs on UTC), as ms.
 */
export function logStampsFrom(log: string, from: number): number[] {
  return readFileSync(log, 'utf8')
    .slice(from)
    .split('\n')
    .map((l) => /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d),(\d{3})/.exec(l))
    .filter((m) => m !== null)
    .map((m) => Date.parse(`${m[1]}T${m[2]}.${m[3]}Z`));
}

/**
 * The stamps of the lines a server logs after a session is opened on it alone (`connect`: that one server) and closed:
 * its JVM's wall clock, as log4j reads it.
 */
export async function stampsAfterSession(log: string, connect: string, what: string): Promise<number[]> {
  const before = readFileSync(log, 'utf8').length;
  const zk = await ZkClient.connect({ connect, sessionTimeoutMs: 4000, connectTimeoutMs: 10_000, quiet: true });
  await zk.close();
  return waitFor(() => {
    const t = logStampsFrom(log, before);
    return t.length > 0 ? t : undefined;
  }, what);
}
