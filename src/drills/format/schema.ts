import { dirname, resolve } from 'node:path';
/**
 * Drill files: YAML, validated strictly (unknown fields and step kinds are errors), every error reported as one
 * line `<file>:<line>: <field path>: <what is wrong> (<what to do>)`.
 *
 * ```yaml
 * name: leader-dies-no-herd            # lowercase letters, digits, dashes
 * description: ...                     # optional
 * ensemble: { servers: 3, tick: 200 }  # optional; these are the defaults (tick in ms or a duration); observers: 2;
 *                                      # net: ns puts every node in a network namespace of its own
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
 * steps:                               # each item is a one-key mapping <kind>: <value> (`zklab drill steps` lists
 *                                      # every kind, from its module, with examples)
 *   - wait: { leader: true, timeout: 10s }    # conditions: leader, leaderIs, joined, serving, notServing, jobsDone;
 *                                             # all must hold; a timeout is required
 *   - kill: leader                            # or { target: c3, signal: TERM, scope: process } (KILL and the
 *                                             # whole node by default)
 *   - pause: leader                           # freezes the node (scope: process, the program alone);
 *                                             # resume: <target> | all | paused
 *   - partition: { isolate: leader }          # or { split: [[zk1], [zk2, zk3, c1]] } (members not named form
 *                                             # one more group), or another mode a fault kind adds (each mode is
 *                                             # one, src/faults/kinds/: one-way.ts, a one-way cut on net: ns);
 *                                             # heal: all | <target> (also clears its delay);
 *                                             # a bare `- heal` is heal: all
 *   - delay: { target: c2, ms: 300, jitter: 50 }
 *   - loss: { target: c2, percent: 30 }       # net: ns: that fraction of its packets dropped; heal clears it
 *   - clock: { target: zk1, offset: +30s }    # the node's wall clock jumps (or rate: 1.5 drifts it from now on);
 *                                             # clock: { reset: all | <target> } makes it true again
 *   - spawn: 1                                # adds contenders c<count+1>...; later steps may name them
 *   - stop: c2                                # clean stop (SIGTERM); restart: zk1 | zk-leader | all (servers;
 *                                             # its report line says how long the server was unavailable)
 *   - add: participant                        # or observer: start a server and join it by reconfig (it takes the
 *                                             # lowest free id); remove: zk4 | zk-leader leaves by reconfig, stops
 *   - sleep: 2s
 *   - log: "the leader is about to die"       # a line of the drill's own in the report; does nothing to the lab
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
  type ContenderSpec,
  type ContenderSpecInput,
  checkContenderSpec,
  SPEC_FIELDS,
  type SpecField,
  wordRefs,
} from '../../contenders/spec.js';
import { observerShape } from '../../ensemble/config.js';
import { NET_MODES } from '../../lab/node/net.js';
import { MAX_SERVERS } from '../../lab/ports.js';
import { UsageError } from '../../errors.js';
import { traitsOf, workloadOf } from '../core/contender-traits.js';
import { parseSteps } from './steps.js';
import { CHECK_NAMES } from '../judge/checkers.js';
import { checkEntry, readChecks } from './checks.js';
import type { Drill, DrillVariant } from './drill.js';
import { formatPath, lineOf, locate } from './yaml-lines.js';
import { duration, errorMap, fromZod, strict, type RawIssue } from '../core/zod-helpers.js';

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

const sections = {
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'is not a drill name (use lowercase letters, digits and dashes)' }),
  description: z.string().optional(),
  ensemble: strict({
    servers: z.number().int().min(1).max(9).default(3),
    observers: z.number().int().min(0).max(8).default(0),
    tick: duration().default(200),
    net: z.enum(NET_MODES, { error: `is not a network (use ${NET_MODES.join(' or ')})` }).default('proxy'),
  }).default({
    servers: 3,
    observers: 0,
    tick: 200,
    net: 'proxy',
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

/** The contender spec's fields, each checked by the one validator (src/contenders/spec.ts); `connect` comes from --connect. */
function contendersSchema() {
  const fields = SPEC_FIELDS.filter((f) => f !== 'connect');
  return strict(
    Object.fromEntries(fields.map((f) => [f, z.unknown().optional()])) as Record<
      SpecField,
      z.ZodOptional<z.ZodUnknown>
    >,
  );
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
    const total = ensemble.servers + ensemble.observers;
    issues.push({
      path: ['ensemble', 'observers'],
      message: `${ensemble.servers} servers and ${ensemble.observers} observers make ${total}; a lab runs at most ${MAX_SERVERS}`,
    });
  }
  const here = drillDir(file);
  const contenders =
    contendersRaw && ensemble ? checkContenders(inDrillDir(contendersRaw, here), ensemble, issues) : undefined;
  const scope =
    contenders && ensemble ? { servers: ensemble.servers + ensemble.observers, contenders: contenders.count } : null;
  const traits = contenders ? traitsOf(contenders) : null;
  const { steps } = parseSteps(stepValues ?? [], ['steps'], scope, { lineOf: lineFor, issues, contenders: traits });
  const { checks, names } = readChecks(checkEntries, traits, issues);
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
    const own = new Set(Object.keys(v.contenders ?? {}));
    const at = (field: string) => (own.has(field) ? ['variants', i, 'contenders', field] : ['contenders', field]);
    const spec =
      merged.success && ensemble ? checkContenders(inDrillDir(merged.data, here), ensemble, issues, at) : undefined;
    if (spec && contenders && spec.count !== contenders.count)
      issues.push({
        path: ['variants', i, 'contenders', 'count'],
        message: 'differs from contenders.count (the steps name the contenders; keep the count)',
      });
    if (spec && contenders && workloadOf(spec) !== workloadOf(contenders))
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

/** A field of the spec as a drill file names it: `recipe`, or `recipe: priority` with a value. */
function yamlWords(field: string, value?: string): string {
  if (value === undefined) return field;
  return field === 'exec' ? `exec: [${value.split(' ').join(', ')}]` : `${field}: ${value}`;
}

/** The directory of the drill file: `{drill}` in a program's or probe's words (a program that lives beside it). */
const drillDir = (file: string): string => dirname(resolve(file));

/** The section with `{drill}` in the words of `exec` and `probe` made the drill file's directory. */
function inDrillDir(c: SectionValue<'contenders'>, dir: string): SectionValue<'contenders'> {
  const fill = (v: unknown): unknown =>
    Array.isArray(v) ? v.map((w) => (typeof w === 'string' ? w.replaceAll('{drill}', dir) : w)) : v;
  const raw = c as Record<string, unknown>;
  return { ...raw, exec: fill(raw.exec), probe: fill(raw.probe) } as SectionValue<'contenders'>;
}

/** The contenders section, checked by the contender spec's validator with what the drill says of its ensemble. */
function checkContenders(
  c: SectionValue<'contenders'>,
  ensemble: SectionValue<'ensemble'>,
  issues: RawIssue[],
  at: (field: string) => (string | number)[] = (field) => ['contenders', field],
): ContenderSpec | undefined {
  const r = checkContenderSpec(c as ContenderSpecInput, {
    tickMs: ensemble.tick,
    observers: ensemble.observers,
    extraPerContender: true,
  });
  for (const i of r.issues ?? []) {
    issues.push({ path: at(i.field), message: `${wordRefs(i.message, yamlWords)} (${wordRefs(i.hint, yamlWords)})` });
  }
  return r.spec;
}
