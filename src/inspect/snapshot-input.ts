import type { ContenderEvent, LabEventOf } from '../lab/events.js';
import type { LabLine } from '../faults/kinds/registry.js';
import type { Srvr } from '../zk/four-letter.js';
import type { SnapshotNodeFault, SnapshotPartition } from './snapshot.js';
import type { LeaderRule } from '../recipes/leadership.js';

/** The raw facts the inspect data source collects; buildSnapshot turns them into a Snapshot. */

export interface RawZnodeStat {
  readonly czxid: number;
  /** Wall-clock ms. */
  readonly ctime: number;
  /** Wall-clock ms of the last change; TTL expiry counts from it (ctime when absent). */
  readonly mtime?: number;
  /** Hex, with or without 0x; '0' when no session owns the znode (a server says 0 for TTL and container znodes too). */
  readonly ephemeralOwner: string;
  readonly dataLength: number;
}

export interface RawZnode {
  readonly path: string;
  readonly stat: RawZnodeStat;
  /** The data decoded as UTF-8. */
  readonly data: string;
}

/** What the contender's event log says it claims (see summarizeContenderEvents). */
export type ClaimedState = 'leader' | 'follower' | 'paused' | 'expired' | 'stopped' | 'unknown';

export interface ContenderInput {
  readonly id: string;
  readonly pid: number | null;
  /** The process exists. */
  readonly alive: boolean;
  /** The lab stopped it (SIGSTOP): it cannot report this itself. */
  readonly paused?: boolean;
  readonly recipe: string | null;
  /** Current session, hex with or without 0x. */
  readonly sessionId: string | null;
  /** Earlier sessions of the same contender, so its lingering znodes are still attributed to it. */
  readonly pastSessionIds?: readonly string[];
  readonly state: ClaimedState;
  /** When its log last changed its state: a belief newer than the tree's last read cannot be checked against it. */
  readonly stateSince?: number | null;
  /** Paths it holds an armed child watch on, by its own `watching` / `notified` events. */
  readonly childWatches?: readonly string[];
  /** How many processes its node holds (its program and all it started); 0 or absent when none. */
  readonly node?: number;
  /** What its probe says last while its node lives: acts as the leader, does not, or unknown (null). */
  readonly probed?: boolean | null;
  /** Its lock-acquired events (the lock workload): token and time, to tell how long a holder has held. */
  readonly acquired?: readonly { readonly token: number; readonly t: number }[];
}

export interface ServerInput {
  readonly name: string;
  readonly srvr: Srvr;
  /** The lab stopped the JVM (SIGSTOP); srvr then times out. */
  readonly paused?: boolean;
  readonly mntr?: ReadonlyMap<string, string | number>;
  /** parseWchp: path → session ids. */
  readonly wchp?: ReadonlyMap<string, readonly string[]>;
  /** parseWchc: session id → paths; the same watches seen the other way round. */
  readonly wchc?: ReadonlyMap<string, readonly string[]>;
}

export interface SnapshotInput {
  /** The election path, e.g. "/election", or a task scheduler's root, e.g. "/scheduler". */
  readonly path: string;
  readonly takenAt: number;
  /** The election path itself and every znode below it, in any order. */
  readonly znodes: readonly RawZnode[];
  /**
   * When the reads that gave `znodes` were sent (the tree is at least this fresh): a belief logged after it may be of
   * a change the tree does not show yet, so it is not held against the tree. Unknown: every belief is compared.
   */
  readonly treeReadAt?: number;
  readonly contenders: readonly ContenderInput[];
  /** Roots of the task schedulers the lab's contenders work for: such a path is shown as a scheduler. */
  readonly schedulerRoots?: readonly string[];
  /** Paths of the locks the lab's lock contenders loop on: such a path is shown as a lock. */
  readonly lockPaths?: readonly string[];
  /**
   * The lab's resource-configured and resource-write events, every one in log order (the resource's state is their
   * fold, so they are not cut like `events`); those of other resources are ignored.
   */
  readonly resourceEvents?: readonly LabEventOf<'resource-configured' | 'resource-read' | 'resource-write'>[];
  /** How to tell who leads (programs run as contenders name a rule); auto when absent. */
  readonly leaderRule?: LeaderRule;
  readonly servers: readonly ServerInput[];
  readonly partitions?: readonly SnapshotPartition[];
  readonly nodeFaults?: readonly SnapshotNodeFault[];
  /** Contender and lab events in any order; the latest maxEvents are kept. */
  readonly events?: readonly (ContenderEvent | LabLine)[];
  readonly maxEvents?: number;
}
