import type { Snapshot } from '../snapshot.js';

/**
 * The highlighted row, by the contender it shows (a contender's row moves, and its znode may expire while it is
 * paused or cut off: the selection follows the contender, never a neighbour), or by znode path for rows no contender
 * owns.
 */
export interface Selection {
  readonly contender: string | null;
  readonly path: string | null;
}

export const NO_SELECTION: Selection = { contender: null, path: null };

/** A row of the view that keys can act on: a znode of the tree, or a running contender that owns none. */
export type Row =
  | { readonly kind: 'node'; readonly index: number; readonly path: string; readonly contender: string | null }
  | { readonly kind: 'absent'; readonly contender: string };

type View = Pick<Snapshot, 'nodes' | 'absent'>;

/** Rows the arrows stop at, top to bottom: contenders' znodes, then the contenders without one (every znode row
 * when no contender owns any). */
export function selectableRows(view: View): Row[] {
  const nodes = view.nodes.map((n, index): Row => ({ kind: 'node', index, path: n.path, contender: n.contender }));
  const owned = nodes.filter((r) => r.contender !== null);
  const absent = view.absent.map((a): Row => ({ kind: 'absent', contender: a.id }));
  if (owned.length > 0 || absent.length > 0) return [...owned, ...absent];
  return nodes.filter((r) => r.kind === 'node' && view.nodes[r.index]!.depth > 0);
}

/** The row the selection names now; null when what it names is gone (a contender that died, its znode expired). */
export function selectedRow(view: View, sel: Selection): Row | null {
  const rows = selectableRows(view);
  if (sel.contender !== null) {
    const mine = rows.filter((r) => r.contender === sel.contender);
    return mine.find((r) => r.kind === 'node' && r.path === sel.path) ?? mine[0] ?? null;
  }
  if (sel.path !== null) return rows.find((r) => r.kind === 'node' && r.path === sel.path) ?? null;
  return null;
}

function selectionOf(row: Row): Selection {
  return { contender: row.contender, path: row.kind === 'node' ? row.path : null };
}

/**
 * One step up (-1) or down (+1) among the selectable rows. The first press, or one after the selected contender
 * went, selects the first (or last) row.
 */
export function moveSelection(view: View, sel: Selection, delta: -1 | 1): Selection {
  const rows = selectableRows(view);
  if (rows.length === 0) return NO_SELECTION;
  const current = selectedRow(view, sel);
  const same = (r: Row) =>
    current !== null &&
    r.kind === current.kind &&
    r.contender === current.contender &&
    (r.kind === 'absent' || (current.kind === 'node' && r.path === current.path));
  const at = rows.findIndex(same);
  const pos = at < 0 ? (delta > 0 ? 0 : rows.length - 1) : Math.min(Math.max(at + delta, 0), rows.length - 1);
  return selectionOf(rows[pos]!);
}
