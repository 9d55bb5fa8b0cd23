import { targetKind } from '../../faults/targets.js';
import { contenderOf, serverOf, type LabEvent, type LabEventOf } from '../../lab/events.js';

/** The lab events that open a fault window (src/lab/events.ts lists every lab event and its fields). */
export type FaultKind =
  | 'contender-killed'
  | 'contender-paused'
  | 'contender-stopped'
  | 'server-killed'
  | 'server-paused'
  | 'partition'
  | 'delay'
  | 'loss';

type FaultEvent = LabEventOf<FaultKind>;
type NetFaultEvent = LabEventOf<'partition' | 'delay' | 'loss'>;

const FAULT_KINDS: ReadonlySet<string> = new Set<FaultKind>([
  'contender-killed',
  'contender-paused',
  'contender-stopped',
  'server-killed',
  'server-paused',
  'partition',
  'delay',
  'loss',
]);
/** A loss of 0 % is the end of one, not a fault. */
const isFault = (e: LabEvent): e is FaultEvent => FAULT_KINDS.has(e.event) && !(e.event === 'loss' && e.percent === 0);

/** A fault the lab injected, as a window: instantaneous faults (kill, stop) have start == end. */
export interface FaultWindow {
  readonly kind: FaultKind;
  readonly start: number;
  readonly end: number;
  readonly label: string;
  /** Contenders the fault cuts off, stops or kills. */
  readonly contenders: readonly string[];
  readonly servers: readonly string[];
}

const isContender = (n: string) => targetKind(n) === 'contender';
const isServer = (n: string) => targetKind(n) === 'server';

/** The names a partition or delay cuts off; for a split, the members of groups without a server majority. */
export function partitionTargets(ev: NetFaultEvent): string[] {
  const names = ev.target === undefined ? [] : [ev.target];
  const groups = ev.event === 'partition' ? (ev.groups ?? []) : [];
  const totalServers = groups.flat().filter(isServer).length;
  for (const group of groups) {
    if (group.filter(isServer).length * 2 <= totalServers) names.push(...group);
  }
  return [...new Set(names)];
}

function label(ev: FaultEvent): string {
  switch (ev.event) {
    case 'contender-killed':
      return `kill ${ev.contender} (${ev.signal})`;
    case 'server-killed':
      return `kill ${ev.server} (${ev.signal})`;
    case 'contender-paused':
      return `pause ${ev.contender}`;
    case 'server-paused':
      return `pause ${ev.server}`;
    case 'contender-stopped':
      return `stop ${ev.contender}`;
    case 'partition':
    case 'delay':
    case 'loss':
      return ev.description;
  }
}

/** Whether `e` ends the fault `ev`: the matching resume, heal or restart. */
function ends(ev: FaultEvent, e: LabEvent): boolean {
  switch (ev.event) {
    case 'contender-killed':
    case 'contender-stopped':
      return false;
    case 'contender-paused':
      return (
        ['contender-resumed', 'contender-killed', 'contender-stopped'].includes(e.event) &&
        contenderOf(e) === ev.contender
      );
    case 'server-paused':
      return ['server-resumed', 'server-killed'].includes(e.event) && serverOf(e) === ev.server;
    case 'server-killed':
      return (e.event === 'server-restarted' || e.event === 'ensemble-repaired') && e.servers.includes(ev.server);
    case 'loss':
      // Another loss for the same member replaces it; `net clear` ends it as it ends delays.
      if (e.event === 'loss') return e.target === ev.target;
      if (e.event !== 'heal' || e.kind !== 'delay') return false;
      return e.target === undefined || e.target === 'all' || e.target === ev.target;
    case 'partition':
    case 'delay':
      // A heal of the other kind (lifting partitions vs clearing delays) leaves this fault in place.
      if (e.event !== 'heal' || e.kind !== ev.event) return false;
      return e.target === undefined || e.target === 'all' || partitionTargets(ev).includes(e.target);
  }
}

/** When the fault stops: the matching resume / heal / restart, or `end` (the end of the history). */
export function faultEnd(ev: FaultEvent, later: readonly LabEvent[], end: number): number {
  if (ev.event === 'contender-killed' || ev.event === 'contender-stopped') return ev.t;
  return later.find((e) => ends(ev, e))?.t ?? end;
}

/** The lab's faults as windows, in time order; `lab` must be sorted by time. */
export function faultWindows(lab: readonly LabEvent[], end: number): FaultWindow[] {
  const out: FaultWindow[] = [];
  lab.forEach((ev, i) => {
    if (!isFault(ev)) return;
    const names =
      ev.event === 'partition' || ev.event === 'delay' || ev.event === 'loss'
        ? partitionTargets(ev)
        : [contenderOf(ev) ?? serverOf(ev) ?? ''];
    out.push({
      kind: ev.event,
      start: ev.t,
      end: faultEnd(ev, lab.slice(i + 1), end),
      label: label(ev),
      contenders: names.filter(isContender),
      servers: names.filter(isServer),
    });
  });
  return out;
}
