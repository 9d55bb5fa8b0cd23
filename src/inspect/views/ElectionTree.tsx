import { Box, Text } from 'ink';
import type { AbsentContender, SnapshotNode } from '../snapshot.js';
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
  /** Running contenders that own no znode of the election, listed under the tree (Snapshot.absent). */
  readonly absent?: readonly AbsentContender[];
  /** The highlighted one of them. */
  readonly selectedAbsent?: string | null;
}

const ABSENT_WORDS: Readonly<Record<AbsentContender['why'], string>> = {
  paused: 'paused by the lab',
  'cut off': 'cut off by a partition',
  'session expired': 'its session expired',
  'no znode yet': 'no znode yet',
  'program dead': 'its program is dead, what it started lives on',
};

/**
 * The election path as a tree, leader marked. Only the rows that fit are rendered (a 500-znode election costs the
 * same as a screenful); the selected row is always among them.
 */
export function ElectionTree({
  nodes,
  width,
  height,
  selected = null,
  absent = [],
  selectedAbsent = null,
}: ElectionTreeProps) {
  if (height !== undefined && height <= 0) return null;
  // Contenders without a znode keep their lines (a key acts on what a line shows); the tree gets the rest.
  const absentLines = height === undefined ? absent.length : Math.min(absent.length, Math.max(0, height - 1));
  const treeHeight = height === undefined ? undefined : height - absentLines;
  const below = absent.slice(0, absentLines).map((a) => {
    const isSelected = a.id === selectedAbsent;
    const text = `${isSelected ? '› ' : '  '}  ${a.id} pid ${a.pid ?? '-'} · owns no znode: ${ABSENT_WORDS[a.why]}`;
    return (
      <Text key={`absent-${a.id}`} inverse={isSelected} dimColor={!isSelected} wrap="truncate-end">
        {text}
      </Text>
    );
  });
  if (nodes.length === 0) {
    return (
      <Box flexDirection="column" width={width}>
        <Text dimColor>(no znodes)</Text>
        {below}
      </Box>
    );
  }
  const overflow = treeHeight !== undefined && nodes.length > treeHeight;
  const rows = treeHeight === undefined ? nodes.length : overflow ? Math.max(1, treeHeight - 1) : treeHeight;
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
      {below}
    </Box>
  );
}
