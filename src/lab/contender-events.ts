import { fields, type FieldsOf } from './event-schema.js';
import { isRecord } from '../validate.js';

/**
 * What a contender's lines carry beyond the common head, by event: one declaration each, from which their types and
 * the guard that reads them back come. Each contender appends to <lab>/events/<id>.jsonl (src/lab/event-log.ts).
 */

export const CONTENDER_EVENTS = {
  /** The process runs. */
  started: fields<{
    recipe: string;
    path: string;
    sessionTimeoutMs: number;
    onDisconnect: string;
    connect: string;
    program?: string[];
  }>(),
  /** The servers it uses changed with the lab's membership: its new connect string (its own link proxies). */
  servers: fields<{ connect: string }>(),
  /** A session was established (first connect, or a new session after expiry). */
  connected: fields<{ timeoutMs: number }>(),
  /**
   * Written by the link daemon, not the contender: a server granted this session on one of the contender's links
   * (`server`). How the lab knows the sessions of a program that says nothing about itself.
   */
  session: fields<{ server: string; timeoutMs: number }>(),
  /** The contender's own znode exists (single-file: it takes part, without a znode of its own). */
  joined: fields<{ znode?: string | null; member?: string; path?: string }>(),
  watching: fields<{ path: string; kind: 'exists' | 'children' | 'data' }>(),
  /** A watch fired. */
  notified: fields<{ path: string; type: string }>(),
  /** Leadership claimed, with a fencing token: the czxid of the leading znode (null: a program that gave none). */
  leader: fields<{ token: number | null }>(),
  /** Not the leader; what it waits for. */
  follower: fields<{
    predecessor?: string | null;
    watching?: string | null;
    elected?: string | null;
    waitingFor?: string;
  }>(),
  /** The leader does its work, every ACT_INTERVAL_MS while it believes it leads. */
  act: fields<{ token: number | null }>(),
  /** Disconnected or stalled (frozen): it stops acting; the session may survive. */
  paused: fields<{ reason: string; wasLeader: boolean; token?: number | null; gapMs?: number }>(),
  /** Reconnected with the session intact. */
  resumed: fields(),
  /** Connection lost while running with --on-disconnect ignore: it keeps acting as before (unsafe on purpose). */
  disconnected: fields<{ wasLeader: boolean }>(),
  /** The session expired: every ephemeral znode of it is gone. */
  expired: fields(),
  /** Leadership given up on purpose or lost. */
  resigned: fields<{ reason: string; token: number | null; wasLeader: boolean; wasTakingOver?: boolean }>(),
  /** single-file recipe: a change among active / inactive / paused. */
  state: fields<{
    state: 'active' | 'inactive' | 'paused';
    from: 'active' | 'inactive' | 'paused' | null;
    reason?: string;
  }>(),
  /** priority recipe: this contender is the elector. */
  elector: fields<{ znode: string | null; policy: string }>(),
  /** priority recipe: the elector wrote leader/elected. */
  elected: fields<{ candidate: string; policy: string; reason: string; previous: string | null }>(),
  /** priority recipe: the elected contender created leader/current with PROGRESS. */
  progress: fields<{ token: number }>(),
  /** priority recipe: leader/current set to READY. */
  ready: fields<{ token: number }>(),
  /** priority recipe: the elector read the administrator's policy znode (changed, or first read); what it could not use. */
  policy: fields<{ sites: string[]; priorities: Record<string, number>; problems: string[] }>(),
  /** priority recipe: the elector's watchdog excluded a candidate that did not reach READY. */
  excluded: fields<{ candidate: string; afterMs: number }>(),
  /** A retryable failure (connection loss, timeout). */
  retry: fields<{ op: string; message: string; attempt?: number; delayMs?: number; exhausted?: boolean }>(),
  /** Something unexpected. */
  error: fields<{ message: string }>(),
  /** Clean shutdown: the session was closed. */
  stopped: fields(),
  /** A program run as a contender: its client library's own connection state (Curator's, kazoo's), as it said. */
  'client-state': fields<{ state: string; wasLeader?: boolean }>(),
  /** Written by the supervisor of a program run as a contender: the program ended (not on the lab's SIGTERM). */
  exited: fields<{ code: number | null; signal: string | null; stderr: string[] }>(),
  /** An armed failpoint was reached; the action follows at once (crash, pause: nothing more is written). */
  failpoint: fields<{ at: string; action: string }>(),
  /** Scheduler: registered as a worker under this name (a new name per session). */
  'worker-registered': fields<{ worker: string }>(),
  /** Scheduler leader: a job given to a worker, in one multi with the job's removal from the queue. */
  'job-assigned': fields<{ job: string; worker: string; attempt: number; strategy: string }>(),
  /** Scheduler leader: a job of a worker that is gone put back in the queue (attempt is the next one). */
  'job-requeued': fields<{ job: string; from: string; attempt: number }>(),
  /** Scheduler leader: a queued job removed because its status (or an assignment) already exists. */
  'job-dropped': fields<{ job: string; reason: string }>(),
  /** Scheduler worker: began running a job. */
  'job-started': fields<{ job: string; worker: string; attempt: number; kind: string }>(),
  /** Scheduler worker: a job's run completed (ok or failed); every one counts as an execution. */
  'job-finished': fields<{
    job: string;
    worker: string;
    attempt: number;
    ok: boolean;
    result?: number;
    error?: string;
    ms: number;
  }>(),
  /** Scheduler worker: the job's status node is there (created: this worker wrote it; false: it already existed). */
  'job-status': fields<{ job: string; worker: string; attempt: number; created: boolean; ttlMs: number }>(),
  /** Lock workload: this contender's lock znode is the lowest; it holds the lock (token: the znode's czxid). */
  'lock-acquired': fields<{ token: number; waitedMs: number }>(),
  /** Lock workload: a holder's write to the protected resource, and the resource's answer. */
  'lock-write': fields<{ token: number; value: number; accepted: boolean; lastToken: number; previousValue: number }>(),
  /**
   * Written by the lab's prober, not the contender: what the contender's probe said, when it changed. `leads`: exit 0
   * (the node acts as the leader), non-zero (it does not), null (unknown: the probe hung past its patience and was
   * killed, or could not start). `why` says what made it unknown, or that the node has no process left. `lateMs`:
   * how late the word may be (the interval, or the run before it if that took longer, plus this run); absent in
   * older records, where it is `everyMs`.
   */
  probed: fields<{ leads: boolean | null; everyMs: number; lateMs?: number; exit?: number | null; why?: string }>(),
  /** Lock workload: the holder let go (deleted its znode, or found its session gone). Ends a believed hold. */
  'lock-released': fields<{ token: number; heldMs: number; reason: string }>(),
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
