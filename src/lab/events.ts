/**
 * The lab's event log, every kind of line in it. Each contender appends to <lab>/events/<id>.jsonl
 * (src/lab/contender-events.ts declares those lines); the lab's own services (faults, ups and downs) to
 * <lab>/events/lab.jsonl. Drills and inspect read both; ZooKeeper's own view (znodes, wchp, cons) is the
 * cross-check. src/lab/event-log.ts writes and reads them.
 *
 * One schema per event: its type and the guard that reads it back both come from it. The lines of a fault kind's
 * own events are declared by its module (src/faults/kinds/), and the readers above compose them with these.
 */

import { z } from 'zod';
import { type FieldsOf, labLineGuard, type LabLinesOf } from './event-schema.js';

export * from './contender-events.js';

const scope = z.string().optional();

/** What the lab's own lines carry, by event. */
export const LAB_EVENTS = {
  'ensemble-up': z.object({ servers: z.number() }),
  /** Dead servers (by name) started again, or the link daemon (`network`). */
  'ensemble-repaired': z.object({ servers: z.array(z.string()), network: z.boolean().optional() }),
  'ensemble-down': z.object({}),
  'server-killed': z.object({ server: z.string(), signal: z.string() }),
  'server-paused': z.object({ server: z.string() }),
  'server-resumed': z.object({ server: z.string() }),
  /** unavailableMs: SIGKILL until they served again (absent in labs from before it was measured). */
  'server-restarted': z.object({ servers: z.array(z.string()), unavailableMs: z.number().optional() }),
  /** Joined by dynamic reconfiguration; `version`: the configuration that took it in (hex). */
  'server-added': z.object({ server: z.string(), role: z.string(), version: z.string() }),
  /** Left by dynamic reconfiguration, then stopped. */
  'server-removed': z.object({ server: z.string(), version: z.string() }),
  'contenders-spawned': z.object({ contenders: z.array(z.string()), recipe: z.string() }),
  /** `scope`: node (all it started) or process (the program's own group); absent in labs from before nodes. */
  'contender-killed': z.object({ contender: z.string(), pid: z.number(), signal: z.string(), scope }),
  'contender-paused': z.object({ contender: z.string(), pid: z.number(), scope }),
  'contender-resumed': z.object({ contender: z.string(), pid: z.number(), scope }),
  'contender-stopped': z.object({ contender: z.string() }),
  /** An isolation names its `target` (`requested` when that was an alias such as leader); a split its `groups`. */
  partition: z.object({
    description: z.string(),
    mode: z.string(),
    target: z.string().optional(),
    requested: z.string().optional(),
    groups: z.array(z.array(z.string())).optional(),
  }),
  /** `kind` tells lifting partitions from clearing delays; no target: everything. */
  heal: z.object({ kind: z.enum(['partition', 'delay']), description: z.string(), target: z.string().optional() }),
  delay: z.object({ description: z.string(), target: z.string(), ms: z.number(), jitter: z.number() }),
  /** The demo's measured failover, for the live view's event pane. */
  failover: z.object({ description: z.string(), ms: z.number() }),
  /**
   * A drill's record of who leads `path` by ZooKeeper's own state (the owner of the leading znode), written when it
   * changes: `leader` is the contender, null when nobody leads or `session` is no contender's (another client).
   */
  'zk-leader': z.object({
    path: z.string(),
    leader: z.string().nullable(),
    znode: z.string().nullable(),
    session: z.string().nullable(),
  }),
  /** Jobs put in a scheduler's queue (`jobs submit`, a drill's jobs step), by name. */
  'jobs-submitted': z.object({ path: z.string(), jobs: z.array(z.string()), kind: z.string() }),
  /** A failpoint armed for a contender (`failpoint set`, a drill's failpoint step). */
  'failpoint-armed': z.object({ contender: z.string(), at: z.string(), action: z.string() }),
  /** A drill's record of a scheduler's status znodes as ZooKeeper shows them: seen (with the TTL from its data), gone. */
  'status-seen': z.object({ path: z.string(), job: z.string(), ctime: z.number(), ttlMs: z.number().nullable() }),
  'status-gone': z.object({ path: z.string(), job: z.string() }),
  /** The lock workload's protected resource (served by the link daemon) set up for a lock path. */
  'resource-configured': z.object({ resource: z.string(), fencing: z.boolean(), reset: z.boolean().optional() }),
  /** A holder read the resource presenting its token (logged when the token is a new highest: the fence moved). */
  'resource-read': z.object({ resource: z.string(), holder: z.string(), token: z.number(), lastToken: z.number() }),
  /** The resource's own record of a write it was sent: accepted or refused (a token below `lastToken`, with fencing). */
  'resource-write': z.object({
    resource: z.string(),
    holder: z.string(),
    token: z.number(),
    value: z.number(),
    accepted: z.boolean(),
    lastToken: z.number(),
    previousValue: z.number(),
    fencing: z.boolean(),
  }),
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
