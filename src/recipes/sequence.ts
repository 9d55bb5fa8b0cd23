/**
 * Sequence numbers of sequential znodes: ZooKeeper appends exactly 10 digits to the requested name. Ordering by
 * that suffix (not by the whole name) lets zklab share a path with other libraries' elections, e.g. Curator's
 * "_c_<guid>-latch-0000000003" or kazoo's "<guid>__lock__0000000003".
 */
export function sequenceOf(name: string): number | null {
  const m = /(?:^|\D)(\d{10})$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** Children with a sequence suffix, lowest first; names without one are left out. */
export function sortBySequence(children: readonly string[]): string[] {
  return children.filter((c) => sequenceOf(c) !== null).sort(compareSiblings);
}

/** Siblings in election order: names without a sequence first (by name), then by sequence, ties by name. */
export function compareSiblings(a: string, b: string): number {
  const sa = sequenceOf(a);
  const sb = sequenceOf(b);
  if (sa === null && sb !== null) return -1;
  if (sa !== null && sb === null) return 1;
  if (sa !== null && sb !== null && sa !== sb) return sa - sb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The child immediately before `mine` in sequence order, null when `mine` is first, undefined when absent. */
export function predecessorOf(children: readonly string[], mine: string): string | null | undefined {
  const sorted = sortBySequence(children);
  const i = sorted.indexOf(mine);
  if (i < 0) return undefined;
  return i === 0 ? null : sorted[i - 1]!;
}

/** The GUID a child was created under (`<guid>-n_<seq>`), if its name has one. */
const guidOf = (name: string): string | undefined => /^([0-9a-f-]{36})-/.exec(name)?.[1];

/** Whether two children were created under one GUID: by one contender, for one place. */
export function sameGuid(a: string, b: string): boolean {
  return guidOf(a) !== undefined && guidOf(a) === guidOf(b);
}

/** The child created by this contender, recognised by the GUID in its name (after a create whose reply was lost). */
export function findByGuid(children: readonly string[], guid: string): string | undefined {
  return children.find((c) => guidOf(c) === guid);
}
