import type { LabEventOf } from '../lab/events.js';
import { replayResources } from '../lab/fenced-resource.js';
import { childPath } from '../zk/paths.js';
import type {
  LockHolder,
  LockNodeFacts,
  LockQueueEntry,
  LockResource,
  LockSummary,
  LockWait,
  LockWrite,
  SnapshotNode,
} from './snapshot.js';

/**
 * The lock workload as inspect sees it. Its znodes are the election recipes' own (`<guid>-n_<seq>` directly under the
 * lock path): the lowest live one holds the lock, the others wait in sequence order, each as its recipe waits. The
 * protected resource is no znode: the lab's event log is its record. Pure.
 */

export type ResourceEvent = LabEventOf<'resource-configured' | 'resource-read' | 'resource-write'>;

export interface LockInputs {
  readonly takenAt: number;
  /** The recipes of the lab's contenders of this path, for a member whose owner says none. */
  readonly recipes: readonly string[];
  /** In log order; other resources' events are ignored. */
  readonly resourceEvents: readonly ResourceEvent[];
  /** When a contender logged that it acquired the lock with this token, if it has. */
  readonly acquiredAt?: (contender: string, token: number) => number | undefined;
}

/** A lock path: one the lab's lock contenders loop on (its znodes alone look like any sequential election). */
export function isLockPath(path: string, labLockPaths: readonly string[]): boolean {
  return labLockPaths.includes(path);
}

function waitOf(recipe: string | null, before: SnapshotNode | undefined): LockWait {
  if (recipe === 'herd') return { kind: 'children' };
  if (recipe === 'predecessor' && before)
    return {
      kind: 'predecessor',
      znode: before.name,
      owner: before.contender ?? before.sessionId,
      state: before.state,
    };
  return { kind: 'unknown' };
}

/** The lock at `path`, from the snapshot's nodes (tree order: siblings by sequence) and the lab's resource events. */
export function summarizeLock(path: string, nodes: readonly SnapshotNode[], inputs: LockInputs): LockSummary {
  const members = nodes.filter((n) => n.depth === 1 && n.sequence !== null);
  const holding = members.find((n) => n.leader);
  // One recipe among the lab's contenders stands for members whose owner is not known to say its own.
  const fallback = inputs.recipes.length === 1 ? inputs.recipes[0]! : null;
  const queue = members.map(
    (n, i): LockQueueEntry => ({
      znode: n.name,
      sequence: n.sequence!,
      contender: n.contender,
      session: n.sessionId,
      state: n.state,
      waitsOn: n === holding ? null : waitOf(n.recipe ?? (n.contender === null ? null : fallback), members[i - 1]),
    }),
  );
  const since = holding?.contender ? inputs.acquiredAt?.(holding.contender, holding.czxid) : undefined;
  const holder: LockHolder | null = holding
    ? {
        znode: holding.name,
        contender: holding.contender,
        session: holding.sessionId,
        token: holding.czxid,
        since: since ?? null,
        heldMs: since === undefined ? null : Math.max(0, inputs.takenAt - since),
        state: holding.state,
      }
    : null;
  return { path, recipes: inputs.recipes, holder, queue, resource: lockResource(path, inputs.resourceEvents) };
}

/** Each member's part, by znode path. */
export function lockNodeFacts(lock: LockSummary): Map<string, LockNodeFacts> {
  const out = new Map<string, LockNodeFacts>();
  for (const q of lock.queue) {
    const path = childPath(lock.path, q.znode);
    if (lock.holder && q.znode === lock.holder.znode) out.set(path, { role: 'holder', token: lock.holder.token });
    else if (q.waitsOn) out.set(path, { role: 'waiter', waitsOn: q.waitsOn });
  }
  return out;
}

/** What the protected resource of `resource` decided, by the lab's own record of every configuration and write. */
export function lockResource(resource: string, events: readonly ResourceEvent[]): LockResource {
  const mine = events.filter((e) => e.resource === resource);
  let lastAccepted: LockWrite | null = null;
  let lastRefused: LockWrite | null = null;
  let lastStale: LockWrite | null = null;
  let staleAccepted = 0;
  for (const e of mine) {
    if (e.event !== 'resource-write') continue;
    const w: LockWrite = {
      t: e.t,
      holder: e.holder,
      token: e.token,
      value: e.value,
      lastToken: e.lastToken,
      previousValue: e.previousValue,
    };
    if (!e.accepted) {
      lastRefused = w;
      continue;
    }
    lastAccepted = w;
    if (e.token < e.lastToken) {
      staleAccepted++;
      lastStale = w;
    }
  }
  return { state: replayResources(mine).get(resource) ?? null, lastAccepted, lastRefused, staleAccepted, lastStale };
}
