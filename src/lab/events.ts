/**
 * The lab's event log, every kind of line in it. Each contender appends to <lab>/events/<id>.jsonl; the lab's
 * own services (faults, ups and downs) to <lab>/events/lab.jsonl. Drills and inspect read both; ZooKeeper's own
 * view (znodes, wchp, cons) is the cross-check. src/lab/event-log.ts writes and reads them.
 */

import { isRecord } from '../validate.js';

/** What a contender's lines carry beyond the common head, by event. */
export interface ContenderEventFields {
  /** The process runs. */
  started: {
    recipe: string;
    path: string;
    sessionTimeoutMs: number;
    onDisconnect: string;
    connect: string;
    program?: string[];
  };
  /** The servers it uses changed with the lab's membership: its new connect string (its own link proxies). */
  servers: { connect: string };
  /** A session was established (first connect, or a new session after expiry). */
  connected: { timeoutMs: number };
  /**
   * Written by the link daemon, not the contender: a server granted this session on one of the contender's links
   * (`server`). How the lab knows the sessions of a program that says nothing about itself.
   */
  session: { server: string; timeoutMs: number };
  /** The contender's own znode exists (single-file: it takes part, without a znode of its own). */
  joined: { znode?: string | null; member?: string; path?: string };
  watching: { path: string; kind: 'exists' | 'children' | 'data' };
  /** A watch fired. */
  notified: { path: string; type: string };
  /** Leadership claimed, with a fencing token: the czxid of the leading znode (null: a program that gave none). */
  leader: { token: number | null };
  /** Not the leader; what it waits for. */
  follower: { predecessor?: string | null; watching?: string | null; elected?: string | null; waitingFor?: string };
  /** The leader does its work, every ACT_INTERVAL_MS while it believes it leads. */
  act: { token: number | null };
  /** Disconnected or stalled (frozen): it stops acting; the session may survive. */
  paused: { reason: string; wasLeader: boolean; token?: number | null; gapMs?: number };
  /** Reconnected with the session intact. */
  resumed: Record<never, never>;
  /** Connection lost while running with --on-disconnect ignore: it keeps acting as before (unsafe on purpose). */
  disconnected: { wasLeader: boolean };
  /** The session expired: every ephemeral znode of it is gone. */
  expired: Record<never, never>;
  /** Leadership given up on purpose or lost. */
  resigned: { reason: string; token: number | null; wasLeader: boolean; wasTakingOver?: boolean };
  /** single-file recipe: a change among active / inactive / paused. */
  state: { state: 'active' | 'inactive' | 'paused'; from: 'active' | 'inactive' | 'paused' | null; reason?: string };
  /** priority recipe: this contender is the elector. */
  elector: { znode: string | null; policy: string };
  /** priority recipe: the elector wrote leader/elected. */
  elected: { candidate: string; policy: string; reason: string; previous: string | null };
  /** priority recipe: the elected contender created leader/current with PROGRESS. */
  progress: { token: number };
  /** priority recipe: leader/current set to READY. */
  ready: { token: number };
  /** priority recipe: the elector read the administrator's policy znode (changed, or first read); what it could not use. */
  policy: { sites: string[]; priorities: Record<string, number>; problems: string[] };
  /** priority recipe: the elector's watchdog excluded a candidate that did not reach READY. */
  excluded: { candidate: string; afterMs: number };
  /** A retryable failure (connection loss, timeout). */
  retry: { op: string; message: string; attempt?: number; delayMs?: number; exhausted?: boolean };
  /** Something unexpected. */
  error: { message: string };
  /** Clean shutdown: the session was closed. */
  stopped: Record<never, never>;
  /** A program run as a contender: its client library's own connection state (Curator's, kazoo's), as it said. */
  'client-state': { state: string; wasLeader?: boolean };
  /** Written by the supervisor of a program run as a contender: the program ended (not on the lab's SIGTERM). */
  exited: { code: number | null; signal: string | null; stderr: string[] };
  /** An armed failpoint was reached; the action follows at once (crash, pause: nothing more is written). */
  failpoint: { at: string; action: string };
  /** Scheduler: registered as a worker under this name (a new name per session). */
  'worker-registered': { worker: string };
  /** Scheduler leader: a job given to a worker, in one multi with the job's removal from the queue. */
  'job-assigned': { job: string; worker: string; attempt: number; strategy: string };
  /** Scheduler leader: a job of a worker that is gone put back in the queue (attempt is the next one). */
  'job-requeued': { job: string; from: string; attempt: number };
  /** Scheduler leader: a queued job removed because its status (or an assignment) already exists. */
  'job-dropped': { job: string; reason: string };
  /** Scheduler worker: began running a job. */
  'job-started': { job: string; worker: string; attempt: number; kind: string };
  /** Scheduler worker: a job's run completed (ok or failed); every one counts as an execution. */
  'job-finished': {
    job: string;
    worker: string;
    attempt: number;
    ok: boolean;
    result?: number;
    error?: string;
    ms: number;
  };
  /** Scheduler worker: the job's status node is there (created: this worker wrote it; false: it already existed). */
  'job-status': { job: string; worker: string; attempt: number; created: boolean; ttlMs: number };
  /** Lock workload: this contender's lock znode is the lowest; it holds the lock (token: the znode's czxid). */
  'lock-acquired': { token: number; waitedMs: number };
  /** Lock workload: a holder's write to the protected resource, and the resource's answer. */
  'lock-write': { token: number; value: number; accepted: boolean; lastToken: number; previousValue: number };
  /**
   * Written by the lab's prober, not the contender: what the contender's probe said, when it changed. `leads`: exit 0
   * (the node acts as the leader), non-zero (it does not), null (unknown: the probe hung past `everyMs` and was
   * killed, or could not start). `why` says what made it unknown, or that the node has no process left.
   */
  probed: { leads: boolean | null; everyMs: number; exit?: number | null; why?: string };
  /** Lock workload: the holder let go (deleted its znode, or found its session gone). Ends a believed hold. */
  'lock-released': { token: number; heldMs: number; reason: string };
}

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

/** What the lab's own lines carry, by event. */
export interface LabEventFields {
  'ensemble-up': { servers: number };
  /** Dead servers (by name) started again, or the link daemon (`network`). */
  'ensemble-repaired': { servers: string[]; network?: boolean };
  'ensemble-down': Record<never, never>;
  'server-killed': { server: string; signal: string };
  'server-paused': { server: string };
  'server-resumed': { server: string };
  /** unavailableMs: SIGKILL until they served again (absent in labs from before it was measured). */
  'server-restarted': { servers: string[]; unavailableMs?: number };
  /** Joined by dynamic reconfiguration; `version`: the configuration that took it in (hex). */
  'server-added': { server: string; role: string; version: string };
  /** Left by dynamic reconfiguration, then stopped. */
  'server-removed': { server: string; version: string };
  'contenders-spawned': { contenders: string[]; recipe: string };
  /** `scope`: node (all it started) or process (the program's own group); absent in labs from before nodes. */
  'contender-killed': { contender: string; pid: number; signal: string; scope?: string };
  'contender-paused': { contender: string; pid: number; scope?: string };
  'contender-resumed': { contender: string; pid: number; scope?: string };
  'contender-stopped': { contender: string };
  /** An isolation names its `target` (`requested` when that was an alias such as leader); a split its `groups`. */
  partition: { description: string; mode: string; target?: string; requested?: string; groups?: string[][] };
  /** `kind` tells lifting partitions from clearing delays; no target: everything. */
  heal: { kind: 'partition' | 'delay'; description: string; target?: string };
  delay: { description: string; target: string; ms: number; jitter: number };
  /** A fraction of a node's packets dropped at random (the node network); 0 ends it, as `net clear` does. */
  loss: { description: string; target: string; percent: number };
  /** The demo's measured failover, for the live view's event pane. */
  failover: { description: string; ms: number };
  /**
   * A drill's record of who leads `path` by ZooKeeper's own state (the owner of the leading znode), written when it
   * changes: `leader` is the contender, null when nobody leads or `session` is no contender's (another client).
   */
  'zk-leader': { path: string; leader: string | null; znode: string | null; session: string | null };
  /** Jobs put in a scheduler's queue (`jobs submit`, a drill's jobs step), by name. */
  'jobs-submitted': { path: string; jobs: string[]; kind: string };
  /** A failpoint armed for a contender (`failpoint set`, a drill's failpoint step). */
  'failpoint-armed': { contender: string; at: string; action: string };
  /** A drill's record of a scheduler's status znodes as ZooKeeper shows them: seen (with the TTL from its data), gone. */
  'status-seen': { path: string; job: string; ctime: number; ttlMs: number | null };
  'status-gone': { path: string; job: string };
  /** The lock workload's protected resource (served by the link daemon) set up for a lock path. */
  'resource-configured': { resource: string; fencing: boolean; reset?: boolean };
  /** A holder read the resource presenting its token (logged when the token is a new highest: the fence moved). */
  'resource-read': { resource: string; holder: string; token: number; lastToken: number };
  /** The resource's own record of a write it was sent: accepted or refused (a token below `lastToken`, with fencing). */
  'resource-write': {
    resource: string;
    holder: string;
    token: number;
    value: number;
    accepted: boolean;
    lastToken: number;
    previousValue: number;
    fencing: boolean;
  };
}

export type LabEventName = keyof LabEventFields;
type LabEventMap = {
  [E in LabEventName]: { readonly t: number; readonly source: 'lab'; readonly event: E } & Readonly<LabEventFields[E]>;
};
/** One kind of lab event, or a union of kinds. */
export type LabEventOf<E extends LabEventName> = LabEventMap[E];
export type LabEvent = LabEventMap[LabEventName];

const CONTENDER_EVENTS: ReadonlySet<string> = new Set<ContenderEventName>([
  'servers',
  'started',
  'connected',
  'session',
  'joined',
  'watching',
  'notified',
  'leader',
  'follower',
  'act',
  'paused',
  'resumed',
  'disconnected',
  'expired',
  'resigned',
  'state',
  'elector',
  'elected',
  'policy',
  'progress',
  'ready',
  'excluded',
  'retry',
  'error',
  'stopped',
  'client-state',
  'exited',
  'failpoint',
  'worker-registered',
  'job-assigned',
  'job-requeued',
  'job-dropped',
  'job-started',
  'job-finished',
  'job-status',
  'lock-acquired',
  'lock-write',
  'lock-released',
  'probed',
]);

const LAB_EVENTS: ReadonlySet<string> = new Set<LabEventName>([
  'ensemble-up',
  'ensemble-repaired',
  'ensemble-down',
  'server-killed',
  'server-paused',
  'server-resumed',
  'server-restarted',
  'server-added',
  'server-removed',
  'contenders-spawned',
  'contender-killed',
  'contender-paused',
  'contender-resumed',
  'contender-stopped',
  'partition',
  'heal',
  'delay',
  'loss',
  'failover',
  'zk-leader',
  'jobs-submitted',
  'failpoint-armed',
  'status-seen',
  'status-gone',
  'resource-configured',
  'resource-read',
  'resource-write',
]);

/** The events with which a contender says where it stands in an election; a program that prints none is silent. */
export const SAYS_WHERE_IT_STANDS: ReadonlySet<string> = new Set<ContenderEventName>(['joined', 'leader', 'follower']);

export function isContenderEventName(name: string): name is ContenderEventName {
  return CONTENDER_EVENTS.has(name);
}

/** A parsed line that has the head of a contender event and a known event name. */
export function isContenderEvent(v: unknown): v is ContenderEvent {
  return (
    isRecord(v) &&
    typeof v.t === 'number' &&
    typeof v.id === 'string' &&
    typeof v.event === 'string' &&
    CONTENDER_EVENTS.has(v.event)
  );
}

/** A parsed line of the lab's own log with a known event name. */
export function isLabEvent(v: unknown): v is LabEvent {
  return (
    isRecord(v) &&
    typeof v.t === 'number' &&
    v.source === 'lab' &&
    typeof v.event === 'string' &&
    LAB_EVENTS.has(v.event)
  );
}

/** The contender a lab event is about, when it names one. */
export function contenderOf(e: LabEvent): string | undefined {
  return 'contender' in e ? e.contender : undefined;
}

/** The server a lab event is about, when it names one. */
export function serverOf(e: LabEvent): string | undefined {
  return 'server' in e ? e.server : undefined;
}
