import { formatDuration } from '../../duration.js';
import type { ClockRow } from '../../faults/kinds/clock/node-clocks.js';
import { table } from './table.js';

/** `zklab clock list`: a row per node whose clock is faked, with how long ago its fault began, as of `now`. */
export function renderClockList(rows: readonly ClockRow[], now: number): string {
  if (rows.length === 0) return "no node's clock is faked";
  return table(
    ['NODE', 'OFFSET', 'RATE', 'SINCE'],
    rows.map((r) => [r.node, r.offset, r.rate, `${formatDuration(now - r.sinceMs)} ago`]),
  );
}
