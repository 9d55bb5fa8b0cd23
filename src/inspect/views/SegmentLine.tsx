import { Text } from 'ink';
import type { Segment } from './tree-row.js';

export interface SegmentLineProps {
  readonly segments: readonly Segment[];
  readonly inverse?: boolean;
}

/** One terminal line of styled runs, cut at the pane's width rather than wrapped, so row counts stay exact. */
export function SegmentLine({ segments, inverse = false }: SegmentLineProps) {
  return (
    <Text wrap="truncate-end" inverse={inverse}>
      {segments.map((s, i) => (
        <Text key={i} color={s.color} bold={s.bold} dimColor={s.dim}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}
