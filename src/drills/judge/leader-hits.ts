import type { FaultWindow } from './fault-windows.js';
import type { IntervalEnd, LeadershipInterval } from '../../lab/leadership-intervals.js';
import type { History } from './history.js';

/** The lab faults that can take leadership from a contender they hit. */
const LEADER_FAULT_KINDS = new Set(['contender-killed', 'contender-paused', 'contender-stopped', 'partition']);

const SELF_ENDS: Partial<Record<IntervalEnd, string>> = {
  paused: 'paused itself (disconnected)',
  resigned: 'resigned',
  expired: 'session expired',
  stopped: 'stopped',
  follower: 'became a follower',
  restarted: 'restarted',
};

export interface LeaderClaim {
  readonly t: number;
  readonly contender: string;
  readonly token: number | null;
}

/** Something that hit the leader: a lab fault, or the end of its leadership it logged itself. */
export interface LeaderFault {
  readonly t: number;
  readonly leader: string;
  readonly token: number | null;
  readonly cause: string;
  /** For messages: the lab fault's label ("kill c1 (SIGKILL)") or "<leader> <cause>" ("c1 resigned"). */
  readonly description: string;
  /** The lab fault, when the lab caused it. */
  readonly fault?: FaultWindow;
  readonly interval: LeadershipInterval;
  /** The first leadership claim by another contender at or after t. */
  readonly next?: LeaderClaim;
  /** The leader rode it out: nobody else claimed before the next fault, and it never stopped leading meanwhile. */
  readonly survived: boolean;
  /** It paused itself on a disconnect and led again before anyone else claimed: no failover, none owed. */
  readonly cameBack?: true;
}

/** Every claim of leadership: a contender's own `leader` line, or ZooKeeper naming a contender that says nothing. */
export function leaderClaims(h: History): LeaderClaim[] {
  const own = h.events
    .filter((e) => e.event === 'leader')
    .map((e) => ({ t: e.t, contender: e.id, token: typeof e.token === 'number' ? e.token : null }));
  const byZk = h.intervals
    .filter((i) => i.byZooKeeper)
    .map((i) => ({ t: i.start, contender: i.contender, token: null }));
  return [...own, ...byZk].sort((a, b) => a.t - b.t);
}

/**
 * Every fault that hit a sitting leader, in time order. Of several lab faults during one leadership, each is
 * judged by whether leadership was lost before the next one; the first that lost it ends the list for that
 * leadership. A leadership that ended on its own (resigned, expired, …) without a lab fault counts as a fault too.
 */
export function leaderFaults(h: History): LeaderFault[] {
  const claims = leaderClaims(h);
  const out: LeaderFault[] = [];
  for (const interval of h.intervals) {
    const { contender, token } = interval;
    const nextClaim = (t: number) => claims.find((c) => c.contender !== contender && c.t >= t);
    const selfEnd = SELF_ENDS[interval.endReason] ? interval.end : undefined;
    const killedAt = interval.endReason === 'killed' ? interval.end : undefined;
    /** When leadership was lost after t: another claim, or its own end; Infinity if it never was. */
    const lost = (t: number) => Math.min(nextClaim(t)?.t ?? Infinity, selfEnd ?? Infinity, killedAt ?? Infinity);
    // A leader that paused itself on a disconnect and led again before anyone else claimed: leadership was
    // interrupted (liveness counts it), but nobody took over and nobody had to (a later claim is a later fault's).
    const ownNext = h.intervals.find((i) => i !== interval && i.contender === contender && i.start >= interval.end);
    const cameBack = (t: number) =>
      interval.endReason === 'paused' && ownNext !== undefined && ownNext.start <= (nextClaim(t)?.t ?? Infinity);
    const hits = h.faults.filter(
      (f) =>
        LEADER_FAULT_KINDS.has(f.kind) &&
        f.contenders.includes(contender) &&
        f.start >= interval.start &&
        f.start <= interval.end,
    );
    let ended = false;
    hits.forEach((fault, k) => {
      if (ended) return;
      const following = hits[k + 1]?.start ?? Infinity;
      const survived = lost(fault.start) >= following;
      const next = nextClaim(fault.start);
      const cause = fault.label;
      const base = { t: fault.start, leader: contender, token, cause, description: cause, fault, interval, survived };
      if (!survived && cameBack(fault.start)) out.push({ ...base, cameBack: true });
      else out.push(next && !survived ? { ...base, next } : base);
      ended = !survived;
    });
    if (!ended && selfEnd !== undefined) {
      const next = nextClaim(selfEnd);
      const cause = SELF_ENDS[interval.endReason] ?? interval.endReason;
      const description = `${contender} ${cause}`;
      const base = { t: selfEnd, leader: contender, token, cause, description, interval, survived: false };
      if (cameBack(selfEnd)) out.push({ ...base, cameBack: true });
      else out.push(next ? { ...base, next } : base);
    }
  }
  return out.sort((a, b) => a.t - b.t);
}
