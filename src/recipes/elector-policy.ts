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
}

/** Ids compare with numbers as numbers, so c2 < c10. */
export function compareIds(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

function bySequence(a: Candidate, b: Candidate): number {
  if (a.sequence !== b.sequence) return a.sequence < b.sequence ? -1 : 1;
  return compareIds(a.id, b.id);
}

function byPriority(a: Candidate, b: Candidate): number {
  return b.priority - a.priority || bySequence(a, b);
}

/**
 * The next leader among `members` by `policy`, or null when nobody is eligible.
 * - priority: highest priority number; ties go to the lowest election sequence.
 * - site: members of the previous leader's site first, then by priority (plain priority when that site is unknown).
 * - first: lowest election sequence (the oldest contender).
 * - round-robin: the next id after the previous leader's, wrapping around.
 */
export function chooseCandidate(policy: ElectorPolicy, members: readonly Candidate[], ctx: ChoiceContext = {}): string | null {
  const excluded = ctx.excluded ?? new Set<string>();
  const eligible = members.filter((m) => !excluded.has(m.id));
  if (eligible.length === 0) return null;
  switch (policy) {
    case 'priority':
      return [...eligible].sort(byPriority)[0]!.id;
    case 'first':
      return [...eligible].sort(bySequence)[0]!.id;
    case 'site': {
      const site = previousSite(members, ctx);
      if (site === null) return [...eligible].sort(byPriority)[0]!.id;
      const away = (m: Candidate): number => (m.site === site ? 0 : 1);
      return [...eligible].sort((a, b) => away(a) - away(b) || byPriority(a, b))[0]!.id;
    }
    case 'round-robin': {
      const ids = eligible.map((m) => m.id).sort(compareIds);
      const prev = ctx.previousLeader ?? null;
      if (prev === null) return ids[0]!;
      return ids.find((id) => compareIds(id, prev) > 0) ?? ids[0]!;
    }
  }
}

function previousSite(members: readonly Candidate[], ctx: ChoiceContext): string | null {
  const prev = ctx.previousLeader ?? null;
  const alive = prev === null ? undefined : members.find((m) => m.id === prev);
  return alive ? alive.site : (ctx.previousSite ?? null);
}
