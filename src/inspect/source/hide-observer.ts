import { normalizeSessionId } from '../../zk/session-id.js';
import type { ServerInput } from '../snapshot-input.js';
import type { MirrorWatchCounts } from './znode-mirror.js';

/**
 * The servers' answers as if inspect were not looking: its own session taken out of wchp and wchc, and its
 * watches out of zk_watch_count on the server it is connected to (the one whose wchc lists it; the mirror always
 * holds a data watch on the election path, so that server can be told). Pure.
 */
export function withoutObserver(
  servers: readonly ServerInput[],
  session: string | null,
  own: MirrorWatchCounts,
): ServerInput[] {
  if (!session) return [...servers];
  const me = normalizeSessionId(session);
  return servers.map((s) => {
    const mine =
      s.wchc?.get(me) ?? [...(s.wchp ?? [])].filter(([, sessions]) => sessions.includes(me)).map(([path]) => path);
    if (mine.length === 0) return s;
    const wchp =
      s.wchp &&
      new Map(
        [...s.wchp]
          .map(([path, sessions]) => [path, sessions.filter((x) => x !== me)] as const)
          .filter(([, sessions]) => sessions.length > 0),
      );
    const wchc = s.wchc && new Map([...s.wchc].filter(([session]) => session !== me));
    const total = s.mntr?.get('zk_watch_count');
    let mntr = s.mntr;
    if (mntr && typeof total === 'number') {
      const copy = new Map(mntr);
      copy.set('zk_watch_count', Math.max(0, total - mine.length - own.child));
      mntr = copy;
    }
    return { ...s, wchp, wchc, mntr };
  });
}
