import type { ContenderEvent, ContenderEventName, LabEvent } from './events.js';

/** How a leadership interval ended. */
export type IntervalEnd =
  | 'paused'
  | 'resigned'
  | 'expired'
  | 'stopped'
  /** A program run as a contender ended by itself. */
  | 'exited'
  | 'follower'
  | 'killed'
  /** The same contender claimed again with another token: a new interval starts. */
  | 'reclaimed'
  /** A new process with the same id started: the old one is gone. */
  | 'restarted'
  /** A program that says nothing of itself: ZooKeeper's state named another leader, or nobody. */
  | 'zookeeper'
  | 'end-of-history';

/** A span during which one contender believed it led, from its `leader` claim to the first sign it stopped. */
export interface LeadershipInterval {
  readonly contender: string;
  /** The fencing token of the claim (czxid of the leading znode), null when the claim carried none. */
  readonly token: number | null;
  readonly session: string | null;
  readonly start: number;
  readonly end: number;
  readonly endReason: IntervalEnd;
  /** Taken from ZooKeeper's state, not from the contender's word (a program that reports no beliefs). */
  readonly byZooKeeper?: true;
}

/** The events with which a contender's own log ends a leadership it claimed: the one definition of it. */
const OWN_ENDS: Partial<Record<ContenderEventName, IntervalEnd>> = {
  paused: 'paused',
  resigned: 'resigned',
  expired: 'expired',
  stopped: 'stopped',
  follower: 'follower',
  exited: 'exited',
  started: 'restarted',
};

/** How `e` ends its contender's leadership, if it does. */
export function leadershipEndOf(e: ContenderEvent): IntervalEnd | undefined {
  return OWN_ENDS[e.event];
}

type Open = { contender: string; token: number | null; session: string | null; start: number };

/**
 * Every span during which a contender believed it led: from its `leader` claim to the first sign it stopped, in
 * its own log or the lab's (a kill or stop). Leadership still held at `end` is cut there. Sorted by start.
 */
export function leadershipIntervals(
  events: readonly ContenderEvent[],
  lab: readonly LabEvent[],
  end: number,
): LeadershipInterval[] {
  // On equal times a contender's own event comes first: what it logged happened before the lab's kill landed.
  type Entry = { t: number; own?: ContenderEvent; lab?: LabEvent };
  const merged = [
    ...events.map((e): Entry => ({ t: e.t, own: e })),
    ...lab.map((e): Entry => ({ t: e.t, lab: e })),
  ].sort((a, b) => a.t - b.t || Number(!!a.lab) - Number(!!b.lab));
  const open = new Map<string, Open>();
  const out: LeadershipInterval[] = [];
  const close = (id: string, t: number, endReason: IntervalEnd) => {
    const o = open.get(id);
    if (!o) return;
    out.push({ ...o, end: t, endReason });
    open.delete(id);
  };
  for (const { t, own, lab: l } of merged) {
    if (own) {
      if (own.event === 'leader') {
        const token = typeof own.token === 'number' ? own.token : null;
        const o = open.get(own.id);
        if (o && o.token === token) continue;
        close(own.id, t, 'reclaimed');
        open.set(own.id, { contender: own.id, token, session: own.session, start: t });
      } else {
        const reason = leadershipEndOf(own);
        if (reason) close(own.id, t, reason);
      }
    } else if (l?.event === 'contender-killed') {
      close(l.contender, t, 'killed');
    } else if (l?.event === 'contender-stopped') {
      close(l.contender, t, 'stopped');
    }
  }
  for (const id of [...open.keys()]) close(id, Math.max(end, open.get(id)?.start ?? end), 'end-of-history');
  return out.sort((a, b) => a.start - b.start);
}

/** Whether the interval covers t: from its start, up to its end (included when it runs to the end of history). */
export function covers(i: LeadershipInterval, t: number): boolean {
  return i.start <= t && (t < i.end || (i.endReason === 'end-of-history' && t <= i.end));
}
