import type { ContenderEvent, ContenderEventOf, LabEvent } from './events.js';

/** How a span of acting as the leader, by a probe's word, ended. */
export type ActingEnd =
  /** The probe said it no longer acts. */
  | 'probe'
  /** The probe hung or could not run: nothing is known from then on. */
  | 'unknown'
  /** The lab killed its whole node, or stopped the contender. */
  | 'killed'
  | 'stopped'
  | 'end-of-history';

/**
 * A span during which a contender's node acted as the leader by its probe (exit 0): what its data plane did, whatever
 * its agent believed or ZooKeeper said. Sampled: each end may be up to `everyMs` late (the probe's interval, or
 * longer where its runs were slow: the larger of the two ends' `lateMs`).
 */
export interface ActingInterval {
  readonly contender: string;
  readonly start: number;
  readonly end: number;
  readonly endReason: ActingEnd;
  readonly everyMs: number;
}

/**
 * Every span during which a probe said its node acted as the leader, from the first `probed` that said so to the
 * first that said otherwise, a kill of the whole node or a stop (a kill of the program alone leaves the data plane
 * acting). Still acting at `end`: cut there. Sorted by start.
 */
export function actingIntervals(
  events: readonly ContenderEvent[],
  lab: readonly LabEvent[],
  end: number,
): ActingInterval[] {
  type Entry = { t: number; own?: ContenderEvent; lab?: LabEvent };
  const merged = [
    ...events.filter((e) => e.event === 'probed').map((e): Entry => ({ t: e.t, own: e })),
    ...lab.map((e): Entry => ({ t: e.t, lab: e })),
  ].sort((a, b) => a.t - b.t || Number(!!a.lab) - Number(!!b.lab));
  const open = new Map<string, { start: number; everyMs: number }>();
  const out: ActingInterval[] = [];
  const late = (e: ContenderEventOf<'probed'>) => e.lateMs ?? e.everyMs;
  const close = (contender: string, t: number, endReason: ActingEnd, endLateMs = 0) => {
    const o = open.get(contender);
    if (!o) return;
    out.push({ contender, start: o.start, end: t, endReason, everyMs: Math.max(o.everyMs, endLateMs) });
    open.delete(contender);
  };
  for (const { t, own, lab: l } of merged) {
    if (own?.event === 'probed') {
      if (own.leads === true) {
        if (!open.has(own.id)) open.set(own.id, { start: t, everyMs: late(own) });
      } else close(own.id, t, own.leads === false ? 'probe' : 'unknown', late(own));
    } else if (l?.event === 'contender-killed' && l.scope !== 'process') {
      close(l.contender, t, 'killed');
    } else if (l?.event === 'contender-stopped') {
      close(l.contender, t, 'stopped');
    }
  }
  for (const [id, o] of [...open]) close(id, Math.max(end, o.start), 'end-of-history');
  return out.sort((a, b) => a.start - b.start);
}

/** What a contender's probe said last, if it has one. */
export function lastProbed(events: readonly ContenderEvent[]): ContenderEventOf<'probed'> | undefined {
  return events.findLast((e): e is ContenderEventOf<'probed'> => e.event === 'probed');
}

/** A span during which a contender's probe said nothing (it hung, or could not start): what its node did is not known. */
export interface BlindSpan {
  readonly contender: string;
  readonly start: number;
  readonly end: number;
  readonly why: string;
  readonly everyMs: number;
}

/** Every span from a probe's unknown word to its next word (or `end`). Sorted by start. */
export function probeBlindSpans(events: readonly ContenderEvent[], end: number): BlindSpan[] {
  const open = new Map<string, { start: number; why: string; everyMs: number }>();
  const out: BlindSpan[] = [];
  for (const e of events) {
    if (e.event !== 'probed') continue;
    const o = open.get(e.id);
    if (o) {
      out.push({ contender: e.id, ...o, end: e.t });
      open.delete(e.id);
    }
    if (e.leads === null) open.set(e.id, { start: e.t, why: e.why ?? 'no answer', everyMs: e.everyMs });
  }
  for (const [contender, o] of open) out.push({ contender, ...o, end: Math.max(end, o.start) });
  return out.sort((a, b) => a.start - b.start);
}
