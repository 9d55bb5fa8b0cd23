/** Pure row arithmetic for the election tree: connectors and the visible window. */

/**
 * Tree connectors ("├─ ", "└─ ", "│  ") for rows given as depths in depth-first order. One backward pass finds
 * which rows are the last of their siblings, one forward pass draws the ancestors' continuation lines: O(rows × depth).
 */
export function treePrefixes(depths: readonly number[]): string[] {
  const isLast: boolean[] = new Array<boolean>(depths.length);
  const laterSibling: boolean[] = [];
  for (let i = depths.length - 1; i >= 0; i--) {
    const d = depths[i]!;
    isLast[i] = !laterSibling[d];
    laterSibling[d] = true;
    // Rows deeper than d seen so far belong to this row's subtree or to later siblings' subtrees, not to rows before it.
    laterSibling.length = d + 1;
  }
  const ancestorLast: boolean[] = [];
  return depths.map((d, i) => {
    if (d === 0) return '';
    ancestorLast[d] = isLast[i]!;
    ancestorLast.length = d + 1;
    let prefix = '';
    for (let level = 1; level < d; level++) prefix += ancestorLast[level] === false ? '│  ' : '   ';
    return prefix + (isLast[i] ? '└─ ' : '├─ ');
  });
}

export interface RowWindow {
  /** First visible row index. */
  readonly start: number;
  /** One past the last visible row index. */
  readonly end: number;
}

/** The rows that fit, with the selected row kept visible (centred where possible). */
export function visibleWindow(total: number, selected: number | null, rows: number): RowWindow {
  if (rows <= 0 || total <= 0) return { start: 0, end: 0 };
  if (total <= rows) return { start: 0, end: total };
  const sel = Math.min(Math.max(selected ?? 0, 0), total - 1);
  const start = Math.min(Math.max(sel - Math.floor(rows / 2), 0), total - rows);
  return { start, end: start + rows };
}
