/**
 * Drill files: YAML, validated strictly (unknown fields and step kinds are errors), every error reported as one
 * line `<file>:<line>: <field path>: <what is wrong> (<what to do>)`.
 *
 * ```yaml
 * name: leader-dies-no-herd            # lowercase letters, digits, dashes
 * description: ...                     # optional
 * ensemble: { servers: 3, tick: 200 }  # optional; these are the defaults (tick in ms or a duration); observers: 2
 *                                      # adds non-voting servers zk4, zk5
 * contenders:
 *   count: 5
 *   recipe: predecessor                # herd | predecessor | single-file | priority
 *   sessionTimeout: 2s                 # optional, default 2s clamped to [2, 20] ticks; must lie in that range
 *   onDisconnect: pause                # pause (default) | ignore (keeps leading through a disconnect: unsafe)
 *   policy: priority                   # priority recipe only: priority | site | first
 *   priorities: [10, 5, 1]             # priority recipe only: one per contender, c1 first; extra entries go to
 *                                      # contenders added by spawn (beyond the list: priority 0)
 *   sites: [a, b, b]                   # priority recipe only: likewise
 *   takeoverMs: 500                    # priority recipe only: how long the PROGRESS -> READY takeover takes; the
 *                                      # elector's watchdog excludes a candidate stuck for 3x that + 1s
 *   watchdogMs: 5s                     # priority recipe only: that watchdog's bound instead (more than takeoverMs)
 *   preempt: false                     # priority recipe only: keep a live leader whatever the policy says (the
 *                                      # elector pre-empts by default)
 *   workload: scheduler                # the task scheduler's workers (recipe predecessor); with it, and only with it:
 *   strategy: round-robin              #   round-robin (default) | random: how the leader picks a worker
 *   statusTtl: 30s                     #   the TTL of each finished job's status znode (default 30s)
 *   path: /scheduler                   #   its root (default /scheduler); the workers elect at <path>/election
 *   workload: lock                     # lock holders (recipe predecessor: a queue, or herd); with it, and only with it:
 *   hold: 200ms                        #   how long a holder keeps the lock (default 200ms)
 *   think: 100ms                       #   the pause between a release and the next try (default 100ms)
 *   fencing: on                        #   on (default): the resource refuses stale tokens; off: it takes every write
 *   path: /lock                        #   the lock (default /lock)
 *   via: observers                     # connect to the ensemble's observers only (default all servers)
 * steps:                               # each item is a one-key mapping <kind>: <value>
 *   - wait: { leader: true, timeout: 10s }    # conditions: leader, leaderIs, joined, serving, notServing, jobsDone;
 *                                             # all must hold; a timeout is required
 *   - kill: leader                            # or { target: c3, signal: TERM } (KILL by default)
 *   - pause: leader                           # SIGSTOP; resume: <target> | all
 *   - partition: { isolate: leader }          # or { split: [[zk1], [zk2, zk3, c1]] } (members not named form
 *                                             # one more group); heal: all | <target> (also clears its delay)
 *   - delay: { target: c2, ms: 300, jitter: 50 }
 *   - spawn: 1                                # adds contenders c<count+1>...; later steps may name them
 *   - stop: c2                                # clean stop (SIGTERM); restart: zk1 | zk-leader | all (servers;
 *                                             # its report line says how long the server was unavailable)
 *   - add: participant                        # or observer: start a server and join it by reconfig (it takes the
 *                                             # lowest free id); remove: zk4 | zk-leader leaves by reconfig, stops
 *   - sleep: 2s
 *   - jobs: { submit: 9, kind: sleep, ms: 3s }  # scheduler: queue jobs (sleep { ms } | sum { args: [1, 2] } | fail);
 *                                             # `jobs: 9` is 9 sleep jobs of 200ms; with over: 4s they are streamed
 *                                             # evenly over 4s in the background (the next step starts at once; the
 *                                             # run waits for the stream before judging)
 *   - failpoint: { target: leader, at: before-assign, action: crash }
 *                                             # target leader | cN; action crash | pause | hang, once, at a point of
 *                                             # the contender's recipe (scheduler: before-assign, after-assign,
 *                                             # before-status, after-status-before-unassign, after-create-before-watch)
 *   - priority: { preferSite: b }            # priority recipe: write the policy znode as `zklab priority prefer-site`
 *                                             # does, or { set: { c2: 50 } } as `priority set`; newLeaderWithin
 *                                             # measures from it
 *   - wait: { jobsDone: true, timeout: 20s }  # every job submitted so far has its status (or jobsDone: 5: five have)
 *   - expect: { newLeaderWithin: 3s }         # also noLeaderChange: 2s, leaderIs: c2, leaderIsNot: c1,
 *                                             # notificationsPerDeath: { max: 1 }, state: { c1: follower },
 *                                             # allJobsDoneWithin: 20s (scheduler: every job submitted so far has
 *                                             # its status within 20s of this step), everyoneAcquiresWithin: 5s
 *                                             # (lock: every live contender holds the lock within 5s of this step)
 *   - repeat: { times: 3, steps: [...] }
 * checks: [singleLeader, { herdSize: { max: 1 } }]  # optional, default the election's four with defaults:
 *                                             # singleLeader, failoverTime { max }, herdSize { max, window },
 *                                             # liveness { within (30s) }; for the scheduler also
 *                                             # noLostJobs { within (30s) }, executionsPerJob { max (1) },
 *                                             # statusTtl { slack (2s) }; for the lock workload
 *                                             # mutualExclusion, fencedWrites, lockProgress { within (10s) },
 *                                             # notificationsPerRelease { max, min } (mean contenders woken);
 *                                             # for the priority recipe preemption { within (5s) }
 * expectFailure: [singleLeader]               # optional: checks this drill exists to make fail
 * variants:                                   # optional: run once per variant, each on a fresh lab
 *   - { name: standard, contenders: { curatorErrorPolicy: standard } }
 *   - { name: session, contenders: { curatorErrorPolicy: session }, expectFailure: [singleLeader] }
 * ```
 * Contenders may run a client adapter (recipe: curator-latch | kazoo-election, with curatorErrorPolicy:
 * standard | session for Curator) or any program: `exec: [python3, my_contender.py, "{connect}"]`, judged by
 * `leaderRule: lowest-sequence` (default) or `"single-node NAME"`.
 * Targets: leader (the leading contender when the step runs), zk-leader (the quorum leader then), c1..cM, zk1..zkN,
 * all. In `resume`/`heal`, the runner resolves `leader` to the contender the matching pause/partition hit.
 *
 * Runner contract the built-in drills rely on: the initial contenders start in order, each after the previous one
 * has joined, so c1 holds the lowest sequence number (it leads first, and in a predecessor chain c2 watches c1, c3
 * watches c2, ...). `spawn` likewise returns once the new contenders have joined.
 */
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import {
  DEFAULT_SESSION_TIMEOUT_MS,
  MAX_STATUS_TTL_MS,
  validateZnodePath,
  WORKLOADS,
} from '../../contenders/options.js';
import { failpointsOf } from '../../recipes/failpoint-names.js';
import { DEFAULT_TAKEOVER_MS } from '../../recipes/priority-layout.js';
import { STRATEGIES } from '../../recipes/scheduler-layout.js';
import { labMaxSessionTimeoutMs, observerShape } from '../../ensemble/config.js';
import { MAX_SERVERS } from '../../lab/ports.js';
import { UsageError } from '../../errors.js';
import { NEEDS_SCHEDULER, parseSteps, type ContenderTraits } from './steps.js';
import { parseLeaderRule } from '../../recipes/leadership.js';
import { CURATOR_ERROR_POLICIES } from '../../contenders/adapters/adapters.js';
import {
  CHECK_NAMES,
  DEFAULT_CHECKS,
  JOB_CHECKS,
  LOCK_CHECKS,
  ON_DISCONNECT,
  PRIORITY_POLICIES,
  RECIPES,
  type CheckConfig,
  type CheckName,
  type ContenderSpec,
  type Drill,
  type DrillVariant,
} from './types.js';
import { formatPath, lineOf, locate } from './yaml-lines.js';
import { duration, errorMap, fromZod, strict, type RawIssue } from './zod-helpers.js';

export interface DrillIssue {
  readonly line: number;
  /** e.g. `steps[2].kill.target`. */
  readonly path: string;
  /** "what is wrong (what to do)". */
  readonly message: string;
}

export function formatDrillIssue(file: string, issue: DrillIssue): string {
  return `${file}:${issue.line}: ${issue.path}: ${issue.message}`;
}

/** A drill file that does not parse or validate; the message holds one line per problem. */
export class DrillFileError extends UsageError {
  constructor(
    readonly file: string,
    readonly issues: readonly DrillIssue[],
  ) {
    super(issues.map((i) => formatDrillIssue(file, i)).join('\n'), 'fix the drill file and run it again');
  }
}

const checkOptions = {
  singleLeader: strict({}),
  failoverTime: strict({ max: duration().optional() }),
  herdSize: strict({ max: z.number().int().min(0).optional(), window: duration().optional() }),
  liveness: strict({ within: duration().optional() }),
  noLostJobs: strict({ within: duration().optional() }),
  executionsPerJob: strict({ max: z.number().int().min(1).optional() }),
  statusTtl: strict({ slack: duration().optional() }),
  mutualExclusion: strict({}),
  fencedWrites: strict({}),
  lockProgress: strict({ within: duration().optional() }),
  notificationsPerRelease: strict({ max: z.number().min(0).optional(), min: z.number().min(0).optional() }),
  preemption: strict({ within: duration().optional() }),
};

/** `herdSize` is short for `{ herdSize: {} }`. */
const checkEntry = z.preprocess(
  (v) => (typeof v === 'string' ? { [v]: {} } : v),
  strict({
    singleLeader: checkOptions.singleLeader.optional(),
    failoverTime: checkOptions.failoverTime.optional(),
    herdSize: checkOptions.herdSize.optional(),
    liveness: checkOptions.liveness.optional(),
    noLostJobs: checkOptions.noLostJobs.optional(),
    executionsPerJob: checkOptions.executionsPerJob.optional(),
    statusTtl: checkOptions.statusTtl.optional(),
    mutualExclusion: checkOptions.mutualExclusion.optional(),
    fencedWrites: checkOptions.fencedWrites.optional(),
    lockProgress: checkOptions.lockProgress.optional(),
    notificationsPerRelease: checkOptions.notificationsPerRelease.optional(),
    preemption: checkOptions.preemption.optional(),
  }),
);

const sections = {
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'is not a drill name (use lowercase letters, digits and dashes)' }),
  description: z.string().optional(),
  ensemble: strict({
    servers: z.number().int().min(1).max(9).default(3),
    observers: z.number().int().min(0).max(8).default(0),
    tick: duration().default(200),
  }).default({
    servers: 3,
    observers: 0,
    tick: 200,
  }),
  contenders: contendersSchema(),
  steps: z.array(z.unknown()).min(1),
  checks: z.array(checkEntry).optional(),
  expectFailure: z.array(z.enum(CHECK_NAMES)).optional(),
  variants: z
    .array(
      strict({
        name: z
          .string()
          .regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'is not a variant name (use lowercase letters, digits and dashes)' }),
        contenders: z.record(z.string(), z.unknown()).optional(),
        expectFailure: z.array(z.enum(CHECK_NAMES)).optional(),
      }),
    )
    .min(1)
    .optional(),
};

function contendersSchema() {
  return strict({
    count: z.number().int().min(1).max(50),
    recipe: z.enum(RECIPES).optional(),
    exec: z.array(z.string().min(1)).min(1).optional(),
    leaderRule: z.string().optional(),
    curatorErrorPolicy: z.enum(CURATOR_ERROR_POLICIES).optional(),
    sessionTimeout: duration().optional(),
    onDisconnect: z.enum(ON_DISCONNECT).default('pause'),
    policy: z.enum(PRIORITY_POLICIES).optional(),
    priorities: z.array(z.number().int()).optional(),
    sites: z.array(z.string().min(1)).optional(),
    takeoverMs: duration().optional(),
    watchdogMs: duration().optional(),
    preempt: z.boolean().optional(),
    workload: z.enum(WORKLOADS).optional(),
    strategy: z.enum(STRATEGIES).optional(),
    statusTtl: duration().optional(),
    hold: duration().optional(),
    think: duration().optional(),
    fencing: z.enum(['on', 'off']).optional(),
    path: z.string().optional(),
    via: z.enum(['all', 'observers']).optional(),
  });
}

type Section = keyof typeof sections;
type SectionValue<K extends Section> = z.output<(typeof sections)[K]>;

/** Parses and validates a drill file; throws DrillFileError listing every problem found. */
export function parseDrill(text: string, file: string): Drill {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  if (doc.errors.length > 0) {
    throw new DrillFileError(
      file,
      doc.errors.map((e) => ({
        line: e.linePos?.[0].line ?? 1,
        path: '(yaml)',
        message: `${(e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')} (fix the YAML syntax)`,
      })),
    );
  }
  const issues: RawIssue[] = [];
  const lineFor = (path: readonly (string | number)[]) => lineOf(doc, lc, path);
  const drill = validate(doc.toJS(), file, issues, lineFor);
  if (issues.length > 0 || !drill) {
    // What is written wrong comes first, in line order; then what is missing. A missing field points at the line of
    // its parent, above its usual cause (a section indented into a step, a misspelt or misplaced key), and would
    // otherwise be read first: `contenders: is required` before the step that swallowed the contenders.
    const located = issues.map((i) => ({ ...locate(doc, lc, i.path), path: formatPath(i.path), message: i.message }));
    located.sort((a, b) => Number(a.missing) - Number(b.missing) || a.line - b.line);
    throw new DrillFileError(
      file,
      located.map(({ line, path, message }) => ({ line, path, message })),
    );
  }
  return drill;
}

/** Each section is validated on its own so that one bad section does not hide the problems of the others. */
function validate(
  input: unknown,
  file: string,
  issues: RawIssue[],
  lineFor: (path: readonly (string | number)[]) => number,
): Drill | undefined {
  if (input === null || input === undefined) {
    issues.push({
      path: [],
      message: 'the file is empty (write a drill: name, contenders, steps; see templates/drills/)',
    });
    return undefined;
  }
  const shape = strict(Object.fromEntries(Object.keys(sections).map((k) => [k, z.unknown().optional()])));
  const top = shape.safeParse(input, { error: errorMap });
  if (!top.success) {
    issues.push(...fromZod(top.error));
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  }
  const raw = input as Record<string, unknown>;
  const section = <K extends Section>(key: K): SectionValue<K> | undefined => {
    const r = sections[key].safeParse(raw[key], { error: errorMap });
    if (r.success) return r.data as SectionValue<K>;
    issues.push(...fromZod(r.error, [key]));
    return undefined;
  };
  const name = section('name');
  const description = section('description');
  const ensemble = section('ensemble');
  const contendersRaw = section('contenders');
  const stepValues = section('steps');
  const checkEntries = section('checks');
  const expectFailure = section('expectFailure') ?? [];
  const variantsRaw = section('variants');

  const ensembleShape = ensemble ? observerShape(ensemble.servers, ensemble.observers) : 'ok';
  if (ensemble && ensembleShape === 'needs-voters') {
    issues.push({
      path: ['ensemble', 'observers'],
      message: `needs at least 2 voting servers beside it, not ${ensemble.servers} (a single server runs standalone)`,
    });
  }
  if (ensemble && ensembleShape === 'too-many') {
    issues.push({
      path: ['ensemble', 'observers'],
      message: `${ensemble.servers} servers and ${ensemble.observers} observers make ${ensemble.servers + ensemble.observers}; a lab runs at most ${MAX_SERVERS}`,
    });
  }
  if (ensemble && contendersRaw?.via === 'observers' && ensemble.observers === 0) {
    issues.push({
      path: ['contenders', 'via'],
      message: 'the ensemble has no observers to connect to (add observers: N to ensemble)',
    });
  }
  const contenders = contendersRaw && ensemble ? checkContenders(contendersRaw, ensemble.tick, issues) : undefined;
  const scope =
    contenders && ensemble ? { servers: ensemble.servers + ensemble.observers, contenders: contenders.count } : null;
  const traits = contenders ? traitsOf(contenders) : null;
  const { steps } = parseSteps(stepValues ?? [], ['steps'], scope, { lineOf: lineFor, issues, contenders: traits });
  const { checks, names } = normalizeChecks(checkEntries);
  if (traits && !traits.scheduler) {
    (checkEntries ?? []).forEach((entry, i) => {
      for (const name of Object.keys(entry)) {
        if ((JOB_CHECKS as readonly string[]).includes(name))
          issues.push({ path: ['checks', i, name], message: `judges jobs: it ${NEEDS_SCHEDULER}` });
      }
    });
  }
  (checkEntries ?? []).forEach((entry, i) => {
    for (const name of Object.keys(entry)) {
      if (contenders && contenders.workload !== 'lock' && (LOCK_CHECKS as readonly string[]).includes(name)) {
        issues.push({
          path: ['checks', i, name],
          message: 'judges the lock workload: it needs lock holders (add workload: lock to contenders)',
        });
      }
      if (contenders && contenders.recipe !== 'priority' && name === 'preemption') {
        issues.push({
          path: ['checks', i, name],
          message: "judges the priority recipe's hand-overs: it needs recipe: priority",
        });
      }
    }
  });
  const wake = checks.notificationsPerRelease;
  if (wake?.min !== undefined && wake.max !== undefined && wake.min > wake.max) {
    const i = (checkEntries ?? []).findIndex((e) => e.notificationsPerRelease !== undefined);
    issues.push({
      path: ['checks', i, 'notificationsPerRelease', 'min'],
      message: `${wake.min} is above max ${wake.max} (no mean can pass; lower min or raise max)`,
    });
  }
  expectFailure.forEach((check, i) => {
    if (!names.includes(check)) {
      issues.push({ path: ['expectFailure', i], message: `${check} is not among the checks (add it to checks)` });
    }
  });
  const variants = variantsRaw?.map((v, i): DrillVariant => {
    const merged = sections.contenders.safeParse(
      { ...(raw.contenders as object), ...v.contenders },
      { error: errorMap },
    );
    if (!merged.success) issues.push(...fromZod(merged.error, ['variants', i, 'contenders']));
    (v.expectFailure ?? []).forEach((check, k) => {
      if (!names.includes(check))
        issues.push({
          path: ['variants', i, 'expectFailure', k],
          message: `${check} is not among the checks (add it to checks)`,
        });
    });
    const spec = merged.success && ensemble ? checkContenders(merged.data, ensemble.tick, issues) : undefined;
    if (spec && contenders && spec.count !== contenders.count)
      issues.push({
        path: ['variants', i, 'contenders', 'count'],
        message: 'differs from contenders.count (the steps name the contenders; keep the count)',
      });
    if (spec && contenders && spec.workload !== contenders.workload)
      issues.push({
        path: ['variants', i, 'contenders', 'workload'],
        message: 'differs from contenders.workload (the steps and checks depend on it; keep it)',
      });
    return { name: v.name, contenders: spec ?? contenders!, expectFailure: v.expectFailure ?? expectFailure };
  });
  if (variants && new Set(variants.map((v) => v.name)).size !== variants.length)
    issues.push({ path: ['variants'], message: 'names a variant twice (give each a name of its own)' });
  if (name === undefined || !ensemble || !contenders || issues.length > 0) return undefined;
  const drill: Drill = {
    file,
    name,
    ensemble,
    contenders,
    contendersLine: lineFor(['contenders']),
    steps,
    checks,
    expectFailure,
    ...(variants ? { variants } : {}),
  };
  return description === undefined ? drill : { ...drill, description };
}

function checkContenders(c: SectionValue<'contenders'>, tick: number, issues: RawIssue[]): ContenderSpec {
  const at = (field: string) => ['contenders', field];
  const [min, max] = [2 * tick, labMaxSessionTimeoutMs(tick)];
  const sessionTimeout = c.sessionTimeout ?? Math.min(Math.max(DEFAULT_SESSION_TIMEOUT_MS, min), max);
  if (sessionTimeout < min || sessionTimeout > max) {
    issues.push({
      path: at('sessionTimeout'),
      message:
        `${sessionTimeout}ms is outside what the lab's servers grant with tick ${tick}ms ` +
        `(use ${min}ms..${max}ms, or change ensemble.tick)`,
    });
  }
  if (c.workload === undefined && (c.recipe === undefined) === (c.exec === undefined)) {
    issues.push({
      path: at(c.recipe === undefined ? 'recipe' : 'exec'),
      message:
        c.recipe === undefined
          ? 'is required (name a recipe, or a program with exec: [program, args…])'
          : 'names a program as well as a recipe (keep one of recipe and exec)',
    });
  }
  checkWorkload(c, issues);
  const program = c.exec !== undefined || c.recipe === 'curator-latch' || c.recipe === 'kazoo-election';
  if (c.leaderRule !== undefined && !program)
    issues.push({ path: at('leaderRule'), message: 'only applies to programs (exec, curator-latch, kazoo-election)' });
  if (c.leaderRule !== undefined && parseLeaderRule(c.leaderRule) === undefined)
    issues.push({
      path: at('leaderRule'),
      message: 'is not a leader rule (use lowest-sequence or "single-node NAME")',
    });
  if (c.curatorErrorPolicy !== undefined && c.recipe !== 'curator-latch')
    issues.push({ path: at('curatorErrorPolicy'), message: 'only applies to recipe: curator-latch' });
  for (const field of ['policy', 'priorities', 'sites', 'takeoverMs', 'watchdogMs', 'preempt'] as const) {
    if (c[field] !== undefined && c.recipe !== 'priority') {
      issues.push({
        path: at(field),
        message: `only applies to the priority recipe (remove it or use recipe: priority)`,
      });
    }
  }
  if (c.watchdogMs !== undefined && c.watchdogMs <= (c.takeoverMs ?? DEFAULT_TAKEOVER_MS)) {
    issues.push({
      path: at('watchdogMs'),
      message: `must outlast the takeover (${c.takeoverMs ?? DEFAULT_TAKEOVER_MS} ms), or every takeover is cut short`,
    });
  }
  for (const field of ['priorities', 'sites'] as const) {
    const list = c[field];
    if (list && list.length < c.count) {
      issues.push({
        path: at(field),
        message: `has ${list.length} entries for ${c.count} contenders (give one per contender)`,
      });
    }
  }
  const { sessionTimeout: _, ...rest } = c;
  // The scheduler's workers run the predecessor recipe, said or not.
  const recipe =
    c.workload !== undefined && c.recipe === undefined && c.exec === undefined
      ? { recipe: 'predecessor' as const }
      : {};
  const spec: ContenderSpec = { ...stripUndefined(rest), ...recipe, sessionTimeout };
  return spec;
}

const WORKLOAD_FIELDS = { scheduler: ['strategy', 'statusTtl'], lock: ['hold', 'think', 'fencing'] } as const;

/** The checks `contenders spawn --workload` makes at run time, made here so they point at the file's line. */
function checkWorkload(c: SectionValue<'contenders'>, issues: RawIssue[]): void {
  const at = (field: string) => ['contenders', field];
  for (const [workload, fields] of Object.entries(WORKLOAD_FIELDS)) {
    for (const field of fields) {
      if (c[field] !== undefined && c.workload !== workload)
        issues.push({
          path: at(field),
          message: `only applies to workload: ${workload} (remove it or add workload: ${workload})`,
        });
    }
  }
  if (c.workload === undefined) {
    if (c.path !== undefined)
      issues.push({ path: at('path'), message: 'only applies to a workload (remove it: elections use /election)' });
    return;
  }
  if (c.exec !== undefined)
    issues.push({
      path: at('exec'),
      message: `workload: ${c.workload} runs its own workers, not a program (remove exec)`,
    });
  const recipes: readonly string[] = c.workload === 'lock' ? ['predecessor', 'herd'] : ['predecessor'];
  if (c.recipe !== undefined && !recipes.includes(c.recipe)) {
    issues.push({
      path: at('recipe'),
      message: `workload: ${c.workload} runs on ${recipes.join(' or ')}, not ${c.recipe} (remove recipe or use recipe: ${recipes.join(' | ')})`,
    });
  }
  if (c.statusTtl !== undefined && (c.statusTtl <= 0 || c.statusTtl > MAX_STATUS_TTL_MS)) {
    issues.push({
      path: at('statusTtl'),
      message: `${c.statusTtl}ms is out of range (use a duration above 0 and at most ${MAX_STATUS_TTL_MS / 3_600_000}h, e.g. 30s)`,
    });
  }
  if (c.path !== undefined) {
    try {
      validateZnodePath(c.path);
    } catch {
      issues.push({
        path: at('path'),
        message: `${JSON.stringify(c.path)} is not a ZooKeeper path (use an absolute path such as /scheduler: letters, digits, . _ : -)`,
      });
    }
  }
}

/** What the steps may ask of these contenders. */
function traitsOf(c: ContenderSpec): ContenderTraits {
  return {
    scheduler: c.workload === 'scheduler',
    lock: c.workload === 'lock',
    priority: c.recipe === 'priority',
    failpoints: c.exec === undefined && c.recipe !== undefined ? failpointsOf(c.recipe, c.workload) : [],
  };
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function normalizeChecks(entries: SectionValue<'checks'>): { checks: CheckConfig; names: CheckName[] } {
  if (entries === undefined) {
    return {
      checks: Object.fromEntries(DEFAULT_CHECKS.map((n) => [n, {}])) as CheckConfig,
      names: [...DEFAULT_CHECKS],
    };
  }
  const checks: Record<string, object> = {};
  for (const entry of entries) {
    for (const [name, options] of Object.entries(entry)) if (options !== undefined) checks[name] = options;
  }
  return { checks: checks as CheckConfig, names: Object.keys(checks) as CheckName[] };
}
