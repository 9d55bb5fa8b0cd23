/**
 * The contenders' event log: one JSON object per line in <lab>/events/<id>.jsonl, appended by the contender
 * itself. The lab's own faults go to <lab>/events/lab.jsonl (see src/lab/events.ts). Drills and inspect read both;
 * ZooKeeper's own view (znodes, wchp, cons) is the cross-check.
 */

export type ContenderEventName =
  /** The process runs; fields: recipe, path, options. */
  | 'started'
  /** A session was established (first connect, or a new session after expiry); field: session. */
  | 'connected'
  /** The contender's own znode exists; field: znode. */
  | 'joined'
  /** A watch is set; fields: path, kind ('exists' | 'children' | 'data'). */
  | 'watching'
  /** A watch fired; fields: path, type ('deleted' | 'created' | 'changed' | 'children'). */
  | 'notified'
  /** Leadership claimed; fields: token (fencing token: czxid of the leading znode), znode. */
  | 'leader'
  /** Not the leader; field: predecessor (what it waits for), when there is one. */
  | 'follower'
  /** The leader does its work, every ACT_INTERVAL_MS while it believes it leads; field: token. */
  | 'act'
  /** Disconnected (or stalled): stop acting, session may survive; field: reason, wasLeader. */
  | 'paused'
  /** Reconnected with the session intact. */
  | 'resumed'
  /** Connection lost while running with --on-disconnect ignore: it keeps acting as before (unsafe on purpose). */
  | 'disconnected'
  /** The session expired: every ephemeral znode of it is gone. */
  | 'expired'
  /** Leadership given up on purpose or lost; fields: reason, token. */
  | 'resigned'
  /** single-file recipe: state changes among active / inactive / paused; field: state. */
  | 'state'
  /** priority recipe: this contender is the elector. */
  | 'elector'
  /** priority recipe: the elector wrote leader/elected; fields: candidate, policy. */
  | 'elected'
  /** priority recipe: the elected contender created leader/current with PROGRESS; field: token. */
  | 'progress'
  /** priority recipe: leader/current set to READY; field: token. */
  | 'ready'
  /** priority recipe: the elector's watchdog excluded a candidate that did not reach READY; field: candidate. */
  | 'excluded'
  /** A retryable failure (connection loss, timeout); fields: op, message, attempt. */
  | 'retry'
  /** Something unexpected; field: message. */
  | 'error'
  /** Clean shutdown: the session was closed. */
  | 'stopped';

export interface ContenderEvent {
  /** Wall-clock milliseconds. */
  readonly t: number;
  readonly id: string;
  readonly pid: number;
  /** Session id as lower-case hex without 0x, or null before the first session. */
  readonly session: string | null;
  /** The contender's own znode, or null when it has none. */
  readonly znode: string | null;
  readonly event: ContenderEventName;
  readonly token?: number;
  readonly path?: string;
  readonly kind?: string;
  readonly type?: string;
  readonly reason?: string;
  readonly state?: string;
  readonly candidate?: string;
  readonly predecessor?: string;
  readonly wasLeader?: boolean;
  readonly [extra: string]: unknown;
}

/** Faults and lifecycle the lab itself records (kills, pauses, partitions, ups and downs). */
export interface LabEvent {
  readonly t: number;
  readonly source: 'lab';
  /** e.g. 'contender-killed', 'contender-paused', 'contender-resumed', 'server-killed', 'partition', 'heal'. */
  readonly event: string;
  readonly [field: string]: unknown;
}

export const ACT_INTERVAL_MS = 200;

export function parseEventLines(text: string): ContenderEvent[] {
  const out: ContenderEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as ContenderEvent);
    } catch {
      // A line cut short by a SIGKILL mid-write is skipped; every other line stands.
    }
  }
  return out;
}
