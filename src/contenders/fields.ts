import { formatDuration } from '../duration.js';
import { CONTENDER_VIA } from '../lab/state.js';
import { DEFAULT_TAKEOVER_MS } from '../recipes/priority-layout.js';
import { DEFAULT_STATUS_TTL_MS, STRATEGIES } from '../recipes/scheduler-layout.js';
import { ON_DISCONNECT, POLICIES } from '../recipes/types.js';
import { CURATOR_ERROR_POLICIES } from './adapters/adapters.js';
import { PLACEHOLDER_WORDS } from './placeholders.js';
import { choice, connectString, durationIn, flag, probeCommand, type Read, znodePath } from './spec-values.js';

export const WORKLOADS = ['scheduler', 'lock'] as const;
export type Workload = (typeof WORKLOADS)[number];

export const MAX_CONTENDERS = 200;
export const DEFAULT_SESSION_TIMEOUT_MS = 2000;
export const DEFAULT_PATH = '/election';
export const DEFAULT_LOCK_PATH = '/lock';
export const DEFAULT_HOLD_MS = 200;
export const DEFAULT_THINK_MS = 100;
export const DEFAULT_JOIN_TIMEOUT_MS = 30_000;
export const DEFAULT_PROBE_INTERVAL_MS = 250;
/**
 * How long a probe run may take, when its interval is shorter, before the prober kills it as hung: a probe that
 * starts an interpreter takes more than 250 ms on a busy machine, and killed, it would say nothing when it matters.
 */
export const PROBE_PATIENCE_MS = 2000;

/** The bounds of every duration a spec takes. */
export const SPEC_LIMITS = {
  sessionTimeout: { min: 100, max: 120_000 },
  takeoverMs: { min: 0, max: 60_000 },
  watchdogMs: { min: 1, max: 600_000 },
  statusTtl: { min: 1, max: 24 * 3600_000 },
  hold: { min: 0, max: 3600_000 },
  think: { min: 0, max: 3600_000 },
  joinTimeout: { min: 100, max: 3600_000 },
  probeInterval: { min: 50, max: 60_000 },
} as const;

/** What a field needs beside it; given without it, the validator refuses the field (src/contenders/spec.ts). */
export type FieldOwner =
  | { readonly recipe: 'priority' | 'curator-latch' }
  | { readonly workload: Workload }
  /** Programs: `exec` and the client adapters; `why` tells what a recipe does instead. */
  | { readonly programs: true; readonly why: string }
  | { readonly with: 'probe' };

export interface ContenderField {
  /** The yargs option (or positional) that carries it, and how yargs reads it (default string; array: words). */
  readonly option: string;
  readonly type?: 'boolean' | 'array';
  /** How a command line names it in messages, when not `--option`: `<count>` (a positional), `--no-preempt`. */
  readonly flag?: string;
  /** Its line in `contenders spawn --help`. */
  readonly help: string;
  /** false: not a key of a drill's `contenders:` section (a drill's `connect` comes from `drill run --connect`). */
  readonly drill?: false;
  readonly owner?: FieldOwner;
  /** Reads a value as given. Absent: the validator reads it itself, beside the fields it depends on. */
  readonly read?: (v: unknown) => Read<unknown>;
  /** Its value when not given (absent: none). */
  readonly fallback?: unknown;
}

const duration = (limit: keyof typeof SPEC_LIMITS) => (v: unknown) => durationIn(v, SPEC_LIMITS[limit]);
const by = (ms: number) => `(default ${formatDuration(ms)})`;

/**
 * Every field of a contender spec, the one table `contenders spawn`'s options, its help and its flag words, a drill's
 * `contenders:` keys and the validator's reading of each value are derived from. The order is the validator's: it
 * reports problems in this order, and a drill lists its keys so. `cli/spawn-spec.ts` holds the order of `--help`.
 */
export const CONTENDER_FIELDS = {
  count: { flag: '<count>', option: 'count', help: `how many, 1 to ${MAX_CONTENDERS}` },
  recipe: {
    option: 'recipe',
    help: 'predecessor (default), herd, single-file, priority; curator-latch or kazoo-election',
  },
  exec: {
    option: 'exec',
    type: 'boolean',
    help:
      'run the program after -- as each contender; it gets ZKLAB_CONNECT, ZKLAB_ID, ZKLAB_PATH, ' +
      `ZKLAB_SESSION_TIMEOUT_MS, ZKLAB_ADDR, ZKLAB_LAB, and ${PLACEHOLDER_WORDS} in its words`,
  },
  leaderRule: {
    option: 'leader-rule',
    type: 'array',
    help: "programs: who leads by ZooKeeper's view: lowest-sequence (default) or single-node NAME",
    owner: { programs: true, why: 'zklab knows how its own recipes elect' },
  },
  curatorErrorPolicy: {
    option: 'curator-error-policy',
    help: 'curator-latch: standard (default: leadership ends on SUSPENDED) or session (on LOST)',
    owner: { recipe: 'curator-latch' },
    read: (v) => choice(v, CURATOR_ERROR_POLICIES),
    fallback: 'standard',
  },
  sessionTimeout: {
    option: 'session-timeout',
    help: `a duration such as 2s or 500ms ${by(DEFAULT_SESSION_TIMEOUT_MS)}`,
  },
  onDisconnect: {
    option: 'on-disconnect',
    help: 'pause (default) or ignore (unsafe: keeps leading through a disconnect)',
    read: (v) => choice(v, ON_DISCONNECT),
    fallback: 'pause',
  },
  policy: {
    option: 'policy',
    help: 'priority recipe: priority (default), site, first or round-robin',
    owner: { recipe: 'priority' },
    read: (v) => choice(v, POLICIES),
    fallback: 'priority',
  },
  priorities: {
    option: 'priority',
    help: 'priority recipe: one number per contender, e.g. 5,3,1',
    owner: { recipe: 'priority' },
  },
  sites: {
    option: 'site',
    help: 'priority recipe: one site per contender, e.g. a,a,b',
    owner: { recipe: 'priority' },
  },
  takeoverMs: {
    option: 'takeover-ms',
    help: `priority recipe: how long the PROGRESS → READY work takes ${by(DEFAULT_TAKEOVER_MS)}`,
    owner: { recipe: 'priority' },
    read: duration('takeoverMs'),
    fallback: DEFAULT_TAKEOVER_MS,
  },
  watchdogMs: {
    option: 'watchdog-ms',
    help:
      'priority recipe: how long a named contender has to reach READY before the elector passes it over ' +
      '(default 3 × takeover + 1s)',
    owner: { recipe: 'priority' },
    read: duration('watchdogMs'),
  },
  preempt: {
    flag: '--no-preempt',
    option: 'preempt',
    type: 'boolean',
    help: 'priority recipe: the elector replaces a live leader the policy ranks lower (default); --no-preempt keeps it',
    owner: { recipe: 'priority' },
    read: flag,
    fallback: true,
  },
  workload: {
    option: 'workload',
    help:
      "scheduler: the task scheduler's workers (seed 001), --path is its root (default /scheduler); " +
      'lock: acquire → hold → release → think on the lock at --path (default /lock)',
    read: (v) => choice(v, WORKLOADS),
  },
  strategy: {
    option: 'strategy',
    help: 'scheduler: round-robin (default) or random',
    owner: { workload: 'scheduler' },
    read: (v) => choice(v, STRATEGIES),
    fallback: 'round-robin',
  },
  statusTtl: {
    option: 'status-ttl',
    help: `scheduler: how long a job's status znode lives ${by(DEFAULT_STATUS_TTL_MS)}`,
    owner: { workload: 'scheduler' },
    read: duration('statusTtl'),
    fallback: DEFAULT_STATUS_TTL_MS,
  },
  hold: {
    option: 'hold',
    help: `lock: how long a holder keeps the lock ${by(DEFAULT_HOLD_MS)}`,
    owner: { workload: 'lock' },
    read: duration('hold'),
    fallback: DEFAULT_HOLD_MS,
  },
  think: {
    option: 'think',
    help: `lock: the pause between a release and the next try ${by(DEFAULT_THINK_MS)}`,
    owner: { workload: 'lock' },
    read: duration('think'),
    fallback: DEFAULT_THINK_MS,
  },
  fencing: {
    option: 'fencing',
    help: 'lock: on (default: the resource refuses a token lower than one it accepted) or off',
    owner: { workload: 'lock' },
    read: (v) => choice(v, ['on', 'off'] as const),
    fallback: 'on',
  },
  path: {
    option: 'path',
    help: `election path (default ${DEFAULT_PATH})`,
    // Its default is the workload's (src/contenders/spec.ts).
    read: znodePath,
  },
  via: {
    option: 'via',
    help: "all (default) or observers: which of the lab's servers the contenders connect to",
    read: (v) => choice(v, CONTENDER_VIA),
    fallback: 'all',
  },
  connect: {
    option: 'connect',
    help: "HOST:PORT,… of another ensemble instead of the lab's",
    drill: false,
    read: connectString,
  },
  joinTimeout: {
    option: 'join-timeout',
    help: `how long to wait for them to join before taking the spawn back ${by(DEFAULT_JOIN_TIMEOUT_MS)}`,
    read: duration('joinTimeout'),
    fallback: DEFAULT_JOIN_TIMEOUT_MS,
  },
  probe: {
    option: 'probe',
    help:
      "'COMMAND ARGS…' run for each node (no shell): exit 0 = it acts as leader now; " +
      `placeholders ${PLACEHOLDER_WORDS}`,
    read: probeCommand,
  },
  probeInterval: {
    option: 'probe-interval',
    help: `how often each probe runs ${by(DEFAULT_PROBE_INTERVAL_MS)}`,
    owner: { with: 'probe' },
    read: duration('probeInterval'),
    fallback: DEFAULT_PROBE_INTERVAL_MS,
  },
} as const satisfies Readonly<Record<string, ContenderField>>;

export type SpecField = keyof typeof CONTENDER_FIELDS;
export const SPEC_FIELDS = Object.keys(CONTENDER_FIELDS) as readonly SpecField[];

/** Raw values as a front end has them, by field. */
export type ContenderSpecInput = { readonly [K in SpecField]?: unknown };

type Fields = typeof CONTENDER_FIELDS;
/** The fields the table reads alone. */
export type ReadField = { [K in SpecField]: Fields[K] extends { read: unknown } ? K : never }[SpecField];
/** What such a field reads to; undefined when it has no fallback and is not given. */
export type ReadValue<K extends ReadField> = Fields[K] extends { read: (v: unknown) => Read<infer T> }
  ? Fields[K] extends { fallback: unknown }
    ? T
    : T | undefined
  : never;

/** How a command line names a field in messages: `--recipe`, `<count>`, `--no-preempt`. */
export function flagOf(field: SpecField): string {
  const f: ContenderField = CONTENDER_FIELDS[field];
  return f.flag ?? `--${f.option}`;
}
