import { normalizeSessionId } from '../zk/session-id.js';
import type { ContenderInput, ServerInput } from './snapshot-input.js';

/**
 * Data watches by path, merged across servers (each server only knows the sessions connected to it) and across
 * wchp and wchc (the same watches listed by path and by session); session ids normalized and deduplicated.
 */
export function mergeDataWatches(servers: readonly ServerInput[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (path: string, session: string): void => {
    let set = out.get(path);
    if (!set) {
      set = new Set();
      out.set(path, set);
    }
    set.add(normalizeSessionId(session));
  };
  for (const s of servers) {
    for (const [path, sessions] of s.wchp ?? []) for (const session of sessions) add(path, session);
    for (const [session, paths] of s.wchc ?? []) for (const path of paths) add(path, session);
  }
  return out;
}

/** Data watches one server holds: the number wchs would total. */
export function dataWatchCount(server: ServerInput): number | null {
  if (server.wchp) {
    let n = 0;
    for (const sessions of server.wchp.values()) n += sessions.length;
    return n;
  }
  if (server.wchc) {
    let n = 0;
    for (const paths of server.wchc.values()) n += paths.length;
    return n;
  }
  return null;
}

/** zk_watch_count counts data and child watches; 4lw lists only data watches, so the difference is child watches. */
export function childWatchCount(server: ServerInput): number | null {
  const total = server.mntr?.get('zk_watch_count');
  const data = dataWatchCount(server);
  if (typeof total !== 'number' || data === null) return null;
  return Math.max(0, total - data);
}

/** Child watches by path as the contenders report them; only contenders whose session can still hold a watch. */
export function claimedChildWatches(contenders: readonly ContenderInput[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of contenders) {
    if (!c.alive || c.state === 'expired' || c.state === 'stopped') continue;
    for (const path of new Set(c.childWatches ?? [])) {
      const list = out.get(path);
      if (list) list.push(c.id);
      else out.set(path, [c.id]);
    }
  }
  return out;
}

/** "c2" < "c10" < "0xbeef": contender ids in a human order, then sessions no contender owns. */
export function compareLabels(a: string, b: string): number {
  const sa = a.startsWith('0x');
  if (sa !== b.startsWith('0x')) return sa ? 1 : -1;
  return a.localeCompare(b, 'en', { numeric: true });
}
