import { Box, Text } from 'ink';
import { fitWidth } from '../../text.js';

export interface PaneLine {
  readonly text: string;
  readonly color?: string;
}

/** Lines of a pane, each cut to the width; past `maxLines` the rest become one "… N more" line. */
export function CappedLines({
  lines,
  width,
  maxLines,
}: {
  readonly lines: readonly PaneLine[];
  readonly width: number;
  readonly maxLines?: number;
}) {
  const limit = maxLines ?? lines.length;
  const shown =
    lines.length > limit
      ? [...lines.slice(0, Math.max(0, limit - 1)), { text: `… ${lines.length - limit + 1} more` }]
      : lines;
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity; the list is drawn whole each frame
        <Text key={i} color={l.color} wrap="truncate-end">
          {fitWidth(l.text, width)}
        </Text>
      ))}
    </Box>
  );
}
