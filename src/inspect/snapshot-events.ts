import type { ContenderEvent } from '../lab/events.js';
import type { LabLine } from '../faults/kinds/registry.js';
import { basename } from '../zk/paths.js';
import type { SnapshotEvent } from './snapshot.js';
import { sessionLabel } from './znode-facts.js';

export const DEFAULT_MAX_EVENTS = 50;

const CONTENDER_HEADER_FIELDS = new Set(['t', 'id', 'pid', 'session', 'znode', 'event']);
const LAB_HEADER_FIELDS = new Set(['t', 'source', 'event']);

function isLabLine(e: ContenderEvent | LabLine): e is LabLine {
  return 'source' in e;
}

function formatValue(v: unknown): string {
  // Long znode paths shrink to their last segment, which is what tells contenders' znodes apart.
  if (typeof v === 'string') return v.startsWith('/') && v.length > 24 ? basename(v) : v;
  return JSON.stringify(v) ?? String(v);
}

function detailOf(e: object, skip: ReadonlySet<string>): string[] {
  return Object.entries(e)
    .filter(([k, v]) => !skip.has(k) && v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${formatValue(v)}`);
}

export function toSnapshotEvent(e: ContenderEvent | LabLine): SnapshotEvent {
  if (isLabLine(e)) return { t: e.t, who: 'lab', event: e.event, detail: detailOf(e, LAB_HEADER_FIELDS).join(' ') };
  const head: string[] = [];
  // The own znode and session repeat on every line; show them where they are the news.
  if (e.event === 'joined' && e.znode) head.push(`znode=${basename(e.znode)}`);
  if (e.event === 'connected' && e.session) head.push(`session=${sessionLabel(e.session)}`);
  return { t: e.t, who: e.id, event: e.event, detail: [...head, ...detailOf(e, CONTENDER_HEADER_FIELDS)].join(' ') };
}

/** The latest max events, oldest first. */
export function latestEvents(events: readonly (ContenderEvent | LabLine)[], max = DEFAULT_MAX_EVENTS): SnapshotEvent[] {
  if (max <= 0) return [];
  return [...events]
    .sort((a, b) => a.t - b.t)
    .slice(-max)
    .map(toSnapshotEvent);
}
