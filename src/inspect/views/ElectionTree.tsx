import { Box, Text } from 'ink';
import type { SnapshotNode } from '../snapshot.js';
import { treePrefixes, visibleWindow } from '../tree-rows.js';
import { SegmentLine } from './SegmentLine.js';
import { treeColumns, treeRowSegments } from './tree-row.js';

export interface ElectionTreeProps {
  /** Snapshot.nodes: depth-first, the election path first. */
  readonly nodes: readonly SnapshotNode[];
  readonly width: number;
  /** Lines available; every row is rendered when absent (plain-text output). */
  readonly height?: number;
  /** Index into nodes of the highlighted row. */
  readonly selected?: number | null;
}

/**
 * The election path as a tree, leader marked. Only the rows that fit are rendered (a 500-znode election costs the
 * same as a screenful); the selected row is always among them.
 */
export function ElectionTree({ nodes, width, height, selected = null }: ElectionTreeProps) {
  if (height !== undefined && height <= 0) return null;
  if (nodes.length === 0) {
    return (
      <Box width={width}>
        <Text dimColor>(no znodes)</Text>
      </Box>
    );
  }
  const overflow = height !== undefined && nodes.length > height;
  const rows = height === undefined ? nodes.length : overflow ? Math.max(1, height - 1) : height;
  const { start, end } = visibleWindow(nodes.length, selected, rows);
  const prefixes = treePrefixes(nodes.map((n) => n.depth));
  // Rows with notes (a scheduler's, a lock's members) leave room for them; a lock's first member is found at once.
  const cols = treeColumns(width, nodes[0]?.scheduler?.role === 'root' || nodes.some((n) => n.lock !== null));
  const visible = nodes.slice(start, end);
  return (
    <Box flexDirection="column" width={width}>
      {visible.map((n, i) => {
        const index = start + i;
        const isSelected = index === selected;
        const marker = { text: isSelected ? '› ' : '  ', bold: true };
        return (
          <SegmentLine
            key={n.path}
            width={width}
            inverse={isSelected}
            segments={[marker, ...treeRowSegments(n, prefixes[index]!, cols)]}
          />
        );
      })}
      {overflow && (
        <Text dimColor wrap="truncate-end">
          {`  rows ${start + 1}–${end} of ${nodes.length}${start > 0 ? ` · ↑${start}` : ''}` +
            `${end < nodes.length ? ` · ↓${nodes.length - end}` : ''}`}
        </Text>
      )}
    </Box>
  );
}
