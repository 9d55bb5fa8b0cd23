import { Box, Text } from 'ink';
import { MIN_HEIGHT, MIN_WIDTH, planPanes } from '../layout.js';
import type { Row } from '../live/selection.js';
import type { Snapshot } from '../snapshot.js';
import { describeWatchGraph, watchGraphLines } from '../watch-graph.js';
import { ElectionTree } from './ElectionTree.js';
import { EnsemblePane, ensemblePaneLines } from './EnsemblePane.js';
import { EventPane } from './EventPane.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { LockPane, lockPaneLines } from './LockPane.js';
import { PaneTitle } from './PaneTitle.js';
import { SchedulerPane, schedulerPaneLines } from './SchedulerPane.js';
import { WatchGraph } from './WatchGraph.js';

export interface InspectAppProps {
  readonly snapshot: Snapshot;
  /** Terminal columns and rows; the frame never exceeds them. */
  readonly width: number;
  readonly height: number;
  /** The highlighted row: a znode of the tree, or a contender that owns none. */
  readonly selected?: Row | null;
  /** The outcome of the last key action, shown in the footer. */
  readonly message?: string | null;
}

/** The whole inspect screen. Panes drop out as the terminal shrinks (see planPanes); nothing here fetches or waits. */
export function InspectApp({ snapshot, width, height, selected = null, message = null }: InspectAppProps) {
  const watches = describeWatchGraph(snapshot.nodes);
  const plan = planPanes(width, height, {
    treeRows: snapshot.nodes.length + snapshot.absent.length,
    problems: snapshot.problems.length,
    watchLines: watchGraphLines(watches).length,
    ensembleLines: ensemblePaneLines(snapshot.servers, snapshot.partitions, snapshot.nodeFaults),
    events: snapshot.events.length,
    schedulerLines: schedulerPaneLines(snapshot.scheduler),
    lockLines: lockPaneLines(snapshot.lock),
  });
  if (plan.mode === 'too-small') {
    return (
      <Box width={Math.max(1, width)}>
        <Text color="yellow" wrap="truncate-end">
          {tooSmallMessage(width, height)}
        </Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width}>
      <Header snapshot={snapshot} />
      {snapshot.problems.slice(0, plan.problems).map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity; the list is drawn whole each frame
        <Text key={i} color="red" wrap="truncate-end">{`! ${p}`}</Text>
      ))}
      <ElectionTree
        nodes={snapshot.nodes}
        absent={snapshot.absent}
        width={width}
        height={plan.tree}
        selected={selected?.kind === 'node' ? selected.index : null}
        selectedAbsent={selected?.kind === 'absent' ? selected.contender : null}
      />
      {plan.scheduler > 0 && snapshot.scheduler && (
        <PaneTitle title={`scheduler ${snapshot.scheduler.root}`} width={width} />
      )}
      {plan.scheduler > 0 && snapshot.scheduler && (
        <SchedulerPane summary={snapshot.scheduler} width={width} maxLines={plan.scheduler} />
      )}
      {plan.lock > 0 && snapshot.lock && <PaneTitle title={`lock ${snapshot.lock.path}`} width={width} />}
      {plan.lock > 0 && snapshot.lock && <LockPane summary={snapshot.lock} width={width} maxLines={plan.lock} />}
      {plan.watch > 0 && <PaneTitle title="watches" width={width} />}
      {plan.watch > 0 && <WatchGraph model={watches} width={width} maxLines={plan.watch} />}
      {plan.ensemble > 0 && <PaneTitle title="ensemble" width={width} />}
      {plan.ensemble > 0 && (
        <EnsemblePane
          servers={snapshot.servers}
          partitions={snapshot.partitions}
          {...(snapshot.nodeFaults ? { nodeFaults: snapshot.nodeFaults } : {})}
          width={width}
          maxLines={plan.ensemble}
        />
      )}
      {plan.events > 0 && <PaneTitle title="events" width={width} />}
      {plan.events > 0 && <EventPane events={snapshot.events} limit={plan.events} width={width} />}
      <Footer width={width} message={message} />
    </Box>
  );
}

/** The longest of these that fits: even a 12-column terminal says what is wrong. */
export function tooSmallMessage(width: number, height: number): string {
  const full = `terminal too small (${width}×${height}, need ${MIN_WIDTH}×${MIN_HEIGHT})`;
  const short = `too small ${width}×${height}`;
  return full.length <= width ? full : short.length <= width ? short : 'too small';
}
