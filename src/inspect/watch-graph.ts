import { plural } from '../text.js';
import type { SnapshotNode } from './snapshot.js';
import { compareLabels } from './watches.js';

/** Who watches whom, as lines a person can read: chains of data watches and crowds of child watches. */

export interface WatchChain {
  /** Tail first, the watched end last; a step with several labels is a crowd on the next step. */
  readonly steps: readonly (readonly string[])[];
  /** The last step owns the leader znode. */
  readonly endsAtLeader: boolean;
}

export interface ChildWatchCrowd {
  readonly path: string;
  readonly watchers: readonly string[];
}

export interface WatchGraphModel {
  readonly chains: readonly WatchChain[];
  readonly crowds: readonly ChildWatchCrowd[];
}

/**
 * How a watched znode is named in the graph. A sequential znode stands for its owner (watching a predecessor is
 * watching a contender): "c4". Any other znode is named by its path below the election path, owner in brackets:
 * "leader/current[c3]", "/election" for the election path itself.
 */
export function watchLabel(n: SnapshotNode, root: string): string {
  const owner = n.contender ?? n.sessionId;
  if (n.sequence !== null) return owner ?? n.name;
  const rel = n.depth === 0 || !n.path.startsWith(`${root}/`) ? n.path : n.path.slice(root.length + 1);
  return owner ? `${rel}[${owner}]` : rel;
}

/**
 * Follows data watches backwards from every label that watches nothing (normally the leader): while exactly one
 * label watches the current one the chain grows; several end it as a crowd, and each member that is itself watched
 * starts a chain of its own. Edges left over (cycles) become two-step chains, so no watch goes unshown.
 */
export function describeWatchGraph(nodes: readonly SnapshotNode[]): WatchGraphModel {
  const watchedBy = new Map<string, Set<string>>();
  const watches = new Map<string, Set<string>>();
  const order = new Map<string, number>();
  let leader: string | null = null;
  const root = nodes.find((n) => n.depth === 0)?.path ?? '';
  for (const n of nodes) {
    const target = watchLabel(n, root);
    if (!order.has(target)) order.set(target, order.size);
    if (n.leader) leader = target;
    for (const w of n.watchers) {
      if (w === target) continue;
      if (!watchedBy.has(target)) watchedBy.set(target, new Set());
      watchedBy.get(target)!.add(w);
      if (!watches.has(w)) watches.set(w, new Set());
      watches.get(w)!.add(target);
    }
  }
  const rank = (l: string): number => (l === leader ? -1 : (order.get(l) ?? order.size));
  const queue = [...watchedBy.keys()].filter((t) => !watches.has(t)).sort((a, b) => rank(a) - rank(b));
  const used = new Set<string>();
  const chains: WatchChain[] = [];

  for (let q = 0; q < queue.length; q++) {
    const head = queue[q]!;
    const steps: string[][] = [[head]];
    const seen = new Set([head]);
    let cur = head;
    for (;;) {
      const ws = [...(watchedBy.get(cur) ?? [])].filter((w) => !used.has(`${w}\n${cur}`) && !seen.has(w));
      if (ws.length === 0) break;
      for (const w of ws) used.add(`${w}\n${cur}`);
      ws.sort(compareLabels);
      steps.unshift(ws);
      for (const w of ws) seen.add(w);
      if (ws.length > 1) {
        queue.push(...ws.filter((w) => watchedBy.has(w)));
        break;
      }
      cur = ws[0]!;
    }
    if (steps.length > 1) chains.push({ steps, endsAtLeader: head === leader });
  }
  for (const [target, ws] of watchedBy) {
    for (const w of ws)
      if (!used.has(`${w}\n${target}`)) chains.push({ steps: [[w], [target]], endsAtLeader: target === leader });
  }

  const crowds = nodes
    .filter((n) => n.childWatchers.length > 0)
    .map((n) => ({ path: n.path, watchers: n.childWatchers }));
  return { chains, crowds };
}

/** "c5 → c4 → c3 → c2 → c1★", or "(c2 c3 c4 c5) → c1★ 4 watchers" for a crowd of data watches. */
export function formatChain(chain: WatchChain): string {
  const last = chain.steps.length - 1;
  const text = chain.steps
    .map((step, i) => {
      const label = step.length > 1 ? `(${step.join(' ')})` : step.join('');
      return i === last && chain.endsAtLeader ? `${label}★` : label;
    })
    .join(' → ');
  const widest = Math.max(...chain.steps.map((s) => s.length));
  return widest > 1 ? `${text}  ${plural(widest, 'watcher')}` : text;
}

/** "/election ← c2 c3 c4 c5 (4 child watches)". */
export function formatCrowd(crowd: ChildWatchCrowd): string {
  return `${crowd.path} ← ${crowd.watchers.join(' ')} (${plural(crowd.watchers.length, 'child watch', 'child watches')})`;
}

/** The graph as lines: chains first, then child-watch crowds. */
export function watchGraphLines(model: WatchGraphModel): string[] {
  return [...model.chains.map(formatChain), ...model.crowds.map(formatCrowd)];
}
