import type { LabEvent } from '../contenders/events.js';

/**
 * The lab events drills understand (src/lab/events.ts writes them):
 *   contender-killed { contender, signal }   contender-paused / contender-resumed / contender-stopped { contender }
 *   server-killed { server, signal }         server-paused / server-resumed { server }   server-restarted { servers }
 *   partition { description, and the names it cuts off in any of: target | isolate | contender | server (a name),
 *               targets | nodes | contenders | servers (names), groups | split (lists of names, a split) }
 *   heal { description, target? (a name, 'all' or absent for all), kind? ('partition' | 'delay'; absent: both) }
 *   delay { target, ms }
 */
export type FaultKind =
  | 'contender-killed'
  | 'contender-paused'
  | 'contender-stopped'
  | 'server-killed'
  | 'server-paused'
  | 'partition'
  | 'delay';

const FAULT_KINDS: readonly string[] = [
  'contender-killed',
  'contender-paused',
  'contender-stopped',
  'server-killed',
  'server-paused',
  'partition',
  'delay',
];

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

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const isContender = (n: string) => /^c\d+$/.test(n);
const isServer = (n: string) => /^zk\d+$/.test(n);

/** The names a partition event cuts off; for a split, the members of groups without a server majority. */
export function partitionTargets(ev: LabEvent): string[] {
  const names = [
    ...['target', 'isolate', 'contender', 'server'].map((k) => str(ev[k])).filter((n): n is string => !!n),
    ...['targets', 'nodes', 'contenders', 'servers'].flatMap((k) => strs(ev[k])),
  ];
  const groupsRaw = ev['groups'] ?? ev['split'];
  const groups = Array.isArray(groupsRaw) ? groupsRaw.map(strs) : [];
  const totalServers = groups.flat().filter(isServer).length;
  for (const group of groups) {
    if (group.filter(isServer).length * 2 <= totalServers) names.push(...group);
  }
  return [...new Set(names)];
}

function label(ev: LabEvent): string {
  const description = str(ev['description']);
  const who = str(ev['contender']) ?? str(ev['server']) ?? '';
  switch (ev.event) {
    case 'contender-killed':
    case 'server-killed':
      return `kill ${who}${str(ev['signal']) ? ` (${str(ev['signal'])})` : ''}`;
    case 'contender-paused':
    case 'server-paused':
      return `pause ${who}`;
    case 'contender-stopped':
      return `stop ${who}`;
    case 'partition':
      return description ?? `partition ${partitionTargets(ev).join(' ')}`;
    case 'delay':
      return description ?? `delay ${str(ev['target']) ?? ''}`;
    default:
      return description ?? ev.event;
  }
}

/** When the fault stops: the matching resume / heal / restart, or `end` (the end of the history). */
export function faultEnd(ev: LabEvent, later: readonly LabEvent[], end: number): number {
  const who = str(ev['contender']) ?? str(ev['server']);
  const match = (e: LabEvent): boolean => {
    switch (ev.event) {
      case 'contender-killed':
      case 'contender-stopped':
        return false;
      case 'contender-paused':
        return (
          ['contender-resumed', 'contender-killed', 'contender-stopped'].includes(e.event) && e['contender'] === who
        );
      case 'server-paused':
        return ['server-resumed', 'server-killed'].includes(e.event) && e['server'] === who;
      case 'server-killed':
        return (
          (e.event === 'server-restarted' && strs(e['servers']).includes(who ?? '')) ||
          (e.event === 'server-started' && e['server'] === who)
        );
      case 'partition':
      case 'delay': {
        // A heal of the other kind (lifting partitions vs clearing delays) leaves this fault in place.
        const kind = str(e['kind']);
        if (e.event !== 'heal' || (kind !== undefined && kind !== ev.event)) return false;
        const target = str(e['target']);
        return target === undefined || target === 'all' || partitionTargets(ev).includes(target) || str(ev['target']) === target;
      }
      default:
        return false;
    }
  };
  if (ev.event === 'contender-killed' || ev.event === 'contender-stopped') return ev.t;
  return later.find(match)?.t ?? end;
}

/** The lab's faults as windows, in time order; `lab` must be sorted by time. */
export function faultWindows(lab: readonly LabEvent[], end: number): FaultWindow[] {
  const out: FaultWindow[] = [];
  lab.forEach((ev, i) => {
    if (!FAULT_KINDS.includes(ev.event)) return;
    const names =
      ev.event === 'partition' || ev.event === 'delay'
        ? [...partitionTargets(ev)]
        : [str(ev['contender']) ?? str(ev['server']) ?? ''].filter(Boolean);
    out.push({
      kind: ev.event as FaultKind,
      start: ev.t,
      end: faultEnd(ev, lab.slice(i + 1), end),
      label: label(ev),
      contenders: names.filter(isContender),
      servers: names.filter(isServer),
    });
  });
  return out;
}
