import { Box, Text } from 'ink';
import { formatClock } from '../format.js';
import { cell } from '../../text.js';
import type { SnapshotEvent } from '../snapshot.js';
import { SegmentLine } from './SegmentLine.js';

export interface EventPaneProps {
  /** Oldest first, as in Snapshot.events. */
  readonly events: readonly SnapshotEvent[];
  /** How many of the latest to show. */
  readonly limit: number;
  readonly width: number;
}

const EVENT_COLOR: Readonly<Record<string, string>> = {
  leader: 'green',
  ready: 'green',
  expired: 'red',
  error: 'red',
  paused: 'yellow',
  resigned: 'yellow',
  excluded: 'yellow',
};

/** The latest events, newest at the bottom, with HH:MM:SS.mmm times. */
export function EventPane({ events, limit, width }: EventPaneProps) {
  if (limit <= 0) return null;
  const shown = events.slice(-limit);
  return (
    <Box flexDirection="column" width={width}>
      {shown.length === 0 && <Text dimColor>no events yet</Text>}
      {shown.map((e, i) => (
        <SegmentLine
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity; the list is drawn whole each frame
          key={i}
          width={width}
          segments={[
            { text: `${formatClock(e.t)} `, dim: true },
            { text: `${cell(e.who, 4)} `, bold: true, color: e.who === 'lab' ? 'magenta' : undefined },
            { text: `${cell(e.event, 18)} `, color: EVENT_COLOR[e.event] ?? (e.who === 'lab' ? 'magenta' : undefined) },
            { text: e.detail },
          ]}
        />
      ))}
    </Box>
  );
}
