import { CONTENDER_VIA, type ContenderVia } from '../lab/state.js';
import { UsageError } from '../errors.js';
import { DEFAULT_TAKEOVER_MS } from '../recipes/priority-layout.js';
import { POLICIES, RECIPES, type ElectorPolicy, type OnDisconnect, type RecipeName } from '../recipes/types.js';
import { AUTO_RULE, LEADER_RULE_NAMES, parseLeaderRule, type LeaderRule } from '../recipes/leadership.js';
import { ADAPTERS, CURATOR_ERROR_POLICIES, type AdapterName, type CuratorErrorPolicy } from './adapters/adapters.js';
import { oneOf, wholeNumber } from '../validate.js';
import { parseDuration } from '../duration.js';
import {
  DEFAULT_SCHEDULER_PATH,
  DEFAULT_STATUS_TTL_MS,
  schedulerLayout,
  STRATEGIES,
} from '../recipes/scheduler-layout.js';
import type { LockOptions, SchedulerOptions } from '../recipes/types.js';

export const MAX_CONTENDERS = 200;
export const DEFAULT_SESSION_TIMEOUT_MS = 2000;
export const DEFAULT_PATH = '/election';

/** What a contender runs: one of zklab's recipes, a built-in client adapter, or any program (`--exec`). */
export type ContenderKind = RecipeName | AdapterName | 'exec';
export const CONTENDER_KINDS: readonly ContenderKind[] = [...RECIPES, ...ADAPTERS];

export interface SpawnRequest {
  readonly count: number;
  readonly recipe: ContenderKind;
  /** `exec`: the program and its arguments as given, placeholders not filled in. */
  readonly program?: readonly string[];
  /** Programs and adapters: how ZooKeeper's view tells who leads. Recipes: auto. */
  readonly leaderRule: LeaderRule;
  readonly curatorErrorPolicy?: CuratorErrorPolicy;
  readonly sessionTimeoutMs: number;
  readonly path: string;
  readonly priorities?: readonly number[];
  readonly sites?: readonly string[];
  readonly policy: ElectorPolicy;
  readonly takeoverMs: number;
  /** priority recipe: how long the elector's watchdog gives a named contender to reach READY (default 3 × takeover + 1 s). */
  readonly watchdogMs?: number;
  /** priority recipe: false keeps a live leader whatever the policy says (`--no-preempt`). */
  readonly preempt: boolean;
  readonly onDisconnect: OnDisconnect;
  readonly connect?: string;
  /** `--via observers`: connect to the lab's observers only. */
  readonly via: ContenderVia;
  /** `--workload scheduler`: the contenders are the task scheduler's workers; `path` is its election. */
  readonly scheduler?: SchedulerOptions;
  /** `--workload lock`: the contenders loop on the lock at `path` and write to its protected resource. */
  readonly lock?: LockOptions;
}

export const WORKLOADS = ['scheduler', 'lock'] as const;
export const DEFAULT_LOCK_PATH = '/lock';
export const DEFAULT_HOLD_MS = 200;
export const DEFAULT_THINK_MS = 100;
/** The longest hold or think a lab accepts. */
export const MAX_LOCK_PHASE_MS = 3600_000;
/** The longest status TTL a lab accepts (ZooKeeper's own limit is far beyond what a lab wants to wait). */
export const MAX_STATUS_TTL_MS = 24 * 3600_000;

/** True for the kinds that run a program of their own under a supervisor (adapters and --exec). */
export function runsProgram(kind: string): boolean {
  return kind === 'exec' || (ADAPTERS as readonly string[]).includes(kind);
}

export interface RawSpawnArgs {
  readonly count: unknown;
  readonly recipe?: string;
  readonly sessionTimeout?: unknown;
  readonly path?: string;
  readonly priority?: string;
  readonly site?: string;
  readonly policy?: string;
  readonly takeoverMs?: unknown;
  readonly watchdogMs?: unknown;
  readonly preempt?: boolean;
  readonly onDisconnect?: string;
  readonly connect?: string;
  readonly via?: string;
  /** `--exec` was given. */
  readonly exec?: boolean;
  /** What followed `--`. */
  readonly program?: readonly string[];
  readonly leaderRule?: string | readonly string[];
  readonly curatorErrorPolicy?: string;
  readonly workload?: string;
  readonly strategy?: string;
  readonly statusTtl?: unknown;
  readonly hold?: unknown;
  readonly think?: unknown;
  readonly fencing?: string;
}

function list(v: string | undefined, count: number, what: string): string[] | undefined {
  if (v === undefined) return undefined;
  const items = v.split(',').map((s) => s.trim());
  if (items.length !== count || items.some((s) => s === '')) {
    throw new UsageError(
      `--${what} lists ${items.length} value${items.length === 1 ? '' : 's'} for ${count} contender${count === 1 ? '' : 's'}`,
      `give exactly one ${what} per contender, comma-separated`,
    );
  }
  return items;
}

export function validateZnodePath(p: string): string {
  if (!/^(\/[A-Za-z0-9._:-]+)+$/.test(p))
    throw new UsageError(
      `--path "${p}" is not a ZooKeeper path`,
      'use an absolute path such as /election (letters, digits, . _ : -)',
    );
  return p;
}

export function validateConnect(c: string): string {
  const ok = c.split(',').every((hp) => /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(hp.trim()));
  if (!ok)
    throw new UsageError(`--connect "${c}" is not a list of host:port`, 'e.g. --connect 10.0.0.1:2181,10.0.0.2:2181');
  return c;
}

/** Turns raw command-line values into a spawn request, or throws one UsageError naming what is wrong. */
export function parseSpawnRequest(raw: RawSpawnArgs): SpawnRequest {
  const count = wholeNumber(raw.count, 'the contender count', 1, MAX_CONTENDERS, 'e.g. `zklab contenders spawn 5`');
  const { recipe, program } = kindOf(raw);
  const leaderRule = leaderRuleOf(raw, recipe);
  if (raw.curatorErrorPolicy !== undefined && recipe !== 'curator-latch') {
    throw new UsageError(
      '--curator-error-policy applies to --recipe curator-latch only',
      'drop it, or add --recipe curator-latch',
    );
  }
  const curatorErrorPolicy =
    recipe === 'curator-latch'
      ? oneOf(raw.curatorErrorPolicy, CURATOR_ERROR_POLICIES, '--curator-error-policy', 'standard')
      : undefined;
  const policy = oneOf(raw.policy, POLICIES, 'policy', 'priority');
  const onDisconnect = oneOf(raw.onDisconnect, ['pause', 'ignore'] as const, '--on-disconnect mode', 'pause');
  const sessionTimeoutMs =
    raw.sessionTimeout === undefined
      ? DEFAULT_SESSION_TIMEOUT_MS
      : wholeNumber(
          raw.sessionTimeout,
          '--session-timeout',
          100,
          120_000,
          'milliseconds; the servers clamp it to [2, 20] ticks unless configured otherwise (a lab allows up to 60000)',
        );
  const takeoverMs =
    raw.takeoverMs === undefined
      ? DEFAULT_TAKEOVER_MS
      : wholeNumber(raw.takeoverMs, '--takeover-ms', 0, 60_000, "the priority recipe's PROGRESS → READY work, in ms");
  const watchdogMs = watchdogOf(raw.watchdogMs, takeoverMs, recipe);
  const priorities = list(raw.priority, count, 'priority')?.map((p) => {
    const n = Number(p);
    if (!Number.isInteger(n)) throw new UsageError(`--priority "${p}" is not a whole number`, 'e.g. --priority 5,3,1');
    return n;
  });
  const sites = list(raw.site, count, 'site');
  if (raw.preempt !== undefined && recipe !== 'priority')
    throw new UsageError(
      `--${raw.preempt ? '' : 'no-'}preempt applies to the priority recipe only`,
      'drop it, or add --recipe priority',
    );
  const scheduler = schedulerOf(raw, recipe);
  const lock = lockOf(raw, recipe);
  return {
    count,
    recipe,
    ...(program ? { program } : {}),
    leaderRule,
    ...(curatorErrorPolicy ? { curatorErrorPolicy } : {}),
    policy,
    onDisconnect,
    sessionTimeoutMs,
    takeoverMs,
    ...(watchdogMs === undefined ? {} : { watchdogMs }),
    preempt: raw.preempt ?? true,
    path: scheduler
      ? schedulerLayout(scheduler.root).election
      : validateZnodePath(raw.path ?? (lock ? DEFAULT_LOCK_PATH : DEFAULT_PATH)),
    priorities,
    sites,
    connect: raw.connect === undefined ? undefined : validateConnect(raw.connect),
    via: viaOf(raw),
    ...(scheduler ? { scheduler } : {}),
    ...(lock ? { lock } : {}),
  };
}

/** The watchdog must outlast the takeover it guards, or every takeover would be cut short. */
function watchdogOf(raw: unknown, takeoverMs: number, recipe: ContenderKind): number | undefined {
  if (raw === undefined) return undefined;
  if (recipe !== 'priority')
    throw new UsageError('--watchdog-ms applies to the priority recipe only', 'drop it, or add --recipe priority');
  const ms = wholeNumber(
    raw,
    '--watchdog-ms',
    1,
    600_000,
    'how long the elector waits for a named contender to reach READY, in ms',
  );
  if (ms <= takeoverMs)
    throw new UsageError(
      `--watchdog-ms ${ms} does not outlast --takeover-ms ${takeoverMs}: every takeover would be cut short`,
      `give more than ${takeoverMs}, or leave it out (default 3 × takeover + 1000)`,
    );
  return ms;
}

function viaOf(raw: RawSpawnArgs): ContenderVia {
  const via = oneOf(raw.via, CONTENDER_VIA, '--via', 'all');
  if (via !== 'all' && raw.connect !== undefined)
    throw new UsageError("--via observers applies to the lab's own ensemble, not to --connect", 'drop one of them');
  return via;
}

/** A duration from the command line within [min, max] ms (min 1: positive), or one UsageError. */
export function durationArg(v: unknown, flag: string, range: { min: number; max: number }, example: string): number {
  const d = parseDuration(typeof v === 'number' ? v : String(v));
  if ('error' in d) throw new UsageError(`${flag}: ${d.error}`, example);
  if (d.ms < range.min || d.ms > range.max) {
    throw new UsageError(
      `${flag} ${String(v)} is out of range`,
      `give a duration ${range.min > 0 ? 'above 0' : 'of 0 or more'} and at most ${range.max / 3600_000}h, ${example}`,
    );
  }
  return d.ms;
}

const SCHEDULER_EXAMPLE =
  'e.g. `zklab contenders spawn 3 --workload scheduler --strategy round-robin --status-ttl 30s`';

const LOCK_EXAMPLE = 'e.g. `zklab contenders spawn 5 --workload lock --hold 200ms --think 100ms --fencing on`';

/** Flags that only one workload reads: given without it, they are refused. */
function refuseForeign(raw: RawSpawnArgs, workload: string | undefined): void {
  const owned = [
    ['scheduler', raw.strategy, '--strategy', SCHEDULER_EXAMPLE],
    ['scheduler', raw.statusTtl, '--status-ttl', SCHEDULER_EXAMPLE],
    ['lock', raw.hold, '--hold', LOCK_EXAMPLE],
    ['lock', raw.think, '--think', LOCK_EXAMPLE],
    ['lock', raw.fencing, '--fencing', LOCK_EXAMPLE],
  ] as const;
  for (const [owner, given, flag, example] of owned) {
    if (given !== undefined && workload !== owner)
      throw new UsageError(`${flag} applies to --workload ${owner} only`, example);
  }
  if (workload === undefined) return;
  for (const [given, flag] of [
    [raw.priority, '--priority'],
    [raw.site, '--site'],
    [raw.policy, '--policy'],
    [raw.takeoverMs, '--takeover-ms'],
    [raw.watchdogMs, '--watchdog-ms'],
    [raw.preempt, '--no-preempt'],
    [raw.leaderRule, '--leader-rule'],
  ] as const) {
    if (given !== undefined)
      throw new UsageError(`${flag} applies to election recipes, not to --workload ${workload}`, `drop ${flag}`);
  }
}

function workloadOf(raw: RawSpawnArgs): (typeof WORKLOADS)[number] | undefined {
  const workload = raw.workload === undefined ? undefined : oneOf(raw.workload, WORKLOADS, 'workload', 'scheduler');
  refuseForeign(raw, workload);
  return workload;
}

function lockOf(raw: RawSpawnArgs, recipe: ContenderKind): LockOptions | undefined {
  if (workloadOf(raw) !== 'lock') return undefined;
  if (recipe !== 'predecessor' && recipe !== 'herd') {
    throw new UsageError(
      `--workload lock runs the predecessor or herd recipe, not ${recipe}`,
      'use --recipe predecessor (a queue) or --recipe herd (every waiter watches the lock), or leave --recipe out',
    );
  }
  const phase = (v: unknown, flag: string, fallback: number): number =>
    v === undefined ? fallback : durationArg(v, flag, { min: 0, max: MAX_LOCK_PHASE_MS }, LOCK_EXAMPLE);
  return {
    holdMs: phase(raw.hold, '--hold', DEFAULT_HOLD_MS),
    thinkMs: phase(raw.think, '--think', DEFAULT_THINK_MS),
    fencing: oneOf(raw.fencing, ['on', 'off'] as const, '--fencing mode', 'on') === 'on',
  };
}

function schedulerOf(raw: RawSpawnArgs, recipe: ContenderKind): SchedulerOptions | undefined {
  const workload = workloadOf(raw);
  if (workload !== 'scheduler') return undefined;
  if (recipe !== 'predecessor' || (raw.recipe !== undefined && raw.recipe !== 'predecessor')) {
    throw new UsageError(
      `--workload ${workload} runs its own workers (the predecessor recipe), not ${raw.recipe ?? recipe}`,
      'drop --recipe / --exec',
    );
  }
  const strategy = oneOf(raw.strategy, STRATEGIES, 'strategy', 'round-robin');
  const statusTtlMs =
    raw.statusTtl === undefined
      ? DEFAULT_STATUS_TTL_MS
      : durationArg(raw.statusTtl, '--status-ttl', { min: 1, max: MAX_STATUS_TTL_MS }, 'e.g. --status-ttl 30s');
  const root = validateZnodePath(raw.path ?? DEFAULT_SCHEDULER_PATH);
  return { root, strategy, statusTtlMs };
}

const EXEC_EXAMPLE = 'e.g. `zklab contenders spawn 3 --exec -- python3 my_contender.py {connect}`';

function kindOf(raw: RawSpawnArgs): { recipe: ContenderKind; program?: readonly string[] } {
  const program = raw.program ?? [];
  if (raw.exec) {
    if (raw.recipe !== undefined)
      throw new UsageError(
        '--exec and --recipe name two things to run',
        'give one: --recipe NAME, or --exec -- PROGRAM ARGS…',
      );
    if (program.length === 0 || program[0] === '')
      throw new UsageError('--exec needs a program after --', EXEC_EXAMPLE);
    return { recipe: 'exec', program };
  }
  if (program.length > 0)
    throw new UsageError(`"${program.join(' ')}" after -- is only read with --exec`, EXEC_EXAMPLE);
  return { recipe: oneOf(raw.recipe, CONTENDER_KINDS, 'recipe', 'predecessor') };
}

function leaderRuleOf(raw: RawSpawnArgs, recipe: ContenderKind): LeaderRule {
  if (raw.leaderRule === undefined) return runsProgram(recipe) ? { kind: 'lowest-sequence' } : AUTO_RULE;
  if (!runsProgram(recipe))
    throw new UsageError(
      `--leader-rule applies to programs (--exec, curator-latch, kazoo-election), not to the ${recipe} recipe`,
      'drop --leader-rule: zklab knows how its own recipes elect',
    );
  const text = typeof raw.leaderRule === 'string' ? raw.leaderRule : raw.leaderRule.join(' ');
  const rule = parseLeaderRule(text);
  if (!rule)
    throw new UsageError(
      `unknown --leader-rule "${text}"`,
      `choose ${LEADER_RULE_NAMES.join(' or ')} (NAME: the znode under --path whose owner leads)`,
    );
  return rule;
}
