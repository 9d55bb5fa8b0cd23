/** How a terminal of a given size is shared among the inspect panes. Pure, so every size can be tested. */

export const MIN_WIDTH = 30;
export const MIN_HEIGHT = 5;
/** Below either, only the header, the tree and the footer remain. */
export const COMPACT_WIDTH = 60;
export const COMPACT_HEIGHT = 15;
/** The tree keeps at least this many rows before panes are dropped for it. */
export const MIN_TREE_ROWS = 5;

export interface PaneDemand {
  readonly treeRows: number;
  readonly problems: number;
  readonly watchLines: number;
  readonly ensembleLines: number;
  readonly events: number;
  /** The scheduler pane's lines; 0 or absent when the path is no scheduler's root (then there is no such pane). */
  readonly schedulerLines?: number;
  /** The lock pane's lines; 0 or absent when the path is no lock of the lab. */
  readonly lockLines?: number;
}

/** Content lines per pane; 0 drops the pane and its title. Header and footer take one line each. */
export interface PanePlan {
  readonly mode: 'too-small' | 'compact' | 'full';
  readonly problems: number;
  readonly tree: number;
  readonly scheduler: number;
  readonly lock: number;
  readonly watch: number;
  readonly ensemble: number;
  readonly events: number;
}

const CAPS = { problems: 2, scheduler: 6, lock: 4, watch: 5, ensemble: 7, events: 8 };

export function planPanes(width: number, height: number, demand: PaneDemand): PanePlan {
  const none = { problems: 0, scheduler: 0, lock: 0, watch: 0, ensemble: 0, events: 0 };
  if (width < MIN_WIDTH || height < MIN_HEIGHT) return { mode: 'too-small', tree: 0, ...none };
  if (width < COMPACT_WIDTH || height < COMPACT_HEIGHT) return { mode: 'compact', tree: height - 2, ...none };

  const problems = Math.min(demand.problems, CAPS.problems);
  const want = {
    scheduler: Math.min(demand.schedulerLines ?? 0, CAPS.scheduler),
    lock: Math.min(demand.lockLines ?? 0, CAPS.lock),
    watch: Math.min(Math.max(1, demand.watchLines), CAPS.watch),
    ensemble: Math.min(Math.max(1, demand.ensembleLines), CAPS.ensemble),
    events: Math.min(Math.max(1, demand.events), CAPS.events),
  };
  const body = height - 2 - problems;
  const cost = (p: typeof want): number =>
    (['scheduler', 'lock', 'watch', 'ensemble', 'events'] as const).reduce((n, k) => n + (p[k] > 0 ? p[k] + 1 : 0), 0);
  // Panes give way to the tree in this order: events, the watch graph, the ensemble, then the scheduler's or lock's summary.
  for (const drop of ['events', 'watch', 'ensemble', 'scheduler', 'lock'] as const) {
    if (body - cost(want) >= MIN_TREE_ROWS) break;
    want[drop] = 0;
  }
  let tree = body - cost(want);
  // A short tree leaves its spare rows to the event log.
  const spare = tree - Math.max(demand.treeRows, MIN_TREE_ROWS);
  if (spare > 0 && want.events > 0) {
    const more = Math.min(spare, Math.max(0, demand.events - want.events));
    want.events += more;
    tree -= more;
  }
  return { mode: 'full', problems, tree, ...want };
}
