import type { DrillContenderState } from '../core/types.js';
import { intervalAt, type History } from '../judge/history.js';
import { stateAt } from '../judge/queries.js';
import { contenderOf } from '../../lab/events.js';

/** One stretch of a contender's timeline lane. */
export interface LaneSegment {
  readonly start: number;
  readonly end: number;
  readonly state: DrillContenderState;
  /** It still believed it led (a frozen or partitioned leader that has not heard it lost). */
  readonly believesLeader: boolean;
}

const NOT_STATE_CHANGES = new Set(['act', 'notified', 'watching', 'retry']);

/** The contender's lane from its first sign of life to the end of the history, equal neighbours merged. */
export function laneSegments(h: History, contender: string): LaneSegment[] {
  const points = new Set<number>([h.end]);
  for (const e of h.events) if (e.id === contender && !NOT_STATE_CHANGES.has(e.event)) points.add(e.t);
  for (const e of h.lab) if (contenderOf(e) === contender) points.add(e.t);
  for (const i of h.intervals) if (i.contender === contender) points.add(i.start).add(i.end);
  for (const w of h.frozen) if (w.contender === contender) points.add(w.start).add(w.end);
  const sorted = [...points].filter((t) => t >= h.start && t <= h.end).sort((a, b) => a - b);
  const out: LaneSegment[] = [];
  for (let k = 0; k < sorted.length - 1; k++) {
    const start = sorted[k] as number;
    const end = sorted[k + 1] as number;
    const state = stateAt(h, contender, start);
    if (state === undefined) continue;
    const believesLeader = intervalAt(h, contender, start) !== undefined;
    const prev = out[out.length - 1];
    if (prev && prev.end === start && prev.state === state && prev.believesLeader === believesLeader) {
      out[out.length - 1] = { ...prev, end };
    } else {
      out.push({ start, end, state, believesLeader });
    }
  }
  return out;
}
