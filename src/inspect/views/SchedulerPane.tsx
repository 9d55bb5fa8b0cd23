import { Box, Text } from 'ink';
import { fit } from '../format.js';
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
  const lines = schedulerLines(summary);
  const limit = maxLines ?? lines.length;
  const shown = lines.length > limit ? [...lines.slice(0, Math.max(0, limit - 1)), { text: `… ${lines.length - limit + 1} more` }] : lines;
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((l, i) => (
        <Text key={i} color={l.color} wrap="truncate-end">
          {fit(l.text, width)}
        </Text>
      ))}
    </Box>
  );
}

export function schedulerPaneLines(summary: SchedulerSummary | null): number {
  return summary ? schedulerLines(summary).length : 0;
}
