import { z } from 'zod';
import type { FieldsOf } from './event-schema.js';
import { isRecord } from '../validate.js';

/**
 * What a contender's lines carry beyond the common head, by event: one schema each, from which their types and
 * the guard that reads them back come. Each contender appends to <lab>/events/<id>.jsonl (src/lab/event-log.ts).
 */

const token = z.number().nullable();
const beliefState = z.enum(['active', 'inactive', 'paused']);

export const CONTENDER_EVENTS = {
  /** The process runs. */
  started: z.object({
    recipe: z.string(),
    path: z.string(),
    sessionTimeoutMs: z.number(),
    onDisconnect: z.string(),
    connect: z.string(),
    program: z.array(z.string()).optional(),
  }),
  /** The servers it uses changed with the lab's membership: its new connect string (its own link proxies). */
  servers: z.object({ connect: z.string() }),
  /** A session was established (first connect, or a new session after expiry). */
  connected: z.object({ timeoutMs: z.number() }),
  /**
   * Written by the link daemon, not the contender: a server granted this session on one of the contender's links
   * (`server`). How the lab knows the sessions of a program that says nothing about itself.
   */
  session: z.object({ server: z.string(), timeoutMs: z.number() }),
  /** The contender's own znode exists (single-file: it takes part, without a znode of its own). */
  joined: z.object({
    znode: z.string().nullable().optional(),
    member: z.string().optional(),
    path: z.string().optional(),
  }),
  watching: z.object({ path: z.string(), kind: z.enum(['exists', 'children', 'data']) }),
  /** A watch fired. */
  notified: z.object({ path: z.string(), type: z.string() }),
  /** Leadership claimed, with a fencing token: the czxid of the leading znode (null: a program that gave none). */
  leader: z.object({ token }),
  /** Not the leader; what it waits for. */
  follower: z.object({
    predecessor: z.string().nullable().optional(),
    watching: z.string().nullable().optional(),
    elected: z.string().nullable().optional(),
    waitingFor: z.string().optional(),
  }),
  /** The leader does its work, every ACT_INTERVAL_MS while it believes it leads. */
  act: z.object({ token }),
  /** Disconnected or stalled (frozen): it stops acting; the session may survive. */
  paused: z.object({
    reason: z.string(),
    wasLeader: z.boolean(),
    token: token.optional(),
    gapMs: z.number().optional(),
  }),
  /** Reconnected with the session intact. */
  resumed: z.object({}),
  /** Connection lost while running with --on-disconnect ignore: it keeps acting as before (unsafe on purpose). */
  disconnected: z.object({ wasLeader: z.boolean() }),
  /** The session expired: every ephemeral znode of it is gone. */
  expired: z.object({}),
  /** Leadership given up on purpose or lost. */
  resigned: z.object({
    reason: z.string(),
    token,
    wasLeader: z.boolean(),
    wasTakingOver: z.boolean().optional(),
  }),
  /** single-file recipe: a change among active / inactive / paused. */
  state: z.object({ state: beliefState, from: beliefState.nullable(), reason: z.string().optional() }),
  /** priority recipe: this contender is the elector. */
  elector: z.object({ znode: z.string().nullable(), policy: z.string() }),
  /** priority recipe: the elector wrote leader/elected. */
  elected: z.object({ candidate: z.string(), policy: z.string(), reason: z.string(), previous: z.string().nullable() }),
  /** priority recipe: the elected contender created leader/current with PROGRESS. */
  progress: z.object({ token: z.number() }),
  /** priority recipe: leader/current set to READY. */
  ready: z.object({ token: z.number() }),
  /** priority recipe: the elector read the administrator's policy znode (changed, or first read); what it could not use. */
  policy: z.object({
    sites: z.array(z.string()),
    priorities: z.record(z.string(), z.number()),
    problems: z.array(z.string()),
  }),
  /** priority recipe: the elector's watchdog excluded a candidate that did not reach READY. */
  excluded: z.object({ candidate: z.string(), afterMs: z.number() }),
  /** A retryable failure (connection loss, timeout). */
  retry: z.object({
    op: z.string(),
    message: z.string(),
    attempt: z.number().optional(),
    delayMs: z.number().optional(),
    exhausted: z.boolean().optional(),
  }),
  /** Something unexpected. */
  error: z.object({ message: z.string() }),
  /** Clean shutdown: the session was closed. */
  stopped: z.object({}),
  /** A program run as a contender: its client library's own connection state (Curator's, kazoo's), as it said. */
  'client-state': z.object({ state: z.string(), wasLeader: z.boolean().optional() }),
  /** Written by the supervisor of a program run as a contender: the program ended (not on the lab's SIGTERM). */
  exited: z.object({ code: z.number().nullable(), signal: z.string().nullable(), stderr: z.array(z.string()) }),
  /** An armed failpoint was reached; the action follows at once (crash, pause: nothing more is written). */
  failpoint: z.object({ at: z.string(), action: z.string() }),
  /** Scheduler: registered as a worker under this name (a new name per session). */
  'worker-registered': z.object({ worker: z.string() }),
  /** Scheduler leader: a job given to a worker, in one multi with the job's removal from the queue. */
  'job-assigned': z.object({ job: z.string(), worker: z.string(), attempt: z.number(), strategy: z.string() }),
  /** Scheduler leader: a job of a worker that is gone put back in the queue (attempt is the next one). */
  'job-requeued': z.object({ job: z.string(), from: z.string(), attempt: z.number() }),
  /** Scheduler leader: a queued job removed because its status (or an assignment) already exists. */
  'job-dropped': z.object({ job: z.string(), reason: z.string() }),
  /** Scheduler worker: began running a job. */
  'job-started': z.object({ job: z.string(), worker: z.string(), attempt: z.number(), kind: z.string() }),
  /** Scheduler worker: a job's run completed (ok or failed); every one counts as an execution. */
  'job-finished': z.object({
    job: z.string(),
    worker: z.string(),
    attempt: z.number(),
    ok: z.boolean(),
    result: z.number().optional(),
    error: z.string().optional(),
    ms: z.number(),
  }),
  /** Scheduler worker: the job's status node is there (created: this worker wrote it; false: it already existed). */
  'job-status': z.object({
    job: z.string(),
    worker: z.string(),
    attempt: z.number(),
    created: z.boolean(),
    ttlMs: z.number(),
  }),
  /** Lock workload: this contender's lock znode is the lowest; it holds the lock (token: the znode's czxid). */
  'lock-acquired': z.object({ token: z.number(), waitedMs: z.number() }),
  /** Lock workload: a holder's write to the protected resource, and the resource's answer. */
  'lock-write': z.object({
    token: z.number(),
    value: z.number(),
    accepted: z.boolean(),
    lastToken: z.number(),
    previousValue: z.number(),
  }),
  /**
   * Written by the lab's prober, not the contender: what the contender's probe said, when it changed. `leads`: exit 0
   * (the node acts as the leader), non-zero (it does not), null (unknown: the probe hung past `everyMs` and was
   * killed, or could not start). `why` says what made it unknown, or that the node has no process left.
   */
  probed: z.object({
    leads: z.boolean().nullable(),
    everyMs: z.number(),
    exit: z.number().nullable().optional(),
    why: z.string().optional(),
  }),
  /** Lock workload: the holder let go (deleted its znode, or found its session gone). Ends a believed hold. */
  'lock-released': z.object({ token: z.number(), heldMs: z.number(), reason: z.string() }),
} as const;

/** What a contender's lines carry beyond the common head, by event. */
export type ContenderEventFields = FieldsOf<typeof CONTENDER_EVENTS>;
export type ContenderEventName = keyof ContenderEventFields;

export interface ContenderEventHead {
  /** Wall-clock milliseconds. */
  readonly t: number;
  readonly id: string;
  readonly pid: number;
  /** Session id as lower-case hex without 0x, or null before the first session. */
  readonly session: string | null;
  /** The contender's own znode, or null when it has none. */
  readonly znode: string | null;
  /** Where a belief came from: a program's own `ZKLAB` line (stdout) or a probe of its node; absent: zklab's recipes. */
  readonly source?: 'stdout' | 'probe';
}

type ContenderEventMap = {
  [E in ContenderEventName]: ContenderEventHead & { readonly event: E } & Readonly<ContenderEventFields[E]>;
};
/** One kind of contender event, or a union of kinds. */
export type ContenderEventOf<E extends ContenderEventName> = ContenderEventMap[E];
export type ContenderEvent = ContenderEventMap[ContenderEventName];

/** The events with which a contender says where it stands in an election; a program that prints none is silent. */
export const SAYS_WHERE_IT_STANDS: ReadonlySet<string> = new Set<ContenderEventName>(['joined', 'leader', 'follower']);

export function isContenderEventName(name: string): name is ContenderEventName {
  return Object.hasOwn(CONTENDER_EVENTS, name);
}

/**
 * A parsed line that has the head of a contender event and a known event name. As for the lab's lines, the fields
 * are not checked: a line an older zklab wrote reads as it always did.
 */
export function isContenderEvent(v: unknown): v is ContenderEvent {
  return (
    isRecord(v) &&
    typeof v.t === 'number' &&
    typeof v.id === 'string' &&
    typeof v.event === 'string' &&
    isContenderEventName(v.event)
  );
}
