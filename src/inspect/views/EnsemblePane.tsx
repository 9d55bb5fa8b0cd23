import { formatDuration } from '../../duration.js';
import { Box, Text } from 'ink';
import { cell } from '../../text.js';
import { describeFaults } from '../link-state.js';
import type { SnapshotNodeFault, SnapshotPartition, SnapshotServer, SnapshotServerMode } from '../snapshot.js';
import { SegmentLine } from './SegmentLine.js';
import type { Segment } from './tree-row.js';

export interface EnsemblePaneProps {
  readonly servers: readonly SnapshotServer[];
  readonly partitions: readonly SnapshotPartition[];
  /** Faults on nodes rather than links (a faked clock): one line after the links'. */
  readonly nodeFaults?: readonly SnapshotNodeFault[];
  readonly width: number;
  /** Lines available; all when absent. The fault line goes first when servers must be cut. */
  readonly maxLines?: number;
}

const MODE_COLOR: Readonly<Partial<Record<SnapshotServerMode, string>>> = {
  leader: 'green',
  standalone: 'green',
  'not-serving': 'yellow',
  paused: 'yellow',
  down: 'red',
};

function serverSegments(s: SnapshotServer): Segment[] {
  const out: Segment[] = [
    { text: `${cell(s.name, 6)} `, bold: true },
    { text: `${cell(s.mode, 12)} `, color: MODE_COLOR[s.mode], bold: s.mode === 'leader' },
    { text: `zxid ${cell(s.zxid ?? '-', 12)} `, dim: true },
    { text: `conns ${cell(String(s.connections ?? '-'), 4)} ` },
  ];
  if (s.childWatches !== null) out.push({ text: `child watches ${s.childWatches} ` });
  if (s.partitioned) out.push({ text: 'PARTITIONED ', color: 'red', bold: true });
  if (s.delayMs > 0) out.push({ text: `delay +${formatDuration(s.delayMs)} `, color: 'yellow' });
  return out;
}

/** One line per server (mode, zxid, connections, fault markers), then the lab's link faults on one line. */
export function EnsemblePane({ servers, partitions, nodeFaults = [], width, maxLines }: EnsemblePaneProps) {
  if (maxLines !== undefined && maxLines <= 0) return null;
  const faults = describeFaults(partitions);
  const extra = (faults.length > 0 ? 1 : 0) + (nodeFaults.length > 0 ? 1 : 0);
  const shown = maxLines === undefined ? servers : servers.slice(0, Math.max(1, maxLines - extra));
  const showFaults = faults.length > 0 && (maxLines === undefined || maxLines > shown.length);
  const showNodes = nodeFaults.length > 0 && (maxLines === undefined || maxLines > shown.length + (showFaults ? 1 : 0));
  return (
    <Box flexDirection="column" width={width}>
      {servers.length === 0 && <Text dimColor>no servers</Text>}
      {shown.map((s) => (
        <SegmentLine key={s.name} width={width} segments={serverSegments(s)} />
      ))}
      {showFaults && (
        <Text color="red" wrap="truncate-end">
          {`links: ${faults.join(' · ')}`}
        </Text>
      )}
      {showNodes && (
        <Text color="magenta" wrap="truncate-end">
          {`nodes: ${nodeFaults.map((f) => `${f.node} ${f.text}`).join(' · ')}`}
        </Text>
      )}
    </Box>
  );
}

export function ensemblePaneLines(
  servers: readonly SnapshotServer[],
  partitions: readonly SnapshotPartition[],
  nodeFaults: readonly SnapshotNodeFault[] = [],
): number {
  return Math.max(1, servers.length) + (partitions.length > 0 ? 1 : 0) + (nodeFaults.length > 0 ? 1 : 0);
}
