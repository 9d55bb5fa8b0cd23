import type { ElectorPolicy } from './types.js';

/** A contender as the priority elector sees it: member info from nodes/<id>, order from its election/ znode. */
export interface Candidate {
  readonly id: string;
  readonly priority: number;
  readonly site: string | null;
  /** Sequence of the contender's election/ znode; Infinity when it has none (it sorts last). */
  readonly sequence: number;
}

export interface ChoiceContext {
  /** Candidates the transition watchdog gave up on. */
  readonly excluded?: ReadonlySet<string>;
  /** The leader before this election (alive or not): the reference point of `site` and `round-robin`. */
  readonly previousLeader?: string | null;
  /** The previous leader's site when it is no longer a member (its nodes/ entry, and the site in it, are gone). */
  readonly previousSite?: string | null;
  /** The administrator's site order (the policy znode), most preferred first; it comes before priority. */
  readonly siteOrder?: readonly string[];
}

/** Ids compare with numbers as numbers, so c2 < c10. */
export function compareIds(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

function bySequence(a: Candidate, b: Candidate): number {
  if (a.sequence !== b.sequence) return a.sequence < b.sequence ? -1 : 1;
  return compareIds(a.id, b.id);
}

/**
 * What ranks a candidate under `policy`, most important first, lower is better; null for the policies that rank
 * by order alone (first, round-robin). Ties go to the lowest election sequence.
 * - priority: the administrator's site order (when given), then the highest priority.
 * - site: the administrator's site order, or else the previous leader's site first; then the highest priority.
 */
function rankOf(
  policy: ElectorPolicy,
  members: readonly Candidate[],
  ctx: ChoiceContext,
): ((m: Candidate) => number[]) | null {
  const order = ctx.siteOrder ?? [];
  const bySiteOrder = (m: Candidate): number => {
    const i = m.site === null ? -1 : order.indexOf(m.site);
    return i === -1 ? order.length : i;
  };
  switch (policy) {
    case 'priority':
      return (m) => [bySiteOrder(m), -m.priority];
    case 'site': {
      if (order.length > 0) return (m) => [bySiteOrder(m), -m.priority];
      const site = previousSite(members, ctx);
      return (m) => [site !== null && m.site !== site ? 1 : 0, -m.priority];
    }
    case 'first':
    case 'round-robin':
      return null;
  }
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * The next leader among `members` by `policy`, or null when nobody is eligible.
 * - priority, site: by rankOf, ties to the lowest election sequence.
 * - first: lowest election sequence (the oldest contender).
 * - round-robin: the next id after the previous leader's, wrapping around.
 */
export function chooseCandidate(
  policy: ElectorPolicy,
  members: readonly Candidate[],
  ctx: ChoiceContext = {},
): string | null {
  const excluded = ctx.excluded ?? new Set<string>();
  const eligible = members.filter((m) => !excluded.has(m.id));
  if (eligible.length === 0) return null;
  const rank = rankOf(policy, members, ctx);
  if (rank) return [...eligible].sort((a, b) => compareRanks(rank(a), rank(b)) || bySequence(a, b))[0]!.id;
  if (policy === 'first') return [...eligible].sort(bySequence)[0]!.id;
  const ids = eligible.map((m) => m.id).sort(compareIds);
  const prev = ctx.previousLeader ?? null;
  if (prev === null) return ids[0]!;
  return ids.find((id) => compareIds(id, prev) > 0) ?? ids[0]!;
}

/**
 * Whether `a` should replace `b` as leader: it ranks strictly better by the policy, not merely by age (a tie never
 * pre-empts). Policies that rank by order alone never pre-empt: each new member would otherwise move leadership.
 */
export function outranks(
  policy: ElectorPolicy,
  members: readonly Candidate[],
  a: Candidate,
  b: Candidate,
  ctx: ChoiceContext = {},
): boolean {
  const rank = rankOf(policy, members, ctx);
  return rank !== null && compareRanks(rank(a), rank(b)) < 0;
}

function previousSite(members: readonly Candidate[], ctx: ChoiceContext): string | null {
  const prev = ctx.previousLeader ?? null;
  const alive = prev === null ? undefined : members.find((m) => m.id === prev);
  return alive ? alive.site : (ctx.previousSite ?? null);
}
