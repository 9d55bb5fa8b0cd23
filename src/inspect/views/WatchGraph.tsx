import { CappedLines, type PaneLine } from './CappedLines.js';
import type { SnapshotNode } from '../snapshot.js';
import { describeWatchGraph, formatChain, formatCrowd, type WatchGraphModel } from '../watch-graph.js';

/** The graph to draw: its model when the caller has built it already, or the snapshot's nodes to build it from. */
export type WatchGraphProps = ({ readonly model: WatchGraphModel } | { readonly nodes: readonly SnapshotNode[] }) & {
  readonly width: number;
  /** Lines available; all lines when absent. */
  readonly maxLines?: number;
};

/** Who watches whom: predecessor chains ("c5 → c4 → c3 → c2 → c1★") and herds of child watches on a parent. */
export function WatchGraph(props: WatchGraphProps) {
  const { width, maxLines } = props;
  if (maxLines !== undefined && maxLines <= 0) return null;
  const model = 'model' in props ? props.model : describeWatchGraph(props.nodes);
  const lines: PaneLine[] = [
    ...model.chains.map((c) => ({
      text: formatChain(c),
      color: c.steps.some((s) => s.length > 1) ? 'yellow' : undefined,
    })),
    ...model.crowds.map((c) => ({ text: formatCrowd(c), color: c.watchers.length > 1 ? 'yellow' : undefined })),
  ];
  if (lines.length === 0) lines.push({ text: 'no watches on the election znodes' });
  return <CappedLines lines={lines} width={width} {...(maxLines === undefined ? {} : { maxLines })} />;
}
