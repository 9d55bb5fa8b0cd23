import { ZkClient } from '../zk/client.js';
import type { ZkPort } from '../zk/port.js';
import { sortBySequence } from '../recipes/sequence.js';

/** Runs `fn` on a short-lived observer session (direct to the servers, never through link proxies), then closes it. */
export async function withObserver<T>(connect: string, fn: (zk: ZkPort) => Promise<T>, connectTimeoutMs = 5000): Promise<T> {
  const zk = await ZkClient.connect({ connect, sessionTimeoutMs: 10_000, connectTimeoutMs, quiet: true });
  try {
    return await fn(zk);
  } finally {
    await zk.close();
  }
}

export interface LeadingZnode {
  readonly znode: string;
  /** Owner session, normalized hex. */
  readonly owner: string;
  readonly layout: 'sequential' | 'single-file' | 'priority';
}

/**
 * Who leads at `path`, by ZooKeeper's own state: the owner of the lowest sequential child, of `leader` (single-file),
 * or of `leader/current` (priority). null when nobody does.
 */
export async function leadingZnode(zk: ZkPort, path: string): Promise<LeadingZnode | null> {
  const root = await zk.exists(path);
  if (!root) return null;
  const children = await zk.getChildren(path);
  if (children.includes('election') && children.includes('nodes')) {
    const current = await zk.exists(`${path}/leader/current`);
    return current ? { znode: `${path}/leader/current`, owner: current.ephemeralOwner, layout: 'priority' } : null;
  }
  const sequential = sortBySequence(children);
  for (const name of sequential) {
    const stat = await zk.exists(`${path}/${name}`);
    if (stat) return { znode: `${path}/${name}`, owner: stat.ephemeralOwner, layout: 'sequential' };
  }
  if (children.includes('leader')) {
    const stat = await zk.exists(`${path}/leader`);
    if (stat) return { znode: `${path}/leader`, owner: stat.ephemeralOwner, layout: 'single-file' };
  }
  return null;
}
