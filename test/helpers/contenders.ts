import { parseSpawnRequest, type RawSpawnArgs } from '../../src/contenders/options.js';
import { spawnContenders, listContenders, type ContenderInfo } from '../../src/contenders/service.js';
import { readEventFile } from '../../src/contenders/event-log.js';
import type { ContenderEvent } from '../../src/contenders/events.js';
import type { LabPaths } from '../../src/lab/paths.js';
import { readState } from '../../src/lab/state.js';
import { withObserver, leadingZnode } from '../../src/contenders/leader.js';
import { directConnectString } from '../../src/lab/state.js';

export async function spawn(paths: LabPaths, raw: Omit<RawSpawnArgs, 'count'> & { count: number }): Promise<readonly ContenderInfo[]> {
  return (await spawnContenders(paths, parseSpawnRequest(raw))).spawned;
}

export function events(paths: LabPaths, id: string): ContenderEvent[] {
  return readEventFile(paths.contenderEvents(id));
}

export function allEvents(paths: LabPaths): ContenderEvent[] {
  return readState(paths)!.contenders.flatMap((c) => events(paths, c.id)).sort((a, b) => a.t - b.t);
}

/** The contender ZooKeeper says leads: owner session of the leading znode, mapped through the contenders' logs. */
export async function zkLeaderContender(paths: LabPaths, path = '/election'): Promise<string | null> {
  const state = readState(paths)!;
  const lead = await withObserver(directConnectString(state), (zk) => leadingZnode(zk, path));
  if (!lead) return null;
  return listContenders(paths).find((c) => c.sessions.includes(lead.owner))?.id ?? null;
}

/** Leadership intervals from the logs: [claim, end) per contender and session; end = first leadership-ending event. */
export function leadershipIntervals(all: readonly ContenderEvent[], killedAt: ReadonlyMap<string, number> = new Map()): { id: string; session: string | null; start: number; end: number }[] {
  const out: { id: string; session: string | null; start: number; end: number }[] = [];
  const open = new Map<string, { session: string | null; start: number }>();
  for (const e of all) {
    if (e.event === 'leader' && !open.has(e.id)) open.set(e.id, { session: e.session, start: e.t });
    const ends = e.event === 'resigned' || e.event === 'expired' || e.event === 'stopped' || (e.event === 'paused' && e.wasLeader);
    if (ends && open.has(e.id)) {
      out.push({ id: e.id, ...open.get(e.id)!, end: e.t });
      open.delete(e.id);
    }
  }
  for (const [id, o] of open) out.push({ id, ...o, end: killedAt.get(id) ?? Number.POSITIVE_INFINITY });
  return out;
}
