import type { ContenderEventFields, ContenderEventName } from '../lab/events.js';
import type { ZkPort } from '../zk/port.js';
import type { MultiOp } from '../zk/multi.js';
import type { Strategy } from './scheduler-layout.js';

export const RECIPES = ['predecessor', 'herd', 'single-file', 'priority'] as const;
export type RecipeName = (typeof RECIPES)[number];

export const POLICIES = ['priority', 'site', 'first', 'round-robin'] as const;
export type ElectorPolicy = (typeof POLICIES)[number];

/** pause: stop acting as leader on a disconnect (safe). ignore: keep acting (unsafe on purpose, for split-brain drills). */
export const ON_DISCONNECT = ['pause', 'ignore'] as const;
export type OnDisconnect = (typeof ON_DISCONNECT)[number];

export interface RecipeOptions {
  readonly id: string;
  readonly recipe: RecipeName;
  readonly path: string;
  readonly sessionTimeoutMs: number;
  readonly onDisconnect: OnDisconnect;
  readonly priority?: number;
  readonly site?: string;
  readonly policy?: ElectorPolicy;
  /** priority recipe: how long the takeover work between PROGRESS and READY takes. */
  readonly takeoverMs?: number;
  /** priority recipe: how long the elector waits for READY before excluding the candidate. */
  readonly watchdogMs?: number;
  /** priority recipe: the elector replaces a live leader the policy ranks below another (default true). */
  readonly preempt?: boolean;
  /** The scheduler workload: this contender is a worker (and, while it leads, the scheduler's assigner). */
  readonly scheduler?: SchedulerOptions;
  /** The lock workload: this contender loops acquire → hold → release → think on the lock at `path`. */
  readonly lock?: LockOptions;
}

export interface LockOptions {
  readonly holdMs: number;
  readonly thinkMs: number;
  /** Whether the protected resource refuses stale tokens (set on the resource by the lab; recorded here for the log). */
  readonly fencing: boolean;
}

/** The lock workload's protected resource, as a holder reaches it (the lab's daemon, src/lab/fenced-resource.ts). */
export interface ResourcePort {
  /** Reads the register, presenting the holder's token: the resource counts it as seen from then on. */
  read(token: number): Promise<{ readonly token: number; readonly value: number }>;
  write(
    token: number,
    value: number,
  ): Promise<{ readonly accepted: boolean; readonly lastToken: number; readonly previousValue: number }>;
}

export interface SchedulerOptions {
  /** The scheduler's root; the workers' election is <root>/election (the contender's path). */
  readonly root: string;
  readonly strategy: Strategy;
  readonly statusTtlMs: number;
}

/** Transactions, and the reads that prepare them, on a session of their own (src/zk/multi.ts). */
export interface MultiPort {
  commit(ops: readonly MultiOp[]): Promise<void>;
  getData(path: string): Promise<{ data: Buffer; version: number }>;
  sync(path: string): Promise<void>;
  close(): void;
}

/** What a recipe needs from the process around it. */
/** An event without fields of its own is logged with none. */
export type LogFields<E extends ContenderEventName> =
  Record<never, never> extends ContenderEventFields[E]
    ? [fields?: ContenderEventFields[E]]
    : [fields: ContenderEventFields[E]];

export interface RecipeIO {
  /** A new session (first start, or after expiry). */
  connect(): Promise<ZkPort>;
  /** Appends an event; the runtime adds time, id, pid, and the session and znode the recipe reports. */
  log<E extends ContenderEventName>(event: E, ...fields: LogFields<E>): void;
  /** A named point of the recipe: an armed failpoint for it crashes, freezes or hangs the contender here. */
  failpoint(at: string): Promise<void>;
  /** A client for multis (the scheduler's atomic steps). */
  openMulti(): MultiPort;
  /** The protected resource of the lock at `path` (the lock workload). */
  resource(): ResourcePort;
}

export interface Recipe {
  /** The session and own znode, for the event log. */
  readonly session: string | null;
  readonly znode: string | null;
  start(): Promise<void>;
  /** Gives up leadership and closes the session cleanly (ephemeral znodes go at once). */
  stop(): Promise<void>;
}
