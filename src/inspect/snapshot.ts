import type { ElectionLayout } from '../recipes/leadership.js';
/**
 * What `zklab inspect --json` prints and what every inspect view renders: one moment of an election as ZooKeeper
 * (znodes, watches, 4lw probes) and the lab (contenders, faults, event logs) saw it. Built by buildSnapshot.
 */

/**
 * leader / follower: an ephemeral znode of a live, running contender whose current session owns it.
 * paused: its contender is stopped (SIGSTOP by the lab) or reports a disconnect.
 * expired: its owner is gone (process dead, or the contender moved on to a new session); the znode lingers until
 * the server expires the old session.
 * foreign: an ephemeral of a session no contender of the lab owns (another client); `leader` still marks it if it
 * leads.
 * unknown: persistent znodes.
 */
export type NodeState = 'leader' | 'follower' | 'paused' | 'expired' | 'foreign' | 'unknown';


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
  /** Owner session "0x…" of an ephemeral znode, null for persistent, TTL and container znodes. */
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
  /** TTL znodes only; negative once due (the server reaps them on its container check interval). */
  readonly ttlRemainingMs: number | null;
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

/** One directed link fault of the lab network. partition: silence, sockets stay open; reject: connections reset. */
export interface SnapshotPartition {
  readonly from: string;
  readonly to: string;
  readonly fault: 'partition' | 'reject' | 'delay' | 'loss';
  readonly delayMs?: number;
  readonly lossPercent?: number;
}

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
  /** Wall-clock ms; ageMs and ttlRemainingMs are relative to it. */
  readonly takenAt: number;
  readonly exists: boolean;
  readonly layout: ElectionLayout;
  /** The election path first, then depth-first, siblings by sequence (non-sequential names first, by name). */
  readonly nodes: readonly SnapshotNode[];
  readonly servers: readonly SnapshotServer[];
  /** Oldest first. */
  readonly events: readonly SnapshotEvent[];
  readonly partitions: readonly SnapshotPartition[];
  /** Inconsistencies worth a human's attention, e.g. a contender that believes it leads but owns no leader znode. */
  readonly problems: readonly string[];
}

export function leaderNode(snapshot: Pick<Snapshot, 'nodes'>): SnapshotNode | undefined {
  return snapshot.nodes.find((n) => n.leader);
}
