import { STEP_FIELDS, STEP_KINDS, STEP_SCHEMAS, type StepSchemaKind, type StepValue } from './step-schemas.js';
import { checkTarget, type TargetKind, type TargetScope } from '../../faults/targets.js';
import { parseJobSpec } from '../../recipes/scheduler-layout.js';
import { NEEDS_LOCK, NEEDS_SCHEDULER, type ContenderTraits } from './contender-traits.js';
import type { Expectation } from './expectation.js';
import type { Step } from './step.js';
import type { WaitCondition } from './wait-condition.js';
import { errorMap, fromZod, type RawIssue } from './zod-helpers.js';

type Path = readonly (string | number)[];

export interface StepContext {
  /** The line a path points at, for the step's own `line`. */
  readonly lineOf: (path: Path) => number;
  /** Problems found are appended here. */
  readonly issues: RawIssue[];
  /** Null when the contenders section is itself invalid: steps that depend on it are only checked for shape. */
  readonly contenders?: ContenderTraits | null;
}

/** A jobs step's job when none is described: sleep jobs of 200ms. */
const DEFAULT_JOB_MS = 200;

const FAULTABLE: readonly TargetKind[] = ['leader', 'zk-leader', 'contender', 'server'];
const FAULTABLE_OR_ALL: readonly TargetKind[] = [...FAULTABLE, 'all'];
/** A contender cannot be restarted under its id (ids only count up): spawn a new one instead. */
const RESTARTABLE: readonly TargetKind[] = ['zk-leader', 'server', 'all'];

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validates a list of steps. Targets are checked against `scope` (null when the ensemble or contenders section is
 * itself invalid, so only the shape is checked); spawn steps grow the scope for the steps after them.
 */
export function parseSteps(
  values: readonly unknown[],
  path: Path,
  scope: TargetScope | null,
  ctx: StepContext,
): { steps: Step[]; scope: TargetScope | null } {
  const steps: Step[] = [];
  let current = scope;
  values.forEach((value, i) => {
    const r = parseStep(value, [...path, i], current, ctx);
    if (r.step) steps.push(r.step);
    current = r.scope;
  });
  return { steps, scope: current };
}

function parseStep(value: unknown, at: Path, scope: TargetScope | null, ctx: StepContext) {
  const none = { step: null, scope };
  const kinds = STEP_KINDS.join(', ');
  if (!isMapping(value)) {
    ctx.issues.push({ path: at, message: `a step must be a mapping such as "kill: leader" (use one of: ${kinds})` });
    return none;
  }
  const keys = Object.keys(value);
  const known = keys.filter((k): k is StepSchemaKind => (STEP_KINDS as string[]).includes(k));
  for (const key of keys.filter((k) => !known.includes(k as StepSchemaKind))) {
    const owner = known.find((k) => STEP_FIELDS[k]?.includes(key));
    const message = owner
      ? `belongs inside the ${owner} step (write ${owner}: { ..., ${key}: ... })`
      : `unknown step kind (use one of: ${kinds})`;
    ctx.issues.push({ path: [...at, key], message });
  }
  if (known.length === 0) {
    if (keys.length === 0) ctx.issues.push({ path: at, message: `empty step (use one of: ${kinds})` });
    return none;
  }
  if (known.length > 1) {
    ctx.issues.push({ path: at, message: `one step holds ${known.join(' and ')} (make each its own list item)` });
    return none;
  }
  const kind = known[0] as StepSchemaKind;
  const parsed = STEP_SCHEMAS[kind].safeParse(value[kind], { error: errorMap });
  if (!parsed.success) {
    ctx.issues.push(...fromZod(parsed.error, [...at, kind]));
    return none;
  }
  if (keys.length !== known.length) return none;
  return buildStep(kind, parsed.data, [...at, kind], ctx.lineOf(at), scope, ctx);
}

function buildStep(
  kind: StepSchemaKind,
  data: unknown,
  at: Path,
  line: number,
  scope: TargetScope | null,
  ctx: StepContext,
): { step: Step | null; scope: TargetScope | null } {
  const before = ctx.issues.length;
  const target = (name: string, allowed: readonly TargetKind[], path: Path = at): string => {
    const problem = scope ? checkTarget(name, allowed, scope) : null;
    if (problem) ctx.issues.push({ path, message: problem });
    return name;
  };
  const problem = (message: string, path: Path = at) => ctx.issues.push({ path, message });
  const needsScheduler = (path: Path = at) => {
    if (ctx.contenders && !ctx.contenders.scheduler) problem(NEEDS_SCHEDULER, path);
  };
  let step: Step;
  let after = scope;
  switch (kind) {
    case 'wait': {
      const v = data as StepValue<'wait'>;
      const { timeout, ...conditions } = v;
      if (Object.keys(conditions).length === 0) {
        problem('waits for nothing (add a condition: leader, leaderIs, joined, serving, notServing or jobsDone)');
      }
      if (v.jobsDone !== undefined) needsScheduler([...at, 'jobsDone']);
      if (v.leaderIs !== undefined) target(v.leaderIs, ['contender'], [...at, 'leaderIs']);
      if (v.serving !== undefined) target(v.serving, ['server'], [...at, 'serving']);
      if (v.notServing !== undefined) target(v.notServing, ['server'], [...at, 'notServing']);
      if (scope && v.joined !== undefined && v.joined > scope.contenders) {
        problem(`${v.joined} cannot join: there are ${scope.contenders} contender(s) here (lower it or spawn more)`, [
          ...at,
          'joined',
        ]);
      }
      step = { kind, line, until: conditions as WaitCondition, timeout };
      break;
    }
    case 'kill': {
      const v = data as StepValue<'kill'>;
      step = { kind, line, target: target(v.target, FAULTABLE, [...at, 'target']), signal: v.signal ?? 'SIGKILL' };
      break;
    }
    case 'pause':
    case 'stop':
      step = { kind, line, target: target(data as string, FAULTABLE) };
      break;
    case 'restart':
      step = { kind, line, target: target(data as string, RESTARTABLE) };
      break;
    case 'add':
      step = { kind, line, role: data as StepValue<'add'> };
      // The new server takes the lowest free id; counting up keeps zkN of every added server a valid target.
      if (scope) after = { ...scope, servers: scope.servers + 1 };
      break;
    case 'remove':
      step = { kind, line, target: target(data as string, ['zk-leader', 'server']) };
      break;
    case 'resume':
    case 'heal':
      step = { kind, line, target: target(data as string, FAULTABLE_OR_ALL) };
      break;
    case 'partition': {
      const v = data as StepValue<'partition'>;
      if ((v.isolate === undefined) === (v.split === undefined)) {
        problem('needs exactly one of isolate or split (write isolate: leader, or split: [[zk1], [zk2, zk3]])');
        return { step: null, scope };
      }
      if (v.isolate !== undefined) {
        step = { kind, line, partition: { mode: 'isolate', target: target(v.isolate, FAULTABLE, [...at, 'isolate']) } };
      } else {
        const groups = v.split ?? [];
        const seen = new Set<string>();
        groups.forEach((group, g) => {
          group.forEach((name, n) => {
            target(name, FAULTABLE, [...at, 'split', g, n]);
            if (seen.has(name))
              problem(`${name} is in two groups (keep each name in one group)`, [...at, 'split', g, n]);
            seen.add(name);
          });
        });
        step = { kind, line, partition: { mode: 'split', groups } };
      }
      break;
    }
    case 'delay': {
      const v = data as StepValue<'delay'>;
      step = { kind, line, target: target(v.target, FAULTABLE, [...at, 'target']), ms: v.ms, jitter: v.jitter ?? 0 };
      break;
    }
    case 'spawn': {
      const count = data as number;
      if (scope) after = { ...scope, contenders: scope.contenders + count };
      step = { kind, line, count };
      break;
    }
    case 'sleep':
      step = { kind, line, ms: data as number };
      break;
    case 'expect': {
      const v = data as StepValue<'expect'>;
      if (v.allJobsDoneWithin !== undefined) needsScheduler([...at, 'allJobsDoneWithin']);
      if (v.everyoneAcquiresWithin !== undefined && ctx.contenders && !ctx.contenders.lock) {
        problem(NEEDS_LOCK, [...at, 'everyoneAcquiresWithin']);
      }
      const expectations = buildExpectations(v, at, target, problem);
      step = { kind, line, expectations };
      break;
    }
    case 'jobs': {
      needsScheduler();
      const r = buildJobs(data as StepValue<'jobs'>, at, problem);
      if (!r) return { step: null, scope };
      step = { kind, line, ...r };
      break;
    }
    case 'failpoint': {
      const v = data as StepValue<'failpoint'>;
      const known = ctx.contenders?.failpoints;
      if (known && known.length === 0) {
        problem(
          "these contenders have no failpoints (zklab's own recipes have them: predecessor, herd, and workload: scheduler)",
        );
      } else if (known && !known.includes(v.at)) {
        problem(`"${v.at}" is not a failpoint of these contenders (use one of: ${known.join(', ')})`, [...at, 'at']);
      }
      step = {
        kind,
        line,
        target: target(v.target, ['leader', 'contender'], [...at, 'target']),
        at: v.at,
        action: v.action,
      };
      break;
    }
    case 'priority': {
      const v = data as StepValue<'priority'>;
      if (ctx.contenders && !ctx.contenders.priority) problem('needs priority contenders (recipe: priority)');
      if ((v.set === undefined) === (v.preferSite === undefined)) {
        problem(
          'says neither or both of set and preferSite (write priority: { set: { c2: 50 } } or priority: { preferSite: b })',
        );
      }
      const set =
        v.set === undefined
          ? undefined
          : Object.fromEntries(
              Object.entries(v.set).map(([id, p]) => [target(id, ['contender'], [...at, 'set', id]), p]),
            );
      if (set !== undefined && Object.keys(set).length === 0)
        problem('names no contender (write set: { c2: 50 })', [...at, 'set']);
      step = {
        kind,
        line,
        ...(set ? { set } : {}),
        ...(v.preferSite !== undefined ? { preferSite: v.preferSite } : {}),
      };
      break;
    }
    case 'repeat': {
      const v = data as StepValue<'repeat'>;
      const body = parseSteps(v.steps, [...at, 'steps'], scope, ctx);
      if (scope && body.scope) {
        after = { ...scope, contenders: scope.contenders + (body.scope.contenders - scope.contenders) * v.times };
      }
      step = { kind, line, times: v.times, steps: body.steps };
      break;
    }
  }
  return { step: ctx.issues.length === before ? step : null, scope: after };
}

function buildExpectations(
  v: StepValue<'expect'>,
  at: Path,
  target: (name: string, allowed: readonly TargetKind[], path?: Path) => string,
  problem: (message: string, path?: Path) => void,
): Expectation[] {
  const out: Expectation[] = [];
  for (const key of Object.keys(v) as (keyof typeof v)[]) {
    if (key === 'newLeaderWithin' || key === 'noLeaderChange') {
      out.push({ kind: key, ms: v[key] ?? 0 });
    } else if (key === 'leaderIs' || key === 'leaderIsNot') {
      out.push({ kind: key, contender: target(v[key] ?? '', ['contender'], [...at, key]) });
    } else if (key === 'allJobsDoneWithin' || key === 'everyoneAcquiresWithin') {
      out.push({ kind: key, ms: v[key] ?? 0 });
    } else if (key === 'notificationsPerDeath') {
      out.push({ kind: key, max: v.notificationsPerDeath?.max ?? 0 });
    } else if (key === 'state') {
      const states = Object.entries(v.state ?? {});
      if (states.length === 0) problem('names no contender (write state: { c1: follower })', [...at, 'state']);
      for (const [contender, state] of states) {
        out.push({ kind: 'state', contender: target(contender, ['contender'], [...at, 'state', contender]), state });
      }
    }
  }
  if (out.length === 0 && Object.keys(v).length === 0) {
    problem(
      'expects nothing (add newLeaderWithin, noLeaderChange, leaderIs, leaderIsNot, notificationsPerDeath, state, allJobsDoneWithin or everyoneAcquiresWithin)',
    );
  }
  return out;
}

/** The job a jobs step describes (checked by the scheduler's own parser) and how it is submitted. */
function buildJobs(
  v: StepValue<'jobs'>,
  at: Path,
  problem: (message: string, path?: Path) => void,
): Pick<Extract<Step, { kind: 'jobs' }>, 'count' | 'spec' | 'over'> | null {
  const kind = v.kind ?? 'sleep';
  let ok = true;
  const refuse = (message: string, field: string) => {
    problem(message, [...at, field]);
    ok = false;
  };
  if (v.ms !== undefined && kind !== 'sleep') refuse('only applies to sleep jobs (remove it or use kind: sleep)', 'ms');
  if (v.args !== undefined && kind !== 'sum') refuse('only applies to sum jobs (remove it or use kind: sum)', 'args');
  if (kind === 'sum' && v.args === undefined) refuse('is required for sum jobs (add args: [1, 2])', 'args');
  if (v.over === 0) refuse('must be above 0 (leave it out to queue the jobs at once)', 'over');
  if (!ok) return null;
  const spec = parseJobSpec({ kind, ms: v.ms ?? DEFAULT_JOB_MS, args: v.args });
  if ('error' in spec) {
    problem(`${spec.error} (see templates/drills/scheduler-*.yaml)`);
    return null;
  }
  return { count: v.submit, spec, ...(v.over === undefined ? {} : { over: v.over }) };
}
