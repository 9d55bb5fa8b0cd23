import { normalizeSessionId } from '../zk/session-id.js';
import { basename, parentPath } from '../zk/paths.js';
import { electionLayout, pickLeader } from '../recipes/leadership.js';
import { schedulerLayout } from '../recipes/scheduler-layout.js';
import { compareSiblings, sequenceOf } from '../recipes/sequence.js';
import { isLockPath, lockNodeFacts, summarizeLock } from './lock-facts.js';
import { findProblems } from './problems.js';
import { isSchedulerRoot, schedulerNodeFacts, summarizeScheduler } from './scheduler-facts.js';
import type {
  AbsentContender,
  NodeState,
  Snapshot,
  SnapshotNode,
  SnapshotPartition,
  SnapshotServer,
} from './snapshot.js';
import { DEFAULT_MAX_EVENTS, latestEvents } from './snapshot-events.js';
import type { ContenderInput, ServerInput, SnapshotInput } from './snapshot-input.js';
import { childWatchCount, claimedChildWatches, compareLabels, mergeDataWatches } from './watches.js';
import { ownerSession, sessionLabel, shortData, statusOf, ttlFromStatus } from './znode-facts.js';

/** Merges the raw facts of one moment into the Snapshot every view renders. Pure. */
export function buildSnapshot(input: SnapshotInput): Snapshot {
  const root = input.path.length > 1 ? input.path.replace(/\/+$/, '') : input.path;
  const under = (p: string): boolean => p === root || p.startsWith(root === '/' ? '/' : `${root}/`);
  const byPath = new Map(input.znodes.filter((z) => under(z.path)).map((z) => [z.path, z] as const));
  const paths = new Set(byPath.keys());
  const exists = paths.has(root);
  const childrenOf = (dir: string): string[] | null =>
    paths.has(dir) ? [...paths].filter((p) => p !== dir && parentPath(p) === dir).map(basename) : null;
  const children = childrenOf(root);
  // A scheduler's root holds its election in election/; elsewhere the path is the election.
  const scheduler = isSchedulerRoot(root, children, input.schedulerRoots ?? []);
  const electionPath = scheduler ? schedulerLayout(root).election : root;
  const electionChildren = scheduler ? childrenOf(electionPath) : children;
  const leading = pickLeader(
    electionPath,
    electionChildren,
    (p) => (byPath.has(p) ? normalizeSessionId(byPath.get(p)!.stat.ephemeralOwner) : null),
    input.leaderRule,
  );
  const layout = electionLayout(electionChildren);
  const leaderAt = leading?.znode ?? null;
  const roles = scheduler ? schedulerNodeFacts(root, byPath) : null;
  const lockPath = !scheduler && isLockPath(root, input.lockPaths ?? []);

  const bySession = sessionOwners(input.contenders);
  const label = (session: string): string => bySession.get(session)?.id ?? sessionLabel(session);
  const dataWatches = mergeDataWatches(input.servers);
  const childClaims = claimedChildWatches(input.contenders);

  const rows = exists
    ? treeOrder(root, paths).map(({ path, depth }): SnapshotNode => {
        const z = byPath.get(path)!;
        const session = ownerSession(z.stat.ephemeralOwner);
        const contender = session === null ? undefined : bySession.get(session);
        const isLeader = path === leaderAt;
        const member = !scheduler || parentPath(path) === electionPath;
        // The root row shows where the election lives; below it the last segment says enough.
        const name = depth === 0 ? path : basename(path);
        return {
          name,
          path,
          depth,
          sequence: depth === 0 ? null : sequenceOf(name),
          czxid: z.stat.czxid,
          sessionId: session === null ? null : sessionLabel(session),
          ephemeral: session !== null,
          contender: contender?.id ?? null,
          pid: contender?.pid ?? null,
          recipe: contender?.recipe ?? null,
          leader: isLeader,
          state: nodeState(session, contender, isLeader, member),
          ageMs: Math.max(0, input.takenAt - z.stat.ctime),
          ttl: ttlFromStatus(z, statusOf(z), input.takenAt),
          scheduler: roles?.get(path) ?? null,
          lock: null,
          data: shortData(z.data),
          watchers: [...new Set([...(dataWatches.get(path) ?? [])].map(label))].sort(compareLabels),
          childWatchers: [...(childClaims.get(path) ?? [])].sort(compareLabels),
        };
      })
    : [];
  // A lock's facts need every member's owner and state first: who waits on whom is the row before it.
  const lock = lockPath
    ? summarizeLock(root, rows, {
        takenAt: input.takenAt,
        recipes: [...new Set(input.contenders.flatMap((c) => (c.recipe === null ? [] : [c.recipe])))].sort(),
        acquiredAt: (contender, token) =>
          input.contenders.find((c) => c.id === contender)?.acquired?.findLast((a) => a.token === token)?.t,
        resourceEvents: input.resourceEvents ?? [],
      })
    : null;
  const lockRoles = lock ? lockNodeFacts(lock) : null;
  const nodes = lockRoles
    ? rows.map((n) => (lockRoles.has(n.path) ? { ...n, lock: lockRoles.get(n.path)! } : n))
    : rows;

  const partitions = input.partitions ?? [];
  const serverNames = new Set(input.servers.map((s) => s.name));
  const servers = input.servers.map((s) => toServer(s, partitions, serverNames));
  return {
    path: root,
    takenAt: input.takenAt,
    exists,
    layout,
    scheduler: scheduler ? summarizeScheduler(root, nodes) : null,
    lock,
    nodes,
    servers,
    events: latestEvents(input.events ?? [], input.maxEvents ?? DEFAULT_MAX_EVENTS),
    partitions,
    nodeFaults: input.nodeFaults ?? [],
    absent: absentContenders(input.contenders, nodes, partitions),
    acting: input.contenders.flatMap((c) => (c.probed === undefined ? [] : [{ id: c.id, leads: c.probed }])),
    problems: findProblems({
      path: root,
      electionPath,
      exists,
      layout,
      nodes,
      contenders: input.contenders,
      servers,
      treeReadAt: input.treeReadAt,
    }),
  };
}

/** The running contenders that own no znode shown, and why, as far as the lab knows. */
function absentContenders(
  contenders: readonly ContenderInput[],
  nodes: readonly SnapshotNode[],
  partitions: readonly SnapshotPartition[],
): AbsentContender[] {
  const owners = new Set(nodes.flatMap((n) => (n.contender ? [n.contender] : [])));
  return contenders
    .filter((c) => (c.alive || (c.node ?? 0) > 0) && !owners.has(c.id))
    .map((c) => ({
      id: c.id,
      pid: c.pid,
      why: !c.alive
        ? 'program dead'
        : c.paused
          ? 'paused'
          : partitions.some((p) => p.from === c.id && (p.fault === 'partition' || p.fault === 'reject'))
            ? 'cut off'
            : c.state === 'expired'
              ? 'session expired'
              : 'no znode yet',
    }));
}

/** Session → contender, over past sessions too; a current session wins over someone's past one. */
function sessionOwners(contenders: readonly ContenderInput[]): Map<string, ContenderInput> {
  const out = new Map<string, ContenderInput>();
  for (const c of contenders) for (const s of c.pastSessionIds ?? []) out.set(normalizeSessionId(s), c);
  for (const c of contenders) if (c.sessionId) out.set(normalizeSessionId(c.sessionId), c);
  return out;
}

/** member: the znode takes part in the election (outside a scheduler's root, every znode does). */
function nodeState(
  session: string | null,
  contender: ContenderInput | undefined,
  isLeader: boolean,
  member: boolean,
): NodeState {
  if (session === null) return 'unknown';
  if (!contender) return 'foreign';
  const current = contender.sessionId === null ? null : normalizeSessionId(contender.sessionId);
  if (!contender.alive || current !== session || contender.state === 'expired' || contender.state === 'stopped') {
    return 'expired';
  }
  if (contender.paused || contender.state === 'paused') return 'paused';
  if (!member) return 'alive';
  return isLeader ? 'leader' : 'follower';
}

/** Depth-first from the root, siblings in election order. A znode whose parent is missing hangs off its nearest listed ancestor. */
function treeOrder(root: string, paths: ReadonlySet<string>): { path: string; depth: number }[] {
  const children = new Map<string, string[]>();
  for (const p of paths) {
    if (p === root) continue;
    let parent = parentPath(p);
    while (!paths.has(parent) && parent !== root && parent !== '/') parent = parentPath(parent);
    const list = children.get(parent);
    if (list) list.push(p);
    else children.set(parent, [p]);
  }
  const rootDepth = root === '/' ? 0 : root.split('/').length - 1;
  const out: { path: string; depth: number }[] = [];
  const visit = (p: string): void => {
    out.push({ path: p, depth: p === root ? 0 : p.split('/').length - 1 - rootDepth });
    const kids = children.get(p) ?? [];
    kids.sort((a, b) => compareSiblings(basename(a), basename(b)));
    for (const k of kids) visit(k);
  };
  visit(root);
  return out;
}

/** Only faults between servers mark a server: an isolated contender cuts its links to every server, not theirs. */
function toServer(
  s: ServerInput,
  partitions: readonly SnapshotPartition[],
  serverNames: ReadonlySet<string>,
): SnapshotServer {
  const touching = partitions.filter(
    (p) => (p.from === s.name && serverNames.has(p.to)) || (p.to === s.name && serverNames.has(p.from)),
  );
  return {
    name: s.name,
    mode: s.paused ? 'paused' : s.srvr.mode,
    zxid: s.srvr.zxid ?? null,
    connections: s.srvr.connections ?? null,
    partitioned: touching.some((p) => p.fault === 'partition' || p.fault === 'reject'),
    delayMs: Math.max(0, ...touching.map((p) => (p.fault === 'delay' ? (p.delayMs ?? 0) : 0))),
    childWatches: childWatchCount(s),
  };
}
