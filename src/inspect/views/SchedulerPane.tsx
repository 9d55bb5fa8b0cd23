import { CappedLines } from './CappedLines.js';
import { schedulerLines } from '../scheduler-lines.js';
import type { SchedulerSummary } from '../snapshot.js';

export interface SchedulerPaneProps {
  readonly summary: SchedulerSummary;
  readonly width: number;
  /** Lines available; all when absent. Workers past the limit become one "… N more" line. */
  readonly maxLines?: number;
}

/** The task scheduler at a glance: counts, the head of the queue, each worker with its assignments. */
export function SchedulerPane({ summary, width, maxLines }: SchedulerPaneProps) {
  if (maxLines !== undefined && maxLines <= 0) return null;
  return (
    <CappedLines lines={schedulerLines(summary)} width={width} {...(maxLines === undefined ? {} : { maxLines })} />
  );
}

export function schedulerPaneLines(summary: SchedulerSummary | null): number {
  return summary ? schedulerLines(summary).length : 0;
}
