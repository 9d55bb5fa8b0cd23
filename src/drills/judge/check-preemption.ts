import type { ContenderEvent, ContenderEventOf } from '../../lab/events.js';
import { formatDuration, formatOffset } from '../../duration.js';
import type { CheckDetail, CheckResult, Measurement } from './check-types.js';
import type { History } from './history.js';
import { duration, strict } from '../core/zod-helpers.js';
import type { Checker } from './checker.js';

export const DEFAULT_PREEMPTION_WITHIN_MS = 5000;

/** One pre-emption of the priority election, step by step (null: that step never came). */
export interface Handover {
  readonly from: string | null;
  readonly to: string;
  /** What set it off: the new leader joining, or the elector reading a changed policy. */
  readonly trigger: { readonly t: number; readonly what: string };
  readonly elected: number;
  /** Whether the one it replaced was leading then (not merely elected, or taking over). */
  readonly fromLed: boolean;
  /** The replaced one gave up (its resignation, as leader or as a candidate taking over). */
  readonly resigned: number | null;
  /** A newer pre-emption named someone else before this one's READY. */
  readonly supersededAt: number | null;
  readonly progress: number | null;
  readonly ready: number | null;
}

const after = <E extends ContenderEvent['event']>(
  h: History,
  id: string | null,
  event: E,
  t: number,
): ContenderEventOf<E> | undefined =>
  h.events.find((e): e is ContenderEventOf<E> => e.id === id && e.event === event && e.t >= t);

/** Every `elected` event the elector logged with reason preempt, followed through the seed's hand-over. */
export function handovers(h: History): Handover[] {
  const elections = h.events.filter(
    (e): e is ContenderEventOf<'elected'> => e.event === 'elected' && e.reason === 'preempt',
  );
  return elections.map((e, k) => {
    const joined = [...h.events].reverse().find((j) => j.id === e.candidate && j.event === 'joined' && j.t <= e.t);
    const policy = [...h.events].reverse().find((p) => p.event === 'policy' && p.t <= e.t);
    const trigger =
      policy && (!joined || policy.t > joined.t)
        ? { t: policy.t, what: `the elector read a changed policy` }
        : { t: joined?.t ?? e.t, what: `${e.candidate} joined` };
    // Who it replaces is who was leading: the last leadership of another contender alive between the trigger and the
    // election (the elected one before may never have led; a leader may log its resignation a moment before the
    // elector logs the election, the servers applying the change at slightly different times).
    const led = h.intervals
      .filter((i) => i.contender !== e.candidate && i.start <= e.t && i.end >= trigger.t)
      .sort((a, b) => b.start - a.start)[0];
    const from = led?.contender ?? e.previous;
    const stopped = led
      ? led.endReason === 'end-of-history'
        ? null
        : led.end
      : (h.events.find((r) => r.id === e.previous && r.event === 'resigned' && r.t >= trigger.t)?.t ?? null);
    const progress = after(h, e.candidate, 'progress', e.t);
    const ready = progress ? after(h, e.candidate, 'ready', progress.t) : undefined;
    const next = elections[k + 1];
    const supersededAt = next && (ready === undefined || next.t < ready.t) ? next.t : null;
    return {
      from,
      to: e.candidate,
      trigger,
      elected: e.t,
      fromLed: led !== undefined,
      resigned: stopped,
      supersededAt,
      progress: progress?.t ?? null,
      ready: ready?.t ?? null,
    };
  });
}

/**
 * The priority election's pre-emptions (seed 002, B.4.3): each completes (the new leader READY) within `within` of
 * what set it off, and the old leader stopped before the new one even marked PROGRESS. Fails when there was no
 * pre-emption: a drill that names this check exists to show one.
 */
export function checkPreemption(h: History, options: { readonly within?: number } = {}): CheckResult {
  const within = options.within ?? DEFAULT_PREEMPTION_WITHIN_MS;
  const all = handovers(h);
  const at = (t: number | null): string => (t === null ? 'never' : formatOffset(t, h.start));
  const details: CheckDetail[] = [];
  const measurements: Measurement[] = [];
  let bad = 0;
  for (const o of all) {
    const total = o.ready === null ? null : o.ready - o.trigger.t;
    const superseded = o.supersededAt !== null;
    const late = !superseded && (total === null || total > within);
    const overlap = o.resigned !== null && o.progress !== null && o.resigned > o.progress;
    const unresigned = o.fromLed && o.resigned === null && o.ready !== null;
    if (late || overlap || unresigned) bad++;
    measurements.push({
      name: `pre-emption ${o.from ?? 'nobody'} → ${o.to}: trigger → READY`,
      value: total,
      unit: 'ms',
      t: o.trigger.t,
    });
    const step = (a: number | null, b: number | null): string =>
      a === null || b === null ? '-' : formatDuration(b - a);
    details.push({
      level: late || overlap || unresigned ? 'violation' : 'info',
      t: o.trigger.t,
      message:
        `${o.from ?? 'nobody'} → ${o.to} after ${o.trigger.what} at ${at(o.trigger.t)}: ` +
        `elected at ${at(o.elected)} (+${step(o.trigger.t, o.elected)}), ` +
        `${o.from ?? 'the old leader'} stopped at ${at(o.resigned)}, PROGRESS at ${at(o.progress)}, READY at ${at(o.ready)}` +
        (total === null
          ? ' (never READY)'
          : ` (${formatDuration(total)} in all${total > within ? `, over ${formatDuration(within)}` : ''})`) +
        (superseded ? `; superseded by a newer pre-emption at ${at(o.supersededAt)}` : '') +
        (overlap ? `; ${o.from} stopped only after ${o.to} marked PROGRESS` : '') +
        (unresigned ? `; ${o.from} never said it stopped` : ''),
    });
  }
  if (all.length === 0) {
    const message = 'no pre-emption happened: the leader was never replaced by a better-ranked contender';
    return {
      name: 'preemption',
      passed: false,
      summary: message,
      details: [{ level: 'violation', message }],
      measurements,
    };
  }
  const finished = all.filter((o) => o.supersededAt === null);
  const worst = Math.max(0, ...finished.map((o) => (o.ready === null ? Infinity : o.ready - o.trigger.t)));
  return {
    name: 'preemption',
    passed: bad === 0,
    summary:
      bad === 0
        ? `${all.length} pre-emption(s), each READY within ${formatDuration(within)} ` +
          `(slowest ${formatDuration(worst)}), the old leader stopped first`
        : `${bad} of ${all.length} pre-emption(s) late, unfinished or overlapping (see details)`,
    details,
    measurements,
  };
}

const options = strict({ within: duration().optional() });

export const preemptionChecker: Checker<'preemption', typeof options> = {
  name: 'preemption',
  options,
  needs: (c) => (c.priority ? undefined : "judges the priority recipe's hand-overs: it needs recipe: priority"),
  run: (h, opts) => checkPreemption(h, opts),
};
