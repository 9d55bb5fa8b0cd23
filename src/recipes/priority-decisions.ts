import { chooseCandidate, outranks, type Candidate } from './elector-policy.js';
import type { ElectorPolicy } from './types.js';

/** leader/current as read: who holds it (session), whether the takeover finished, and its identity. */
export interface CurrentView {
  readonly ownerSession: string;
  readonly ready: boolean;
  readonly czxid: number;
}

/** Where this contender's own takeover of the current it holds stands (timer not started, running, elapsed). */
export type TakeoverStage = 'none' | 'running' | 'done';

export interface ContenderView {
  readonly me: string;
  readonly mySession: string;
  readonly elected: string | null;
  readonly current: CurrentView | null;
  /** The takeover stage for `current`, when this contender holds it. */
  readonly takeover: TakeoverStage;
}

export type ContenderAction =
  /** Named and leader/current is free: create it with PROGRESS. */
  | { readonly kind: 'create-current' }
  /** Named, but someone else still holds leader/current: wait for it to go. */
  | { readonly kind: 'await-release' }
  /** Holds a PROGRESS current it has not started working on (new, or found after a lost create reply). */
  | { readonly kind: 'start-takeover'; readonly czxid: number }
  | { readonly kind: 'await-takeover' }
  /** Takeover done: re-check elected, then set READY. */
  | { readonly kind: 'set-ready'; readonly czxid: number }
  | { readonly kind: 'lead'; readonly czxid: number }
  /** Holds leader/current but elected is missing: neither proceed nor let go until the elector writes it again. */
  | { readonly kind: 'hold' }
  /** Holds leader/current while elected names someone else: stop and delete it. */
  | { readonly kind: 'release'; readonly czxid: number }
  | { readonly kind: 'follow' };

/** What a contender does about leader/elected and leader/current. */
export function contenderAction(v: ContenderView): ContenderAction {
  const named = v.elected === v.me;
  const cur = v.current;
  if (cur === null) return named ? { kind: 'create-current' } : { kind: 'follow' };
  if (cur.ownerSession !== v.mySession) return named ? { kind: 'await-release' } : { kind: 'follow' };
  if (v.elected !== null && !named) return { kind: 'release', czxid: cur.czxid };
  if (cur.ready) return { kind: 'lead', czxid: cur.czxid };
  if (!named) return { kind: 'hold' };
  if (v.takeover === 'none') return { kind: 'start-takeover', czxid: cur.czxid };
  return v.takeover === 'running' ? { kind: 'await-takeover' } : { kind: 'set-ready', czxid: cur.czxid };
}

export interface ElectorMember extends Candidate {
  /** Owner session of its nodes/<id> znode: ties leader/current's owner to a member. */
  readonly session: string;
}

export interface ElectorView {
  readonly policy: ElectorPolicy;
  readonly members: readonly ElectorMember[];
  readonly elected: string | null;
  readonly current: Pick<CurrentView, 'ownerSession' | 'ready'> | null;
  readonly excluded: ReadonlySet<string>;
  /** The candidate whose transition watchdog ran out since the last evaluation. */
  readonly watchdogFired: string | null;
  readonly previousLeader: string | null;
  readonly previousSite: string | null;
  /** The administrator's site order (the policy znode). */
  readonly siteOrder?: readonly string[];
  /** Replace a live elected contender when the policy ranks another strictly higher (seed 002, B.4.3). */
  readonly preempt?: boolean;
}

export type ElectorDecision =
  /** The elected contender holds leader/current with READY. */
  | { readonly kind: 'settled'; readonly leader: string }
  /**
   * The elected contender is taking over. `blockedBy` (a member id, or the session of an unknown holder) still
   * holds leader/current; the candidate cannot act until it lets go, so the watchdog does not run meanwhile.
   */
  | { readonly kind: 'wait'; readonly candidate: string; readonly blockedBy: string | null }
  /**
   * Write leader/elected. reason: 'holder' (keep whoever holds leader/current), 'policy', or 'forgiven': every member
   * was excluded, so the exclusions are dropped rather than leaving the cluster without a leader for good;
   * 'preempt': the elected contender lives but the policy now ranks `candidate` above it.
   */
  | {
      readonly kind: 'elect';
      readonly candidate: string;
      readonly exclude: string | null;
      readonly reason: 'holder' | 'policy' | 'forgiven' | 'preempt';
    }
  /** There are no members at all. */
  | { readonly kind: 'none'; readonly exclude: string | null };

/**
 * The elector's move. It elects when elected names nobody it can wait for (missing, gone, or excluded), and, with
 * `preempt`, when the policy ranks a member strictly above the elected one (a better contender joined, or the
 * administrator changed the policy): the seed's NL != CL. Without `preempt` a live leader is never replaced. A live,
 * eligible holder of leader/current is elected again before the policy is asked (the paper's "NL == CL").
 */
export function electorDecision(v: ElectorView): ElectorDecision {
  const holder = v.current ? (v.members.find((m) => m.session === v.current!.ownerSession) ?? null) : null;
  const e = v.elected;
  const electedAlive = e !== null && v.members.some((m) => m.id === e);
  const settled = e !== null && holder?.id === e && v.current!.ready;
  const blockedBy = v.current && holder?.id !== e ? (holder?.id ?? v.current.ownerSession) : null;

  let excluded = v.excluded;
  let exclude: string | null = null;
  if (electedAlive && v.watchdogFired === e && !settled && blockedBy === null && !excluded.has(e)) {
    exclude = e;
    excluded = new Set([...excluded, e]);
  }
  const ctx = { previousLeader: v.previousLeader ?? e, previousSite: v.previousSite, siteOrder: v.siteOrder ?? [] };
  const choose = (without: ReadonlySet<string>): string | null =>
    chooseCandidate(v.policy, v.members, { ...ctx, excluded: without });
  if (electedAlive && !excluded.has(e)) {
    const better = v.preempt ? choose(excluded) : null;
    const [best, current] = [v.members.find((m) => m.id === better), v.members.find((m) => m.id === e)];
    if (best && current && best.id !== e && outranks(v.policy, v.members, best, current, ctx)) {
      return { kind: 'elect', candidate: best.id, exclude, reason: 'preempt' };
    }
    return settled ? { kind: 'settled', leader: e } : { kind: 'wait', candidate: e, blockedBy };
  }
  if (holder && !excluded.has(holder.id)) return { kind: 'elect', candidate: holder.id, exclude, reason: 'holder' };
  const candidate = choose(excluded);
  if (candidate !== null) return { kind: 'elect', candidate, exclude, reason: 'policy' };
  // Everyone was excluded: try them again, the one just given up on last.
  const again = choose(new Set(exclude === null ? [] : [exclude])) ?? choose(new Set());
  return again === null ? { kind: 'none', exclude } : { kind: 'elect', candidate: again, exclude, reason: 'forgiven' };
}
