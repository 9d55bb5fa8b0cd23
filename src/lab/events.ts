/**
 * The lab's event log, every kind of line in it. Each contender appends to <lab>/events/<id>.jsonl
 * (src/lab/contender-events.ts declares those lines); the lab's own services (faults, ups and downs) to
 * <lab>/events/lab.jsonl. Drills and inspect read both; ZooKeeper's own view (znodes, wchp, cons) is the
 * cross-check. src/lab/event-log.ts writes and reads them.
 *
 * One declaration per event: its type and the guard that reads it back both come from it. The lines of a fault kind's
 * own events are declared by its module (src/faults/kinds/), and the readers above compose them with these.
 */

import { fields, type FieldsOf, labLineGuard, type LabLinesOf } from './event-schema.js';

export * from './contender-events.js';

/** What the lab's own lines carry, by event. */
export const LAB_EVENTS = {
  'ensemble-up': fields<{ servers: number }>(),
  /** Dead servers (by name) started again, or the link daemon (`network`). */
  'ensemble-repaired': fields<{ servers: string[]; network?: boolean }>(),
  'ensemble-down': fields(),
  'server-killed': fields<{ server: string; signal: string }>(),
  'server-paused': fields<{ server: string }>(),
  'server-resumed': fields<{ server: string }>(),
  /** unavailableMs: SIGKILL until they served again (absent in labs from before it was measured). */
  'server-restarted': fields<{ servers: string[]; unavailableMs?: number }>(),
  /** Joined by dynamic reconfiguration; `version`: the configuration that took it in (hex). */
  'server-added': fields<{ server: string; role: string; version: string }>(),
  /** Left by dynamic reconfiguration, then stopped. */
  'server-removed': fields<{ server: string; version: string }>(),
  'contenders-spawned': fields<{ contenders: string[]; recipe: string }>(),
  /** `scope`: node (all it started) or process (the program's own group); absent in labs from before nodes. */
  'contender-killed': fields<{ contender: string; pid: number; signal: string; scope?: string }>(),
  'contender-paused': fields<{ contender: string; pid: number; scope?: string }>(),
  'contender-resumed': fields<{ contender: string; pid: number; scope?: string }>(),
  /** Written once the contender is gone; `signalledAt`: when SIGTERM was sent, where the stop began. */
  'contender-stopped': fields<{ contender: string; signalledAt?: number }>(),
  /**
   * An isolation names its `target` (`requested` when that was an alias such as leader); a split its `groups`; a
   * one-way cut its sender as `target` and its receiver as `peer`.
   */
  partition: fields<{
    description: string;
    mode: string;
    target?: string;
    requested?: string;
    groups?: string[][];
    peer?: string;
  }>(),
  /** `kind` tells lifting partitions from clearing delays; no target: everything. */
  heal: fields<{ kind: 'partition' | 'delay'; description: string; target?: string }>(),
  delay: fields<{ description: string; target: string; ms: number; jitter: number }>(),
  /** The demo's measured failover, for the live view's event pane. */
  failover: fields<{ description: string; ms: number }>(),
  /**
   * A drill's record of who leads `path` by ZooKeeper's own state (the owner of the leading znode), written when it
   * changes: `leader` is the contender, null when nobody leads or `session` is no contender's (another client).
   * `unknown`: the drill could not ask ZooKeeper from then on (its server away, its connection moving). `blindSince`:
   * the look that ended now began then and took long, so what ZooKeeper said in between is not known.
   */
  'zk-leader': fields<{
    path: string;
    leader: string | null;
    znode: string | null;
    session: string | null;
    unknown?: true;
    blindSince?: number;
  }>(),
  /** Jobs put in a scheduler's queue (`jobs submit`, a drill's jobs step), by name. */
  'jobs-submitted': fields<{ path: string; jobs: string[]; kind: string }>(),
  /** A failpoint armed for a contender (`failpoint set`, a drill's failpoint step). */
  'failpoint-armed': fields<{ contender: string; at: string; action: string }>(),
  /** A drill's record of a scheduler's status znodes as ZooKeeper shows them: seen (with the TTL from its data), gone. */
  'status-seen': fields<{ path: string; job: string; ctime: number; ttlMs: number | null }>(),
  'status-gone': fields<{ path: string; job: string }>(),
  /** The lock workload's protected resource (served by the link daemon) set up for a lock path. */
  'resource-configured': fields<{ resource: string; fencing: boolean; reset?: boolean }>(),
  /** A holder read the resource presenting its token (logged when the token is a new highest: the fence moved). */
  'resource-read': fields<{ resource: string; holder: string; token: number; lastToken: number }>(),
  /** The resource's own record of a write it was sent: accepted or refused (a token below `lastToken`, with fencing). */
  'resource-write': fields<{
    resource: string;
    holder: string;
    token: number;
    value: number;
    accepted: boolean;
    lastToken: number;
    previousValue: number;
    fencing: boolean;
  }>(),
} as const;

export type LabEventFields = FieldsOf<typeof LAB_EVENTS>;
export type LabEventName = keyof LabEventFields;
/** One kind of lab event, or a union of kinds. */
export type LabEventOf<E extends LabEventName> = LabLinesOf<Pick<typeof LAB_EVENTS, E>>;
export type LabEvent = LabLinesOf<typeof LAB_EVENTS>;

/** A parsed line of the lab's own log with a known event name. */
export const isLabEvent: (v: unknown) => v is LabEvent = labLineGuard(LAB_EVENTS);

/** The contender a lab event is about, when it names one. */
export function contenderOf(e: { readonly event: string }): string | undefined {
  return 'contender' in e && typeof e.contender === 'string' ? e.contender : undefined;
}

/** The server a lab event is about, when it names one. */
export function serverOf(e: { readonly event: string }): string | undefined {
  return 'server' in e && typeof e.server === 'string' ? e.server : undefined;
}
