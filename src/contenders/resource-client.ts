import type { LabPaths } from '../lab/paths.js';
import { NetControl } from '../net/control.js';
import type { ResourcePort } from '../recipes/types.js';

/**
 * A lock holder's line to the protected resource of `name` on the lab's daemon: one connection, made when first
 * needed and again after it breaks. Its own socket, not the contender's ZooKeeper links: a frozen holder's late
 * write reaches the resource as it would in a real system.
 */
export function resourceClient(paths: LabPaths, name: string, holder: string): ResourcePort {
  let conn: Promise<NetControl> | null = null;
  const call = async <T>(fn: (ctl: NetControl) => Promise<T>): Promise<T> => {
    conn ??= NetControl.connect(paths.controlSocket);
    const pending = conn;
    try {
      return await fn(await pending);
    } catch (e) {
      if (conn === pending) conn = null;
      void pending.then(
        (c) => c.close(),
        () => undefined,
      );
      throw e;
    }
  };
  // Once more on a fresh connection when the first try fails: the daemon may have been restarted since the last
  // request (`ensemble up` repairs it). A write sent twice is the same write: same token, same value.
  const twice = async <T>(fn: (ctl: NetControl) => Promise<T>): Promise<T> => {
    try {
      return await call(fn);
    } catch {
      return call(fn);
    }
  };
  return {
    read: (token) => twice(async (ctl) => (await ctl.request({ op: 'resource-read', name, holder, token })).state),
    write: (token, value) => twice((ctl) => ctl.request({ op: 'resource-write', name, holder, token, value })),
  };
}
