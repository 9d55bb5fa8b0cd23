import { TEXT_COLUMNS } from '../text.js';
import { Box, Text, renderToString } from 'ink';
import type { Snapshot } from './snapshot.js';
import { ElectionTree } from './views/ElectionTree.js';
import { EnsemblePane } from './views/EnsemblePane.js';
import { EventPane } from './views/EventPane.js';
import { Header } from './views/Header.js';
import { InspectApp } from './views/InspectApp.js';
import { LockPane } from './views/LockPane.js';
import { PaneTitle } from './views/PaneTitle.js';
import { SchedulerPane } from './views/SchedulerPane.js';
import { WatchGraph } from './views/WatchGraph.js';

export interface RenderTextOptions {
  /** Columns to lay out for; long rows are cut, not wrapped. Default TEXT_COLUMNS. */
  readonly width?: number;
  /** Latest events to include. Default 10. */
  readonly events?: number;
}

function SnapshotReport({
  snapshot,
  width,
  events,
}: {
  readonly snapshot: Snapshot;
  readonly width: number;
  readonly events: number;
}) {
  return (
    <Box flexDirection="column" width={width}>
      <Header snapshot={snapshot} />
      {snapshot.problems.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity; the list is drawn whole each frame
        <Text key={i} color="red" wrap="truncate-end">{`! ${p}`}</Text>
      ))}
      <ElectionTree nodes={snapshot.nodes} absent={snapshot.absent} width={width} />
      {snapshot.scheduler && <PaneTitle title={`scheduler ${snapshot.scheduler.root}`} width={width} />}
      {snapshot.scheduler && <SchedulerPane summary={snapshot.scheduler} width={width} />}
      {snapshot.lock && <PaneTitle title={`lock ${snapshot.lock.path}`} width={width} />}
      {snapshot.lock && <LockPane summary={snapshot.lock} width={width} />}
      <PaneTitle title="watches" width={width} />
      <WatchGraph nodes={snapshot.nodes} width={width} />
      <PaneTitle title="ensemble" width={width} />
      <EnsemblePane
        servers={snapshot.servers}
        partitions={snapshot.partitions}
        {...(snapshot.nodeFaults ? { nodeFaults: snapshot.nodeFaults } : {})}
        width={width}
      />
      {events > 0 && <PaneTitle title="events" width={width} />}
      <EventPane events={snapshot.events} limit={events} width={width} />
    </Box>
  );
}

/**
 * `zklab inspect --once`: the same panes as the live view, every tree row, no selection and no key help. Colour
 * codes appear only when chalk has colours on (a TTY, or FORCE_COLOR).
 */
export function renderSnapshotText(snapshot: Snapshot, options: RenderTextOptions = {}): string {
  const width = options.width ?? TEXT_COLUMNS;
  return renderToString(<SnapshotReport snapshot={snapshot} width={width} events={options.events ?? 10} />, {
    columns: width,
  });
}

/**
 * One frame of the live view as a string, exactly as InspectApp lays it out for a terminal of width × height:
 * for benchmarks (a 500-znode snapshot should cost what a screenful costs) and for snapshot-style checks.
 */
export function renderInspectFrame(
  snapshot: Snapshot,
  width: number,
  height: number,
  selected: number | null = null,
): string {
  const node = selected === null ? undefined : snapshot.nodes[selected];
  const row = node ? { kind: 'node' as const, index: selected!, path: node.path, contender: node.contender } : null;
  return renderToString(<InspectApp snapshot={snapshot} width={width} height={height} selected={row} />, {
    columns: Math.max(1, width),
  });
}
