import { CappedLines } from './CappedLines.js';
import { lockLines } from '../lock-lines.js';
import type { LockSummary } from '../snapshot.js';

export interface LockPaneProps {
  readonly summary: LockSummary;
  readonly width: number;
  /** Lines available; all when absent. Past the limit the rest become one "… N more" line. */
  readonly maxLines?: number;
}

/** A lock at a glance: who holds it and since when, the queue, and what its protected resource accepted and refused. */
export function LockPane({ summary, width, maxLines }: LockPaneProps) {
  if (maxLines !== undefined && maxLines <= 0) return null;
  return <CappedLines lines={lockLines(summary)} width={width} {...(maxLines === undefined ? {} : { maxLines })} />;
}

export function lockPaneLines(summary: LockSummary | null): number {
  return summary ? lockLines(summary).length : 0;
}
