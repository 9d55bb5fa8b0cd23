import { contenderOf, type ContenderEvent, isLabEvent } from '../../lab/events.js';
import type { LabLine } from '../../faults/kinds/registry.js';
import { covers, leadershipIntervals, type LeadershipInterval } from '../../lab/leadership-intervals.js';
import { type ActingInterval, actingIntervals } from '../../lab/acting-intervals.js';
import { compareIds } from '../../recipes/elector-policy.js';
import { runsProgram } from '../../contenders/spec.js';
import { SAYS_WHERE_IT_STANDS } from '../../lab/events.js';
import { faultEnd, faultWindows, type FaultWindow } from './fault-windows.js';

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
  readonly lab: readonly LabLine[];
  /** Sorted by start. */
  readonly intervals: readonly LeadershipInterval[];
  readonly frozen: readonly FrozenWindow[];
  readonly faults: readonly FaultWindow[];
  /** Who led by ZooKeeper's own state, as the drill sampled it; sorted by start, empty when it was not sampled. */
  readonly zkLeaders: readonly ZkLeaderInterval[];
  /** When each node acted as the leader by its probe (its data plane's word); sorted by start, empty without probes. */
  readonly acting: readonly ActingInterval[];
}

/**
 * A span during which ZooKeeper's state named one leader (`leader` null: nobody, or another client's session), or
 * (`unknown`) one in which the drill could not ask: nothing is judged against it.
 */
export interface ZkLeaderInterval {
  readonly leader: string | null;
  readonly unknown?: true;
  /** The owner of the leading znode and the znode, when one leads (another client's, when `leader` is null). */
  readonly session: string | null;
  readonly znode: string | null;
  readonly start: number;
  readonly end: number;
}

const byTime = <T extends { t: number }>(xs: readonly T[]): T[] =>
  xs
    .map((x, i) => [x, i] as const)
    .sort((a, b) => a[0].t - b[0].t || a[1] - b[1])
    .map(([x]) => x);

/**
 * Builds the drill's view of what happened. `start`/`end` default to the first and last event; pass the drill's
 * own start and end so that leadership still held at the end is cut there.
 */
export function buildHistory(
  contenderEvents: readonly ContenderEvent[],
  labEvents: readonly LabLine[],
  options: { readonly start?: number; readonly end?: number } = {},
): History {
  const events = byTime(contenderEvents);
  const lab = byTime(labEvents);
  const times = [...events, ...lab].map((e) => e.t);
  const start = options.start ?? (times.length ? Math.min(...times) : 0);
  const end = options.end ?? (times.length ? Math.max(...times) : start);
  const ids = new Set(events.map((e) => e.id));
  const zkLeaders = zkLeaderIntervals(lab, end);
  // Leadership and acting end at the lab's own kills and stops; the lines of fault kinds do not touch them.
  const labOwn = lab.filter(isLabEvent);
  for (const e of lab) {
    const id = contenderOf(e);
    if (id !== undefined) ids.add(id);
  }
  return {
    start,
    end,
    contenders: [...ids].sort(compareIds),
    events,
    lab,
    intervals: [
      ...cutAtCrashes(leadershipIntervals(events, labOwn, end), events),
      ...silentLeadership(events, lab, zkLeaders),
    ].sort((a, b) => a.start - b.start),
    frozen: frozenWindows(lab, end, events),
    faults: faultWindows(lab, end),
    zkLeaders,
    acting: actingIntervals(events, labOwn, end),
  };
}

/** Programs run as contenders that never say what they believe: ZooKeeper's view stands in for their word. */
export function silentContenders(events: readonly ContenderEvent[]): Set<string> {
  const programs = new Set(events.flatMap((e) => (e.event === 'started' && runsProgram(e.recipe) ? [e.id] : [])));
  for (const e of events) if (SAYS_WHERE_IT_STANDS.has(e.event)) programs.delete(e.id);
  return programs;
}

/** A contender that reached a failpoint armed to crash: it SIGKILLed itself there, and the lab logged no kill. */
export function crashedByFailpoint(e: ContenderEvent): boolean {
  return e.event === 'failpoint' && e.action === 'crash';
}

/** A leadership ends where its holder crashed itself (the lab's own intervals only know of the kills it made). */
function cutAtCrashes(
  intervals: readonly LeadershipInterval[],
  events: readonly ContenderEvent[],
): LeadershipInterval[] {
  const crashes = events.filter(crashedByFailpoint);
  return intervals.map((i) => {
    const crash = crashes.find((c) => c.id === i.contender && c.t >= i.start && c.t < i.end);
    return crash ? { ...i, end: crash.t, endReason: 'killed' } : i;
  });
}

interface Death {
  readonly t: number;
  readonly reason: 'killed' | 'stopped' | 'exited';
}

/** When and how a contender's process ended: killed or stopped by the lab, or a program that exited by itself. */
export function deathOf(
  contender: string,
  events: readonly ContenderEvent[],
  lab: readonly LabLine[],
): Death | undefined {
  const deaths: Death[] = [];
  for (const e of lab) {
    if (e.event === 'contender-killed' && e.contender === contender) deaths.push({ t: e.t, reason: 'killed' });
    if (e.event === 'contender-stopped' && e.contender === contender) deaths.push({ t: e.t, reason: 'stopped' });
  }
  for (const e of events) {
    if (e.id !== contender) continue;
    if (e.event === 'exited' || e.event === 'stopped') deaths.push({ t: e.t, reason: e.event });
    if (crashedByFailpoint(e)) deaths.push({ t: e.t, reason: 'killed' });
  }
  return deaths.sort((a, b) => a.t - b.t)[0];
}

/**
 * The leadership of silent contenders, from ZooKeeper's sampled state: while it names one, that one leads, up to
 * the sample that names another, or its kill or stop (a dead process leads nothing, whatever its znode says).
 */
function silentLeadership(
  events: readonly ContenderEvent[],
  lab: readonly LabLine[],
  zk: readonly ZkLeaderInterval[],
): LeadershipInterval[] {
  const silent = silentContenders(events);
  const out: LeadershipInterval[] = [];
  // A span the drill could not see does not end a leadership that goes on after it.
  const sameAcross = (k: number, step: 1 | -1) =>
    zk[k + step]?.leader === zk[k]!.leader
      ? k + step
      : zk[k + step]?.unknown && zk[k + 2 * step]?.leader === zk[k]!.leader
        ? k + 2 * step
        : undefined;
  for (const [i, z] of zk.entries()) {
    if (z.leader === null || !silent.has(z.leader) || sameAcross(i, -1) !== undefined) continue;
    let k = i;
    for (let n = sameAcross(k, 1); n !== undefined; n = sameAcross(k, 1)) k = n;
    // Ids are never reused: a contender's first death is its last. A znode it left may still lead after it.
    const death = deathOf(z.leader, events, lab);
    if (death && death.t <= z.start) continue;
    const cut = death && death.t < zk[k]!.end ? death : undefined;
    const endReason = cut ? cut.reason : zk[k + 1] ? 'zookeeper' : 'end-of-history';
    out.push({
      contender: z.leader,
      token: null,
      session: null,
      start: z.start,
      end: cut?.t ?? zk[k]!.end,
      endReason,
      byZooKeeper: true,
    });
  }
  return out;
}

function zkLeaderIntervals(lab: readonly LabLine[], end: number): ZkLeaderInterval[] {
  const samples = lab.flatMap((e) => (e.event === 'zk-leader' ? [e] : []));
  const out: ZkLeaderInterval[] = [];
  samples.forEach((e, i) => {
    // A look that took long: from its start to its answer, what ZooKeeper said is not known.
    const prev = out.at(-1);
    if (e.blindSince !== undefined && e.blindSince < e.t) {
      const from = Math.max(e.blindSince, prev?.start ?? -Infinity);
      if (prev && prev.end > from) out[out.length - 1] = { ...prev, end: from };
      out.push({ leader: null, session: null, znode: null, unknown: true, start: from, end: e.t });
    }
    const next = samples[i + 1];
    out.push({
      leader: e.unknown ? null : e.leader,
      session: e.unknown ? null : e.session,
      znode: e.unknown ? null : e.znode,
      ...(e.unknown ? { unknown: true as const } : {}),
      start: e.t,
      end: Math.max(e.t, next ? Math.max(e.t, next.blindSince ?? next.t) : end),
    });
  });
  return out;
}

/** Who led at t by ZooKeeper's state as sampled; undefined when nothing was sampled by then. */
export function zkLeaderAt(h: History, t: number): ZkLeaderInterval | undefined {
  // The last sample holds up to the end of history, that moment included (a wait asks about "now").
  return h.zkLeaders.find((z, i) => z.start <= t && (t < z.end || (i === h.zkLeaders.length - 1 && t <= z.end)));
}

/** The lab's SIGSTOPs, and those a contender gave itself at a failpoint armed to pause (up to its resume or death). */
function frozenWindows(lab: readonly LabLine[], end: number, events: readonly ContenderEvent[]): FrozenWindow[] {
  const out: FrozenWindow[] = [];
  lab.forEach((e, i) => {
    if (e.event !== 'contender-paused') return;
    out.push({ contender: e.contender, start: e.t, end: faultEnd(e, lab.slice(i + 1), end) });
  });
  for (const e of events) {
    if (e.event !== 'failpoint' || e.action !== 'pause') continue;
    const thaw = lab.find(
      (l) =>
        l.t >= e.t &&
        (l.event === 'contender-resumed' || l.event === 'contender-killed' || l.event === 'contender-stopped') &&
        l.contender === e.id,
    );
    out.push({ contender: e.id, start: e.t, end: thaw?.t ?? end });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Whether the contender was frozen at t (a window is half-open: frozen from its start, thawed at its end). */
export function isFrozen(h: History, contender: string, t: number): boolean {
  return h.frozen.some((w) => w.contender === contender && w.start <= t && t < w.end);
}

/** A span of time, half-open: [start, end). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Where two spans meet, or undefined when they do not. */
export function meet(a: Span, b: Span): Span | undefined {
  const start = Math.max(a.start, b.start);
  const end = Math.min(a.end, b.end);
  return end > start ? { start, end } : undefined;
}

/** Milliseconds of [start, end) during which none of `contenders` was frozen (a lab SIGSTOP or a pause failpoint). */
export function unfrozenMs(h: History, contenders: readonly string[], start: number, end: number): number {
  return Math.max(
    0,
    uncoveredMs(
      h.frozen.filter((w) => contenders.includes(w.contender)),
      start,
      end,
    ),
  );
}

/** Time in [from, to] that none of the spans covers (they may overlap, in any order). */
export function uncoveredMs(spans: readonly Span[], from: number, to: number): number {
  const clipped = spans
    .map((x) => ({ start: Math.max(x.start, from), end: Math.min(x.end, to) }))
    .filter((x) => x.end > x.start)
    .sort((a, b) => a.start - b.start);
  let covered = 0;
  let reach = from;
  for (const x of clipped) {
    if (x.end <= reach) continue;
    covered += x.end - Math.max(x.start, reach);
    reach = x.end;
  }
  return to - from - covered;
}

/** The contender's interval that covers t, if any. */
export function intervalAt(h: History, contender: string, t: number): LeadershipInterval | undefined {
  return h.intervals.find((i) => i.contender === contender && covers(i, t));
}
