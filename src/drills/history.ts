import type { ContenderEvent, LabEvent } from '../contenders/events.js';
import { compareIds } from '../recipes/elector-policy.js';
import { faultEnd, faultWindows, type FaultWindow } from './lab-faults.js';

export type IntervalEnd =
  | 'paused'
  | 'resigned'
  | 'expired'
  | 'stopped'
  | 'follower'
  | 'killed'
  /** The same contender claimed again with another token: a new interval starts. */
  | 'reclaimed'
  /** A new process with the same id started: the old one is gone. */
  | 'restarted'
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
}

/** A lab SIGSTOP: the process can neither act nor log. */
export interface FrozenWindow {
  readonly contender: string;
  readonly start: number;
  readonly end: number;
}

export interface History {
  readonly start: number;
  readonly end: number;
  /** Every contender id seen, in natural order (c2 before c10). */
  readonly contenders: readonly string[];
  /** Sorted by time. */
  readonly events: readonly ContenderEvent[];
  /** Sorted by time. */
  readonly lab: readonly LabEvent[];
  /** Sorted by start. */
  readonly intervals: readonly LeadershipInterval[];
  readonly frozen: readonly FrozenWindow[];
  readonly faults: readonly FaultWindow[];
}

const ENDS: Partial<Record<string, IntervalEnd>> = {
  paused: 'paused',
  resigned: 'resigned',
  expired: 'expired',
  stopped: 'stopped',
  follower: 'follower',
  started: 'restarted',
};

const byTime = <T extends { t: number }>(xs: readonly T[]): T[] =>
  xs.map((x, i) => [x, i] as const).sort((a, b) => a[0].t - b[0].t || a[1] - b[1]).map(([x]) => x);

/**
 * Builds the drill's view of what happened. `start`/`end` default to the first and last event; pass the drill's
 * own start and end so that leadership still held at the end is cut there.
 */
export function buildHistory(
  contenderEvents: readonly ContenderEvent[],
  labEvents: readonly LabEvent[],
  options: { readonly start?: number; readonly end?: number } = {},
): History {
  const events = byTime(contenderEvents);
  const lab = byTime(labEvents);
  const times = [...events, ...lab].map((e) => e.t);
  const start = options.start ?? (times.length ? Math.min(...times) : 0);
  const end = options.end ?? (times.length ? Math.max(...times) : start);
  const ids = new Set(events.map((e) => e.id));
  for (const e of lab) if (typeof e['contender'] === 'string') ids.add(e['contender']);
  return {
    start,
    end,
    contenders: [...ids].sort(compareIds),
    events,
    lab,
    intervals: leadershipIntervals(events, lab, end),
    frozen: frozenWindows(lab, end),
    faults: faultWindows(lab, end),
  };
}

type Open = { contender: string; token: number | null; session: string | null; start: number };

function leadershipIntervals(events: readonly ContenderEvent[], lab: readonly LabEvent[], end: number) {
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
        const reason = ENDS[own.event];
        if (reason) close(own.id, t, reason);
      }
    } else if (l && typeof l['contender'] === 'string') {
      if (l.event === 'contender-killed') close(l['contender'], t, 'killed');
      if (l.event === 'contender-stopped') close(l['contender'], t, 'stopped');
    }
  }
  for (const id of [...open.keys()]) close(id, Math.max(end, open.get(id)?.start ?? end), 'end-of-history');
  return out.sort((a, b) => a.start - b.start);
}

function frozenWindows(lab: readonly LabEvent[], end: number): FrozenWindow[] {
  const out: FrozenWindow[] = [];
  lab.forEach((e, i) => {
    const id = e['contender'];
    if (e.event !== 'contender-paused' || typeof id !== 'string') return;
    out.push({ contender: id, start: e.t, end: faultEnd(e, lab.slice(i + 1), end) });
  });
  return out;
}

/** Whether the contender was frozen at t (a window is half-open: frozen from its start, thawed at its end). */
export function isFrozen(h: History, contender: string, t: number): boolean {
  return h.frozen.some((w) => w.contender === contender && w.start <= t && t < w.end);
}

/** Whether the interval covers t: from its start, up to its end (included when it runs to the end of history). */
export function covers(i: LeadershipInterval, t: number): boolean {
  return i.start <= t && (t < i.end || (i.endReason === 'end-of-history' && t <= i.end));
}

/** The contender's interval that covers t, if any. */
export function intervalAt(h: History, contender: string, t: number): LeadershipInterval | undefined {
  return h.intervals.find((i) => i.contender === contender && covers(i, t));
}
