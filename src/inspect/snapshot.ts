import type { ElectionLayout } from '../recipes/leadership.js';
import type { JobSpec } from '../recipes/scheduler-layout.js';
import type { ResourceState } from '../lab/fenced-resource.js';
import type { LinkView, NodeView } from '../faults/kinds/kind.js';
/**
 * What `zklab inspect --json` prints and what every inspect view renders: one moment of an election as ZooKeeper
 * (znodes, watches, 4lw probes) and the lab (contenders, faults, event logs) saw it. Built by buildSnapshot.
 */

/**
 * leader / follower: an ephemeral znode of a live, running contender whose current session owns it.
 * paused: its contender is stopped (SIGSTOP by the lab) or reports a disconnect.
 * expired: its owner is gone (process dead, or the contender moved on to a new session); the znode lingers until
 * the server expires the old session.
 * alive: in a scheduler's view, an ephemeral of a live contender outside the election (a worker's registration),
 * where leader and follower would be read as the election's words.
 * foreign: an ephemeral of a session no contender of the lab owns (another client); `leader` still marks it if it
 * leads.
 * unknown: znodes no session owns (persistent, TTL or container: a client is not told which).
 */
export type NodeState = 'leader' | 'follower' | 'alive' | 'paused' | 'expired' | 'foreign' | 'unknown';

/** A TTL the lab knows from data it wrote itself (ZooKeeper shows clients no TTL: ephemeralOwner is 0). */
export interface ZnodeTtl {
  /** The TTL the writer asked for. */
  readonly ms: number;
  /** Until ZooKeeper may reap it, counted from the last change; negative once due (its reaper runs periodically). */
  readonly remainingMs: number;
  /** status-data: a scheduler worker's status of the job, which carries the TTL it created the znode with. */
  readonly source: 'status-data';
}

/** The scheduler's own znodes: its root, its folders and the rotation counter. */
export type SchedulerFolder = 'root' | 'election' | 'workers' | 'jobs' | 'assignments' | 'status' | 'rotation';

/** What a znode is to the task scheduler whose root is inspected; read from its place and its data. */
export type SchedulerNodeFacts =
  | { readonly role: SchedulerFolder }
  /** workers/<worker>: registered while its session lives. */
  | { readonly role: 'worker'; readonly worker: string; readonly contender: string | null }
  /** jobs/<job>: waiting for the leader to assign it. Null fields: the data is no job this scheduler wrote. */
  | { readonly role: 'queued'; readonly job: string; readonly attempt: number | null; readonly spec: JobSpec | null }
  /** assignments/<worker>: that worker's queue, which outlives it until the leader takes its jobs back. */
  | { readonly role: 'worker-queue'; readonly worker: string; readonly registered: boolean; readonly assigned: number }
  | {
      readonly role: 'assignment';
      readonly job: string;
      readonly worker: string;
      readonly attempt: number | null;
      readonly spec: JobSpec | null;
    }
  /** status/<job>: finished. Null fields: the data is not a worker's status (then no TTL is known either). */
  | {
      readonly role: 'done';
      readonly job: string;
      readonly worker: string | null;
      readonly attempt: number | null;
      readonly ok: boolean | null;
      readonly result: number | null;
      readonly error: string | null;
    };

export interface SchedulerWorker {
  readonly worker: string;
  /** By the worker's name ("c2-1" → "c2"). */
  readonly contender: string | null;
  /** Its znode is in workers/. */
  readonly registered: boolean;
  /** Registered, and its session is not known to be a dead or replaced one. */
  readonly alive: boolean;
  /** The worker znode's state; null when it is not registered. */
  readonly state: NodeState | null;
  /** Its assignments, in job order. */
  readonly assignments: readonly { readonly job: string; readonly attempt: number | null }[];
}

/** The task scheduler at a glance: where every job is, by ZooKeeper's znodes. */
export interface SchedulerSummary {
  readonly root: string;
  /** Who owns the leading election znode, the one that assigns jobs: contender, else session. */
  readonly leader: string | null;
  /** Registered workers, then workers whose queue outlives them. */
  readonly workers: readonly SchedulerWorker[];
  readonly queued: number;
  /** The first few queued jobs, oldest first. */
  readonly nextQueued: readonly string[];
  readonly assigned: number;
  /** Status znodes. */
  readonly done: number;
  readonly ok: number;
  readonly failed: number;
  /** Status znodes whose data is no worker's status: their TTL is unknown. */
  readonly unreadable: number;
  /** The status TTL to run out first (negative: due), from the status data; null when none is known. */
  readonly nextExpiryMs: number | null;
}

/**
 * How a waiter of a lock waits, by its recipe: predecessor watches the znode just before its own (exists), herd the
 * lock path's children (every waiter wakes on every change). unknown: not a lab contender's znode, so no recipe says.
 */
export type LockWait =
  | { readonly kind: 'predecessor'; readonly znode: string; readonly owner: string | null; readonly state: NodeState }
  | { readonly kind: 'children' }
  | { readonly kind: 'unknown' };

/** What a znode is to the lock whose path is inspected: its lowest member holds it, the others wait. */
export type LockNodeFacts =
  | { readonly role: 'holder'; readonly token: number }
  | { readonly role: 'waiter'; readonly waitsOn: LockWait };

/** A member of a lock's queue: an ephemeral-sequential znode directly under the lock path. */
export interface LockQueueEntry {
  /** Its name under the lock path. */
  readonly znode: string;
  readonly sequence: number;
  readonly contender: string | null;
  readonly session: string | null;
  readonly state: NodeState;
  /** Null for the holder. */
  readonly waitsOn: LockWait | null;
}

export interface LockHolder {
  readonly znode: string;
  readonly contender: string | null;
  readonly session: string | null;
  /** Its fencing token: the holder znode's czxid. */
  readonly token: number;
  /**
   * When it acquired the lock (its own lock-acquired line for this token; the znode was made earlier, when it joined
   * the queue), and how long before the snapshot that was; null until its line is read, or for a holder not the lab's.
   */
  readonly since: number | null;
  readonly heldMs: number | null;
  readonly state: NodeState;
}

/** One decision of the protected resource, as the lab's event log recorded it. */
export interface LockWrite {
  readonly t: number;
  readonly holder: string;
  readonly token: number;
  readonly value: number;
  /** The highest token the resource had accepted before this write. */
  readonly lastToken: number;
  readonly previousValue: number;
}

/** The lock's protected resource (a register the lab's daemon serves), from the lab's resource events. */
export interface LockResource {
  /** The register replayed from the log (src/lab/fenced-resource.ts); null until the lab has set it up. */
  readonly state: ResourceState | null;
  readonly lastAccepted: LockWrite | null;
  readonly lastRefused: LockWrite | null;
  /** Writes accepted with a token below the highest accepted before them: lost updates, let through without fencing. */
  readonly staleAccepted: number;
  readonly lastStale: LockWrite | null;
}

/** A lock at a glance: who holds it by ZooKeeper's znodes, who waits on what, and what its resource decided. */
export interface LockSummary {
  readonly path: string;
  /** The recipes of the lab's contenders of this lock (predecessor, herd), sorted. */
  readonly recipes: readonly string[];
  readonly holder: LockHolder | null;
  /** Every member in sequence order, the holder first when it is the lowest. */
  readonly queue: readonly LockQueueEntry[];
  readonly resource: LockResource;
}

export interface SnapshotNode {
  /** Last path segment. */
  readonly name: string;
  readonly path: string;
  /** 0 for the election path itself, 1 for its children, 2 for e.g. leader/current. */
  readonly depth: number;
  /** The numeric suffix after the last `_` or `-` ("…-n_0000000003" → 3), or null. */
  readonly sequence: number | null;
  /** Creating zxid: the fencing token contenders report with `leader`. */
  readonly czxid: number;
  /** Owner session "0x…" of an ephemeral znode; null when no session owns it. */
  readonly sessionId: string | null;
  readonly ephemeral: boolean;
  /** "c3" when the owner session is (or was) a zklab contender's, null otherwise. */
  readonly contender: string | null;
  readonly pid: number | null;
  readonly recipe: string | null;
  /** Decided from ZooKeeper's facts (sequence order, ownership), never from what contenders claim. */
  readonly leader: boolean;
  readonly state: NodeState;
  readonly ageMs: number;
  /** Only where the lab's own data tells it (a scheduler worker's status), never guessed from the stat. */
  readonly ttl: ZnodeTtl | null;
  /** Its part in the task scheduler when a scheduler's root is inspected, else null. */
  readonly scheduler: SchedulerNodeFacts | null;
  /** Its part in the lock when a lock path of the lab is inspected, else null. */
  readonly lock: LockNodeFacts | null;
  /** The znode's data, shortened (e.g. PROGRESS / READY for leader/current, the elected id for leader/elected). */
  readonly data: string;
  /** Who holds a data watch (exists, getData) on this znode, from the servers' wchp/wchc: "c4", or "0x…". */
  readonly watchers: readonly string[];
  /**
   * Who holds a child watch (getChildren) on this znode: a herd when several. ZooKeeper lists no child watches per
   * path, so these come from the contenders' own `watching` events; SnapshotServer.childWatches is the cross-check.
   */
  readonly childWatchers: readonly string[];
}

export type SnapshotServerMode = 'leader' | 'follower' | 'observer' | 'standalone' | 'not-serving' | 'down' | 'paused';

export interface SnapshotServer {
  readonly name: string;
  readonly mode: SnapshotServerMode;
  readonly zxid: string | null;
  readonly connections: number | null;
  /** A partition or reject fault touches one of its links. */
  readonly partitioned: boolean;
  /** The largest delay on any of its links, 0 when none. */
  readonly delayMs: number;
  /** mntr's zk_watch_count minus this server's data watches (wchp): the child watches it holds, or null. */
  readonly childWatches: number | null;
}

/**
 * One directed link fault of the lab network. partition: silence, sockets stay open; reject: connections reset;
 * delay; or a fault kind's own (src/faults/kinds/), which says how it reads.
 */
export type SnapshotPartition = LinkView;

/** A fault on one node, as its kind words it (`clock +30s`). */
export type SnapshotNodeFault = NodeView;

export interface SnapshotEvent {
  /** Wall-clock ms. */
  readonly t: number;
  /** Contender id, or "lab". */
  readonly who: string;
  readonly event: string;
  /** The event's other fields as "key=value" pairs. */
  readonly detail: string;
}

export interface Snapshot {
  readonly path: string;
  /** Wall-clock ms; ageMs and ttl.remainingMs are relative to it. */
  readonly takenAt: number;
  readonly exists: boolean;
  /** Of the election: for a scheduler's root, of its election/ folder. */
  readonly layout: ElectionLayout;
  /** Set when the path is a task scheduler's root (election/, workers/ and jobs/ below it, or the lab says so). */
  readonly scheduler: SchedulerSummary | null;
  /** Set when the path is a lock of the lab's lock contenders. */
  readonly lock: LockSummary | null;
  /** The election path first, then depth-first, siblings by sequence (non-sequential names first, by name). */
  readonly nodes: readonly SnapshotNode[];
  readonly servers: readonly SnapshotServer[];
  /** Oldest first. */
  readonly events: readonly SnapshotEvent[];
  readonly partitions: readonly SnapshotPartition[];
  /** Faults the kinds keep on nodes rather than links (a faked clock), one per node and kind. */
  readonly nodeFaults?: readonly SnapshotNodeFault[];
  /**
   * Running contenders of this election that own no znode of it now: their session expired while they were paused
   * or cut off, or they are between sessions. Shown below the tree, so that a key can still act on them.
   */
  readonly absent: readonly AbsentContender[];
  /** What each contender's probe says now (its node's data plane: acts as the leader, does not, unknown). */
  readonly acting: readonly { readonly id: string; readonly leads: boolean | null }[];
  /** Inconsistencies worth a human's attention, e.g. a contender that believes it leads but owns no leader znode. */
  readonly problems: readonly string[];
}

export interface AbsentContender {
  readonly id: string;
  readonly pid: number | null;
  /**
   * paused: the lab stopped it; cut off: a partition isolates it; expired / joining: by its own log; program dead:
   * what it started lives on in its node.
   */
  readonly why: 'paused' | 'cut off' | 'session expired' | 'no znode yet' | 'program dead';
}

export function leaderNode(snapshot: Pick<Snapshot, 'nodes'>): SnapshotNode | undefined {
  return snapshot.nodes.find((n) => n.leader);
}
