import { type LabLine, windowRuleOf } from '../../faults/kinds/registry.js';
import { targetKind } from '../../faults/targets.js';

/** A fault the lab injected, as a window: instantaneous faults (kill, stop) have start == end. */
export interface FaultWindow {
  /** The event that opened it (its rule's colour in the report). */
  readonly kind: string;
  readonly start: number;
  readonly end: number;
  readonly label: string;
  /** Contenders the fault cuts off, stops or kills. */
  readonly contenders: readonly string[];
  readonly servers: readonly string[];
}

const isContender = (n: string) => targetKind(n) === 'contender';
const isServer = (n: string) => targetKind(n) === 'server';

/**
 * How lines of `event` open fault windows, and their colour in the report; undefined when they open none. Each kind
 * of fault says it for the lines it writes (src/faults/kinds/).
 */
export const faultRuleOf = windowRuleOf;

/** When the fault stops: the line that ends it (a resume, heal, restart), or `end` (the end of the history). */
export function faultEnd(ev: LabLine, later: readonly LabLine[], end: number): number {
  const rule = faultRuleOf(ev.event);
  if (rule?.endedBy === undefined) return ev.t;
  return later.find((e) => rule.endedBy!(ev, e))?.t ?? end;
}

/** The lab's faults as windows, in time order; `lab` must be sorted by time. */
export function faultWindows(lab: readonly LabLine[], end: number): FaultWindow[] {
  const out: FaultWindow[] = [];
  lab.forEach((ev, i) => {
    const rule = faultRuleOf(ev.event);
    if (!rule || (rule.opens && !rule.opens(ev))) return;
    const names = rule.hits(ev);
    out.push({
      kind: ev.event,
      start: rule.start?.(ev) ?? ev.t,
      end: faultEnd(ev, lab.slice(i + 1), end),
      label: rule.label(ev),
      contenders: names.filter(isContender),
      servers: names.filter(isServer),
    });
  });
  return out;
}
