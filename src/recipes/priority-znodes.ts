import { unlessGone } from '../zk/errors.js';
import type { Stat, ZkPort } from '../zk/port.js';
import type { CurrentView } from './priority-decisions.js';
import { READY } from './priority-layout.js';
import type { WatchSet } from './priority-watches.js';

/** leader/elected as read: the id it names and the version a conditional rewrite is made against. */
export interface ElectedRead {
  readonly id: string;
  readonly version: number;
}

export type CurrentRead = CurrentView & { readonly version: number };

/**
 * Reads a znode's data, arming an exists-watch through `watches` when given (it fires on creation, change and
 * deletion alike); null when the znode does not exist.
 */
async function readWatched(
  zk: ZkPort,
  watches: WatchSet | null,
  path: string,
): Promise<{ data: string; stat: Stat } | null> {
  if (!watches || watches.isArmed('exists', path)) {
    const read = await unlessGone(zk.getData(path));
    return read && { data: read.data.toString(), stat: read.stat };
  }
  // Both requests go out at once (one round trip). The server answers a session's requests in order, so the
  // exists reply is the truth at its point: a znode created between the two is reported by the watch instead.
  const [stat, read] = await Promise.all([
    watches ? watches.read('exists', path, (w) => zk.exists(path, w)) : zk.exists(path),
    unlessGone(zk.getData(path)),
  ]);
  return stat && read && { data: read.data.toString(), stat: read.stat };
}

export async function readElected(zk: ZkPort, watches: WatchSet | null, path: string): Promise<ElectedRead | null> {
  const read = await readWatched(zk, watches, path);
  return read && { id: read.data.trim(), version: read.stat.version };
}

export async function readCurrent(zk: ZkPort, watches: WatchSet | null, path: string): Promise<CurrentRead | null> {
  const read = await readWatched(zk, watches, path);
  return (
    read && {
      ownerSession: read.stat.ephemeralOwner,
      ready: read.data === READY,
      czxid: read.stat.czxid,
      version: read.stat.version,
    }
  );
}

/** Resolves once `path` is gone, or the session is (so a blocked caller can try again or give up). */
export function vanished(zk: ZkPort, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const off = zk.onState((s) => s === 'expired' && done());
    const done = (): void => {
      off();
      resolve();
    };
    zk.exists(path, (ev) => ev.type !== 'notwatching' && done()).then(
      (stat) => stat === null && done(),
      (e: unknown) => {
        off();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
