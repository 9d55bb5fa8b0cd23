import { type ContenderSpecInput, requireContenderSpec } from '../../src/contenders/spec.js';
import { spawnContenders, type ContenderInfo } from '../../src/contenders/service.js';
import { readEventFile } from '../../src/lab/event-log.js';
import type { ContenderEvent } from '../../src/lab/events.js';
import type { LabPaths } from '../../src/lab/paths.js';
import { readState } from '../../src/lab/state.js';
import { directConnectString } from '../../src/lab/state.js';
import { ZkClient } from '../../src/zk/client.js';
import { bySequence, sessionKey } from './zk-raw.js';

export async function spawn(
  paths: LabPaths,
  raw: Omit<ContenderSpecInput, 'count'> & { count: number },
): Promise<readonly ContenderInfo[]> {
  return (await spawnContenders(paths, requireContenderSpec(raw))).spawned;
}

export function events(paths: LabPaths, id: string): ContenderEvent[] {
  return readEventFile(paths.contenderEvents(id));
}

export function allEvents(paths: LabPaths): ContenderEvent[] {
  return readState(paths)!
    .contenders.flatMap((c) => events(paths, c.id))
    .sort((a, b) => a.t - b.t);
}

/** A znode's data and owner session, read in one request; null when it is gone (it may vanish after a listing). */
async function readZnode(zk: ZkClient, znode: string): Promise<{ data: string; owner: string } | null> {
  try {
    const { data, stat } = await zk.getData(znode);
    return { data: data.toString('utf8'), owner: sessionKey(stat.ephemeralOwner) };
  } catch (e) {
    if (await zk.exists(znode)) throw e;
    return null;
  }
}

/**
 * The contender id a contender stores as its znode's data: {"id":"c3",…} (zklab's recipes, the tests' programs), or
 * the bare id (Curator's LeaderLatch id, kazoo's Election identifier).
 */
function idInData(znode: string, data: string): string {
  if (/^c\d+$/.test(data)) return data;
  let id: unknown;
  try {
    id = (JSON.parse(data) as { id?: unknown }).id;
  } catch {
    // not JSON: reported below
  }
  if (typeof id !== 'string')
    throw new Error(`${znode} leads, but its data names no contender: ${JSON.stringify(data)}`);
  return id;
}

/**
 * The contender ZooKeeper says leads at `path`, from ZooKeeper's own znodes alone (this helper checks the
 * production leadership code, so it must not call it):
 * - priority recipe (the path has `nodes` or `election`): the owner session of `<path>/leader/current`, mapped to
 *   the `<path>/nodes/<contenderId>` znode the same session owns;
 * - else the child with the lowest 10-digit sequence suffix that still exists; its data names the contender;
 * - else an ephemeral `<path>/leader` (single-file); its data names the contender.
 * null when nobody leads. Throws when a leading znode cannot be traced to a contender.
 */
export async function zkLeaderContender(paths: LabPaths, path = '/election'): Promise<string | null> {
  const zk = await ZkClient.connect({
    connect: directConnectString(readState(paths)!),
    sessionTimeoutMs: 10_000,
    connectTimeoutMs: 5000,
    quiet: true,
  });
  try {
    if (!(await zk.exists(path))) return null;
    const children = await zk.getChildren(path);

    if (children.includes('nodes') || children.includes('election')) {
      const current = await readZnode(zk, `${path}/leader/current`);
      if (!current || current.owner === '0') return null;
      const members = (await zk.exists(`${path}/nodes`)) ? await zk.getChildren(`${path}/nodes`) : [];
      for (const id of members) {
        const stat = await zk.exists(`${path}/nodes/${id}`);
        if (stat && sessionKey(stat.ephemeralOwner) === current.owner) return id;
      }
      throw new Error(`${path}/leader/current belongs to session 0x${current.owner}, which owns no ${path}/nodes/<id>`);
    }

    const sequential = bySequence(children);
    if (sequential.length > 0) {
      for (const name of sequential) {
        const node = await readZnode(zk, `${path}/${name}`);
        if (node) return idInData(`${path}/${name}`, node.data);
      }
      return null;
    }

    if (!children.includes('leader')) return null;
    const leader = await readZnode(zk, `${path}/leader`);
    if (!leader || leader.owner === '0') return null;
    return idInData(`${path}/leader`, leader.data);
  } finally {
    await zk.close();
  }
}

/**
 * Each contender's znodes under `path` and the session that owns them, by ZooKeeper's own word: the znode's data
 * names the contender (see idInData), its ephemeralOwner is the session. Independent of zklab's session mapping.
 */
export async function zkMembers(paths: LabPaths, path: string): Promise<Map<string, { znode: string; owner: string }>> {
  const zk = await ZkClient.connect({
    connect: directConnectString(readState(paths)!),
    sessionTimeoutMs: 10_000,
    connectTimeoutMs: 5000,
    quiet: true,
  });
  try {
    const out = new Map<string, { znode: string; owner: string }>();
    for (const name of (await zk.exists(path)) ? await zk.getChildren(path) : []) {
      const node = await readZnode(zk, `${path}/${name}`);
      if (node && node.owner !== '0')
        out.set(idInData(`${path}/${name}`, node.data), { znode: `${path}/${name}`, owner: node.owner });
    }
    return out;
  } finally {
    await zk.close();
  }
}
