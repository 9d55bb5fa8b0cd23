import type { SnapshotNode } from '../snapshot.js';

/** The highlighted row, by znode path (rows move as znodes come and go) and by its last index (for when it goes). */
export interface Selection {
  readonly path: string | null;
  readonly index: number;
}

export const NO_SELECTION: Selection = { path: null, index: 0 };

/** Rows the arrows stop at: a contender's znodes; every row below the root when no contender owns any. */
export function selectableRows(nodes: readonly SnapshotNode[]): number[] {
  const owned = nodes.flatMap((n, i) => (n.contender ? [i] : []));
  return owned.length > 0 ? owned : nodes.flatMap((n, i) => (n.depth > 0 ? [i] : []));
}

/**
 * The row to highlight now: the selected znode, or when it is gone (a killed contender's znode expired) the
 * selectable row that took its place, so the next key press acts on a neighbour rather than on nothing.
 */
export function selectedIndex(nodes: readonly SnapshotNode[], sel: Selection): number | null {
  if (sel.path === null) return null;
  const at = nodes.findIndex((n) => n.path === sel.path);
  if (at >= 0) return at;
  const rows = selectableRows(nodes);
  if (rows.length === 0) return null;
  return rows.find((i) => i >= sel.index) ?? rows.at(-1)!;
}

/** One step up (-1) or down (+1) among the selectable rows; the first press selects the first (or last) row. */
export function moveSelection(nodes: readonly SnapshotNode[], sel: Selection, delta: -1 | 1): Selection {
  const rows = selectableRows(nodes);
  if (rows.length === 0) return NO_SELECTION;
  const current = selectedIndex(nodes, sel);
  const last = rows.length - 1;
  let pos: number;
  if (current === null) {
    pos = delta > 0 ? 0 : last;
  } else if (rows.includes(current)) {
    pos = Math.min(Math.max(rows.indexOf(current) + delta, 0), last);
  } else {
    // The highlighted row is no longer a contender's: step to the nearest one in the direction pressed.
    pos = delta > 0 ? rows.findIndex((i) => i > current) : rows.findLastIndex((i) => i < current);
    if (pos < 0) pos = delta > 0 ? last : 0;
  }
  const index = rows[pos]!;
  return { path: nodes[index]!.path, index };
}
