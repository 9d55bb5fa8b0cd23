import { isConnectString } from '../connect-string.js';
import { formatDuration, parseDuration } from '../duration.js';
import { UsageError } from '../errors.js';
import { isZnodePath } from '../validate.js';
import { labMaxSessionTimeoutMs } from '../ensemble/config.js';
import { CONTENDER_VIA, type ContenderVia } from '../lab/state.js';
import { AUTO_RULE, type LeaderRule, parseLeaderRule } from '../recipes/leadership.js';
import { DEFAULT_TAKEOVER_MS } from '../recipes/priority-layout.js';
import {
  DEFAULT_SCHEDULER_PATH,
  DEFAULT_STATUS_TTL_MS,
  STRATEGIES,
  schedulerLayout,
} from '../recipes/scheduler-layout.js';
import {
  type ElectorPolicy,
  type LockOptions,
  type OnDisconnect,
  POLICIES,
  RECIPES,
  type RecipeName,
  type SchedulerOptions,
} from '../recipes/types.js';
import { ADAPTERS, type AdapterName, CURATOR_ERROR_POLICIES, type CuratorErrorPolicy } from './adapters/adapters.js';
import { bad, choice, durationIn, flag, listOf, ok, type Read, shown, wholeIn } from './spec-values.js';
import { PLACEHOLDERS, unknownPlaceholders } from './placeholders.js';
import { splitShellWords } from '../shell-words.js';

/**
 * A contender spec: what `contenders spawn` reads from its flags and a drill from its `contenders:` section, checked
 * by one validator. Problems come back as `{field, message, hint}` under the drill file's field names; each front
 * end words the field for what the user typed (`--takeover-ms`, `contenders.takeoverMs` at a line). In messages,
 * `«field»` and `«field=value»` name another field, so that each front end can word it too.
 */
export const SPEC_FIELDS = [
  'count',
  'recipe',
  'exec',
  'leaderRule',
  'curatorErrorPolicy',
  'sessionTimeout',
  'onDisconnect',
  'policy',
  'priorities',
  'sites',
  'takeoverMs',
  'watchdogMs',
  'preempt',
  'workload',
  'strategy',
  'statusTtl',
  'hold',
  'think',
  'fencing',
  'path',
  'via',
  'connect',
  'joinTimeout',
  'probe',
  'probeInterval',
] as const;
export type SpecField = (typeof SPEC_FIELDS)[number];

/** Raw values as a front end has them, by field. */
export type ContenderSpecInput = { readonly [K in SpecField]?: unknown };

export interface SpecIssue {
  readonly field: SpecField;
  /** What is wrong, without naming the field itself. */
  readonly message: string;
  /** What to do. */
  readonly hint: string;
}

/** What a contender runs: one of zklab's recipes, a built-in client adapter, or any program (`exec`). */
export type ContenderKind = RecipeName | AdapterName | 'exec';
export const CONTENDER_KINDS: readonly (RecipeName | AdapterName)[] = [...RECIPES, ...ADAPTERS];
export const WORKLOADS = ['scheduler', 'lock'] as const;

export const MAX_CONTENDERS = 200;
export const DEFAULT_SESSION_TIMEOUT_MS = 2000;
export const DEFAULT_PATH = '/election';
export const DEFAULT_LOCK_PATH = '/lock';
export const DEFAULT_HOLD_MS = 200;
export const DEFAULT_THINK_MS = 100;
export const DEFAULT_JOIN_TIMEOUT_MS = 30_000;

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
export const DEFAULT_PROBE_INTERVAL_MS = 250;

/** A checked spec: every default filled in, durations in ms. One spawn of `count` contenders. */
export interface ContenderSpec {
  readonly count: number;
  readonly recipe: ContenderKind;
  /** `exec`: the program and its arguments as given, placeholders not filled in. */
  readonly program?: readonly string[];
  /** Programs and adapters: how ZooKeeper's view tells who leads. Recipes: auto. */
  readonly leaderRule: LeaderRule;
  readonly curatorErrorPolicy?: CuratorErrorPolicy;
  readonly sessionTimeoutMs: number;
  readonly onDisconnect: OnDisconnect;
  readonly policy: ElectorPolicy;
  /** priority recipe: one per contender, c1 first (a drill may list more, for its later spawns). */
  readonly priorities?: readonly number[];
  readonly sites?: readonly string[];
  readonly takeoverMs: number;
  /** priority recipe: how long the elector's watchdog gives a named contender to reach READY (default 3 × takeover + 1 s). */
  readonly watchdogMs?: number;
  /** priority recipe: false keeps a live leader whatever the policy says. */
  readonly preempt: boolean;
  /** The election path (a scheduler's: `<root>/election`). */
  readonly path: string;
  readonly via: ContenderVia;
  /** An ensemble zklab did not start. */
  readonly connect?: string;
  readonly scheduler?: SchedulerOptions;
  readonly lock?: LockOptions;
  /** How long a spawn waits for its contenders to join before it takes them back (a system that copies data first
   * needs longer). */
  readonly joinTimeoutMs: number;
  /**
   * A command zklab runs for each contender every `everyMs` while its node has a process left: exit 0 says the node
   * acts as the leader now (its data plane accepts writes). Placeholders not filled in.
   */
  readonly probe?: { readonly argv: readonly string[]; readonly everyMs: number };
}

/** What is known, where the spec is read, about the ensemble it will run on. */
export interface SpecContext {
  /** The servers' tick: the session timeout must be one they grant ([2, 20] ticks, up to the lab's maximum). */
  readonly tickMs?: number;
  /** How many observers the ensemble has. */
  readonly observers?: number;
  /** Lists may name more values than contenders: a drill's later spawn steps take the rest. */
  readonly extraPerContender?: boolean;
}

/** True for the kinds that run a program of their own under a supervisor (adapters and exec). */
export function runsProgram(kind: string): boolean {
  return kind === 'exec' || (ADAPTERS as readonly string[]).includes(kind);
}

const PRIORITY_ONLY = ['policy', 'priorities', 'sites', 'takeoverMs', 'watchdogMs', 'preempt'] as const;
const WORKLOAD_ONLY = {
  strategy: 'scheduler',
  statusTtl: 'scheduler',
  hold: 'lock',
  think: 'lock',
  fencing: 'lock',
} as const;
export type SpecCheck =
  | { readonly spec: ContenderSpec; readonly issues?: undefined }
  | { readonly spec?: undefined; readonly issues: readonly SpecIssue[] };

/** Checks a spec; every problem found, in field order, or the spec with its defaults. */
export function checkContenderSpec(input: ContenderSpecInput, ctx: SpecContext = {}): SpecCheck {
  const issues: SpecIssue[] = [];
  const take = <T>(field: SpecField, r: Read<T>, fallback: T): T => {
    if ('value' in r) return r.value;
    issues.push({ field, message: r.problem, hint: r.hint });
    return fallback;
  };
  const given = (field: SpecField): boolean => input[field] !== undefined;
  const problem = (field: SpecField, message: string, hint: string) => issues.push({ field, message, hint });

  const count = given('count')
    ? take('count', wholeIn(input.count, 1, MAX_CONTENDERS, 'e.g. 5'), 1)
    : take('count', bad('is required', `say how many contenders, 1 to ${MAX_CONTENDERS}`), 1);
  const workload = given('workload') ? take('workload', choice(input.workload, WORKLOADS), undefined) : undefined;
  const { recipe, program } = kindOf(input, workload, take, problem);

  for (const [field, owner] of Object.entries(WORKLOAD_ONLY) as [SpecField, string][]) {
    if (given(field) && workload !== owner) {
      problem(field, `only applies to «workload=${owner}»`, `remove it, or add «workload=${owner}»`);
    }
  }
  for (const field of PRIORITY_ONLY) {
    if (given(field) && recipe !== 'priority') {
      problem(field, 'only applies to «recipe=priority»', 'remove it, or use «recipe=priority»');
    }
  }
  const leaderRule = leaderRuleOf(input, recipe, take, problem);
  if (given('curatorErrorPolicy') && recipe !== 'curator-latch') {
    problem('curatorErrorPolicy', 'only applies to «recipe=curator-latch»', 'remove it, or use «recipe=curator-latch»');
  }
  const curatorErrorPolicy =
    recipe === 'curator-latch' && given('curatorErrorPolicy')
      ? take('curatorErrorPolicy', choice(input.curatorErrorPolicy, CURATOR_ERROR_POLICIES), 'standard')
      : recipe === 'curator-latch'
        ? 'standard'
        : undefined;
  const sessionTimeoutMs = sessionTimeoutOf(input.sessionTimeout, ctx.tickMs, take);
  const onDisconnect = given('onDisconnect')
    ? take('onDisconnect', choice(input.onDisconnect, ['pause', 'ignore'] as const), 'pause')
    : 'pause';

  const priority = recipe === 'priority';
  const policy = priority && given('policy') ? take('policy', choice(input.policy, POLICIES), 'priority') : 'priority';
  const perContender = (field: 'priorities' | 'sites', item: (v: unknown) => Read<number | string>) => {
    if (!priority || !given(field)) return undefined;
    const list = take(field, listOf(input[field]), undefined);
    if (list === undefined) return undefined;
    const values = list.map((v) => item(v));
    const wrong = values.find((r) => !('value' in r));
    if (wrong && !('value' in wrong)) return take(field, wrong, undefined);
    const few = list.length < count;
    if (few || (list.length > count && !ctx.extraPerContender)) {
      const s = (n: number) => (n === 1 ? '' : 's');
      problem(
        field,
        `lists ${list.length} value${s(list.length)} for ${count} contender${s(count)}`,
        'give exactly one per contender, c1 first',
      );
    }
    return values.map((r) => ('value' in r ? r.value : 0));
  };
  const priorities = perContender('priorities', (v) => wholeIn(v, -1e9, 1e9, 'e.g. 5,3,1')) as number[] | undefined;
  const sites = perContender('sites', (v) =>
    typeof v === 'string' && v !== '' ? ok(v) : bad(`${shown(v)} is not a site name`, 'e.g. a,a,b'),
  ) as string[] | undefined;
  const takeoverMs =
    priority && given('takeoverMs')
      ? take('takeoverMs', durationIn(input.takeoverMs, SPEC_LIMITS.takeoverMs), DEFAULT_TAKEOVER_MS)
      : DEFAULT_TAKEOVER_MS;
  const watchdogMs =
    priority && given('watchdogMs')
      ? take('watchdogMs', durationIn(input.watchdogMs, SPEC_LIMITS.watchdogMs), undefined)
      : undefined;
  if (watchdogMs !== undefined && watchdogMs <= takeoverMs) {
    problem(
      'watchdogMs',
      `${shown(input.watchdogMs)} does not outlast the takeover (${formatDuration(takeoverMs)}): every takeover would be cut short`,
      `give more than ${formatDuration(takeoverMs)}, or leave it out: the default is 3 × takeover + 1s`,
    );
  }
  const preempt = priority && given('preempt') ? take('preempt', flag(input.preempt), true) : true;

  const scheduler = workload === 'scheduler' ? schedulerOf(input, take) : undefined;
  const lock = workload === 'lock' ? lockOf(input, take) : undefined;
  const defaultPath =
    workload === 'lock' ? DEFAULT_LOCK_PATH : workload === 'scheduler' ? DEFAULT_SCHEDULER_PATH : DEFAULT_PATH;
  const path = given('path') ? take('path', znodePath(input.path), defaultPath) : defaultPath;
  const connect = given('connect') ? take('connect', connectString(input.connect), undefined) : undefined;
  const via = given('via') ? take('via', choice(input.via, CONTENDER_VIA), 'all') : 'all';
  if (via === 'observers' && connect !== undefined) {
    problem('via', "applies to the lab's own ensemble, not to «connect»", 'drop one of them');
  }
  const joinTimeoutMs = given('joinTimeout')
    ? take('joinTimeout', durationIn(input.joinTimeout, SPEC_LIMITS.joinTimeout), DEFAULT_JOIN_TIMEOUT_MS)
    : DEFAULT_JOIN_TIMEOUT_MS;
  const probe = given('probe') ? take('probe', probeCommand(input.probe), undefined) : undefined;
  if (given('probeInterval') && !given('probe')) {
    problem('probeInterval', 'only applies with «probe»', 'add «probe», or remove it');
  }
  const everyMs = given('probeInterval')
    ? take('probeInterval', durationIn(input.probeInterval, SPEC_LIMITS.probeInterval), DEFAULT_PROBE_INTERVAL_MS)
    : DEFAULT_PROBE_INTERVAL_MS;
  if (via === 'observers' && ctx.observers === 0) {
    problem('via', 'the ensemble has no observers to connect to', 'give the ensemble observers, or leave «via» out');
  }

  if (issues.length > 0) {
    const order = (f: SpecField) => SPEC_FIELDS.indexOf(f);
    return {
      issues: issues
        .map((i, k) => ({ i, k }))
        .sort((a, b) => order(a.i.field) - order(b.i.field) || a.k - b.k)
        .map((x) => x.i),
    };
  }
  const spec: ContenderSpec = {
    count,
    recipe,
    ...(program ? { program } : {}),
    leaderRule,
    ...(curatorErrorPolicy ? { curatorErrorPolicy } : {}),
    sessionTimeoutMs,
    onDisconnect,
    policy,
    ...(priorities ? { priorities } : {}),
    ...(sites ? { sites } : {}),
    takeoverMs,
    ...(watchdogMs === undefined ? {} : { watchdogMs }),
    preempt,
    path: scheduler ? schedulerLayout(path).election : path,
    via,
    ...(connect === undefined ? {} : { connect }),
    ...(scheduler ? { scheduler: { ...scheduler, root: path } } : {}),
    ...(lock ? { lock } : {}),
    joinTimeoutMs,
    ...(probe ? { probe: { argv: probe, everyMs } } : {}),
  };
  return { spec };
}

type Take = <T>(field: SpecField, r: Read<T>, fallback: T) => T;
type Problem = (field: SpecField, message: string, hint: string) => void;

function kindOf(
  input: ContenderSpecInput,
  workload: string | undefined,
  take: Take,
  problem: Problem,
): { recipe: ContenderKind; program?: readonly string[] } {
  if (input.exec !== undefined) {
    const argv = Array.isArray(input.exec) ? input.exec : [];
    if (argv.length === 0 || argv.some((a) => (typeof a !== 'string' && typeof a !== 'number') || a === '')) {
      problem('exec', 'needs a program and its arguments', 'e.g. «exec=python3 my_service.py {connect}»');
    }
    if (input.recipe !== undefined) {
      problem('exec', 'names a program as well as «recipe»', 'keep one of «recipe» and «exec»');
    }
    if (workload !== undefined) {
      problem('exec', `«workload=${workload}» runs its own workers, not a program`, 'remove «exec»');
    }
    return { recipe: 'exec', program: argv.map(String) };
  }
  const recipe =
    input.recipe === undefined ? 'predecessor' : take('recipe', choice(input.recipe, CONTENDER_KINDS), 'predecessor');
  const allowed: readonly string[] =
    workload === 'lock' ? ['predecessor', 'herd'] : workload ? ['predecessor'] : CONTENDER_KINDS;
  if (workload && !allowed.includes(recipe)) {
    problem(
      'recipe',
      `«workload=${workload}» runs on ${allowed.join(' or ')}, not ${recipe}`,
      `use «recipe=${allowed[0]}», or leave «recipe» out`,
    );
  }
  return { recipe };
}

function leaderRuleOf(input: ContenderSpecInput, recipe: ContenderKind, take: Take, problem: Problem): LeaderRule {
  const programRule: LeaderRule = { kind: 'lowest-sequence' };
  if (input.leaderRule === undefined) return runsProgram(recipe) ? programRule : AUTO_RULE;
  if (!runsProgram(recipe)) {
    problem(
      'leaderRule',
      `only applies to programs («exec», curator-latch, kazoo-election), not to the ${recipe} recipe`,
      'remove it: zklab knows how its own recipes elect',
    );
    return AUTO_RULE;
  }
  const text = Array.isArray(input.leaderRule) ? input.leaderRule.join(' ') : String(input.leaderRule);
  const rule = parseLeaderRule(text);
  return take(
    'leaderRule',
    rule
      ? ok(rule)
      : bad(
          `${shown(text)} is not a leader rule`,
          'use lowest-sequence, or "single-node NAME": whoever owns that znode under the path leads',
        ),
    programRule,
  );
}

function sessionTimeoutOf(raw: unknown, tickMs: number | undefined, take: Take): number {
  // With the tick known, only what the servers will grant: [2, 20] ticks, up to the lab's maximum.
  const range =
    tickMs === undefined ? SPEC_LIMITS.sessionTimeout : { min: 2 * tickMs, max: labMaxSessionTimeoutMs(tickMs) };
  const fallback = Math.min(Math.max(DEFAULT_SESSION_TIMEOUT_MS, range.min), range.max);
  if (raw === undefined) return fallback;
  const r = durationIn(raw, range);
  // A duration out of the range a known tick allows is worded as what the servers grant.
  if (tickMs === undefined || 'value' in r || 'error' in parseDuration(raw)) return take('sessionTimeout', r, fallback);
  const granted = `${formatDuration(range.min)} to ${formatDuration(range.max)}`;
  return take(
    'sessionTimeout',
    bad(
      `${shown(raw)} is not what servers with tick ${tickMs}ms grant (${granted})`,
      "give one in that range, or change the ensemble's tick",
    ),
    fallback,
  );
}

function schedulerOf(input: ContenderSpecInput, take: Take): Omit<SchedulerOptions, 'root'> {
  return {
    strategy:
      input.strategy === undefined
        ? 'round-robin'
        : take('strategy', choice(input.strategy, STRATEGIES), 'round-robin'),
    statusTtlMs:
      input.statusTtl === undefined
        ? DEFAULT_STATUS_TTL_MS
        : take('statusTtl', durationIn(input.statusTtl, SPEC_LIMITS.statusTtl), DEFAULT_STATUS_TTL_MS),
  };
}

function lockOf(input: ContenderSpecInput, take: Take): LockOptions {
  const phase = (field: 'hold' | 'think', fallback: number) =>
    input[field] === undefined ? fallback : take(field, durationIn(input[field], SPEC_LIMITS[field]), fallback);
  const fencing =
    input.fencing === undefined ? 'on' : take('fencing', choice(input.fencing, ['on', 'off'] as const), 'on');
  return {
    holdMs: phase('hold', DEFAULT_HOLD_MS),
    thinkMs: phase('think', DEFAULT_THINK_MS),
    fencing: fencing === 'on',
  };
}

const PROBE_EXAMPLE =
  "e.g. «probe=pg_isready -p 54{n}» or, for a pipeline, «probe=sh -c 'curl -s :80{n} | grep primary'»";

/** A probe: an argument vector (a drill's list), or a command line split as a shell would, with no shell run. */
function probeCommand(v: unknown): Read<readonly string[]> {
  let argv: readonly string[];
  if (typeof v === 'string') {
    const split = splitShellWords(v);
    if ('error' in split) return bad(`${shown(v)}: ${split.error}`, PROBE_EXAMPLE);
    argv = split.words;
  } else if (Array.isArray(v) && v.every((a) => typeof a === 'string' || typeof a === 'number')) {
    argv = v.map(String);
  } else {
    return bad(`expected a command and its arguments, got ${shown(v)}`, PROBE_EXAMPLE);
  }
  if (argv.length === 0 || argv[0] === '') return bad('needs a command', PROBE_EXAMPLE);
  const unknown = unknownPlaceholders(argv);
  if (unknown.length > 0) {
    return bad(
      `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a placeholder' : 'are not placeholders'}`,
      `use ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
    );
  }
  return ok(argv);
}

function znodePath(v: unknown): Read<string> {
  if (isZnodePath(v)) return ok(v);
  return bad(`${shown(v)} is not a ZooKeeper path`, 'use an absolute path such as /election: letters, digits, . _ : -');
}

function connectString(v: unknown): Read<string> {
  if (typeof v === 'string' && isConnectString(v)) return ok(v);
  return bad(`${shown(v)} is not a list of host:port`, 'e.g. 10.0.0.1:2181,10.0.0.2:2181');
}

/** The spec of the k-th contender (0-based) of a checked spec: one contender, its own priority and site. */
export function specOfContender(spec: ContenderSpec, k: number): ContenderSpec {
  const { priorities, sites, ...rest } = spec;
  const site = sites?.[k];
  // Beyond a drill's lists, a spawned contender has priority 0 and no site.
  return {
    ...rest,
    count: 1,
    ...(priorities ? { priorities: [priorities[k] ?? 0] } : {}),
    ...(site ? { sites: [site] } : {}),
  };
}

/** A spec that must be right (zklab's own callers, tests): its first problem as a UsageError otherwise. */
export function requireContenderSpec(input: ContenderSpecInput, ctx: SpecContext = {}): ContenderSpec {
  const r = checkContenderSpec(input, ctx);
  if (r.spec) return r.spec;
  const first = r.issues[0]!;
  const name = (field: string, value?: string) => (value === undefined ? field : `${field}: ${value}`);
  throw new UsageError(`${first.field}: ${wordRefs(first.message, name)}`, wordRefs(first.hint, name));
}

/** Text with `«field»` / `«field=value»` references worded by `name` (a front end's way of naming a field). */
export function wordRefs(text: string, name: (field: SpecField, value?: string) => string): string {
  return text.replace(/«(\w+)(?:=([^»]*))?»/g, (_, field: string, value?: string) => name(field as SpecField, value));
}
