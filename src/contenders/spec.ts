import { formatDuration, parseDuration } from '../duration.js';
import { UsageError } from '../errors.js';
import { labSessionBounds } from '../ensemble/config.js';
import type { ContenderVia } from '../lab/state.js';
import { AUTO_RULE, type LeaderRule, parseLeaderRule } from '../recipes/leadership.js';
import { DEFAULT_SCHEDULER_PATH, schedulerLayout } from '../recipes/scheduler-layout.js';
import {
  type ElectorPolicy,
  type LockOptions,
  type OnDisconnect,
  RECIPES,
  type RecipeName,
  type SchedulerOptions,
} from '../recipes/types.js';
import { ADAPTERS, type AdapterName, type CuratorErrorPolicy } from './adapters/adapters.js';
import {
  CONTENDER_FIELDS,
  type ContenderField,
  type ContenderSpecInput,
  DEFAULT_LOCK_PATH,
  DEFAULT_PATH,
  DEFAULT_SESSION_TIMEOUT_MS,
  type FieldOwner,
  MAX_CONTENDERS,
  type ReadField,
  type ReadValue,
  SPEC_FIELDS,
  SPEC_LIMITS,
  type SpecField,
  WORKLOADS,
} from './fields.js';
import { bad, choice, durationIn, listOf, ok, type Read, shown, wholeIn } from './spec-values.js';

export { DEFAULT_PATH, SPEC_FIELDS, type ContenderSpecInput, type SpecField } from './fields.js';

/**
 * A contender spec: what `contenders spawn` reads from its flags and a drill from its `contenders:` section, checked
 * by one validator over the fields of one table (`fields.ts`). Problems come back as `{field, message, hint}` under
 * the drill file's field names; each front end words the field for what the user typed (`--takeover-ms`,
 * `contenders.takeoverMs` at a line). In messages, `«field»` and `«field=value»` name another field, so that each
 * front end can word it too.
 */
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

  const owned = (owner: FieldOwner): boolean =>
    'recipe' in owner
      ? recipe === owner.recipe
      : 'workload' in owner
        ? workload === owner.workload
        : 'programs' in owner
          ? runsProgram(recipe)
          : given(owner.with);
  for (const field of SPEC_FIELDS) {
    const { owner }: ContenderField = CONTENDER_FIELDS[field];
    if (owner && given(field) && !owned(owner)) problem(field, ...ownerProblem(owner, recipe));
  }
  /** A field the table reads: its fallback when not given, or given for another recipe or workload. */
  const value = <K extends ReadField>(field: K): ReadValue<K> => {
    const f: ContenderField = CONTENDER_FIELDS[field];
    // One that needs another field beside it is still checked on its own: both problems are worth fixing.
    const read = given(field) && (!f.owner || 'with' in f.owner || owned(f.owner));
    return (read ? take(field, f.read!(input[field]), f.fallback) : f.fallback) as ReadValue<K>;
  };

  const leaderRule = leaderRuleOf(input, recipe, take);
  const curatorErrorPolicy = recipe === 'curator-latch' ? value('curatorErrorPolicy') : undefined;
  const sessionTimeoutMs = sessionTimeoutOf(input.sessionTimeout, ctx.tickMs, take);
  const onDisconnect = value('onDisconnect');

  const priority = recipe === 'priority';
  const policy = value('policy');
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
  const takeoverMs = value('takeoverMs');
  const watchdogMs = value('watchdogMs');
  if (watchdogMs !== undefined && watchdogMs <= takeoverMs) {
    problem(
      'watchdogMs',
      `${shown(input.watchdogMs)} does not outlast the takeover (${formatDuration(takeoverMs)}): every takeover would be cut short`,
      `give more than ${formatDuration(takeoverMs)}, or leave it out: the default is 3 × takeover + 1s`,
    );
  }
  const preempt = value('preempt');

  const scheduler =
    workload === 'scheduler' ? { strategy: value('strategy'), statusTtlMs: value('statusTtl') } : undefined;
  const lock =
    workload === 'lock'
      ? { holdMs: value('hold'), thinkMs: value('think'), fencing: value('fencing') === 'on' }
      : undefined;
  const defaultPath =
    workload === 'lock' ? DEFAULT_LOCK_PATH : workload === 'scheduler' ? DEFAULT_SCHEDULER_PATH : DEFAULT_PATH;
  const path = value('path') ?? defaultPath;
  const connect = value('connect');
  const via = value('via');
  if (via === 'observers' && connect !== undefined) {
    problem('via', "applies to the lab's own ensemble, not to «connect»", 'drop one of them');
  }
  const joinTimeoutMs = value('joinTimeout');
  const probe = value('probe');
  const everyMs = value('probeInterval');
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

/** What a field given without its owner is told, worded by the owner. */
function ownerProblem(owner: FieldOwner, recipe: ContenderKind): [message: string, hint: string] {
  if ('recipe' in owner)
    return [`only applies to «recipe=${owner.recipe}»`, `remove it, or use «recipe=${owner.recipe}»`];
  if ('workload' in owner) {
    return [`only applies to «workload=${owner.workload}»`, `remove it, or add «workload=${owner.workload}»`];
  }
  if ('programs' in owner) {
    return [
      `only applies to programs («exec», curator-latch, kazoo-election), not to the ${recipe} recipe`,
      `remove it: ${owner.why}`,
    ];
  }
  return [`only applies with «${owner.with}»`, `add «${owner.with}», or remove it`];
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

function leaderRuleOf(input: ContenderSpecInput, recipe: ContenderKind, take: Take): LeaderRule {
  const programRule: LeaderRule = { kind: 'lowest-sequence' };
  // Given for a recipe, it is refused as a field without its owner.
  if (!runsProgram(recipe)) return AUTO_RULE;
  if (input.leaderRule === undefined) return programRule;
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
  // With the tick known, only what the lab's servers will grant.
  const bounds = tickMs === undefined ? undefined : labSessionBounds(tickMs);
  const range = bounds === undefined ? SPEC_LIMITS.sessionTimeout : { min: bounds.minMs, max: bounds.maxMs };
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
