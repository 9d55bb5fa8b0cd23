import { z } from 'zod';
import { FAILPOINT_ACTIONS } from '../../recipes/failpoint-names.js';
import { JOB_KINDS } from '../../recipes/scheduler-layout.js';
import { CONTENDER_STATES } from './types.js';
import { SIGNALS, type KillSignal } from './step.js';
import { duration, strict } from './zod-helpers.js';

/** How many jobs one jobs step may queue: a drill is a lesson, not a load test. */
export const MAX_DRILL_JOBS = 10_000;

const target = z.string().min(1);

const signal = z.unknown().transform((value, ctx): KillSignal => {
  const name = typeof value === 'string' ? value.toUpperCase().replace(/^(SIG)?/, 'SIG') : '';
  if ((SIGNALS as readonly string[]).includes(name)) return name as KillSignal;
  ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a signal (use KILL, TERM or INT)` });
  return z.NEVER;
});

/** `kill: c1` is short for `kill: { target: c1 }`. */
const targetOrObject = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' ? { target: v } : v), schema);

/** `jobsDone: true` (every job submitted so far) or a count of jobs. */
const jobsDone = z.unknown().transform((value, ctx): true | number => {
  if (value === true || (typeof value === 'number' && Number.isInteger(value) && value >= 1)) return value;
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(value)} is not allowed (use true for every job submitted so far, or a count such as 5)`,
  });
  return z.NEVER;
});

const waitFields = {
  leader: z.boolean().optional(),
  leaderIs: target.optional(),
  joined: z.number().int().min(1).optional(),
  serving: target.optional(),
  notServing: target.optional(),
  jobsDone: jobsDone.optional(),
  timeout: duration('a wait needs a timeout so a stuck drill fails instead of hanging: add timeout: 10s'),
};

const partitionFields = {
  isolate: target.optional(),
  split: z.array(z.array(target).min(1)).min(2).optional(),
};

const delayFields = { target, ms: duration('add ms: 300'), jitter: duration().optional() };

const expectFields = {
  newLeaderWithin: duration().optional(),
  noLeaderChange: duration().optional(),
  leaderIs: target.optional(),
  leaderIsNot: target.optional(),
  notificationsPerDeath: strict({ max: z.number().int().min(0) }).optional(),
  state: z.record(z.string(), z.enum(CONTENDER_STATES)).optional(),
  allJobsDoneWithin: duration().optional(),
  everyoneAcquiresWithin: duration().optional(),
};

const jobsFields = {
  submit: z.number().int().min(1).max(MAX_DRILL_JOBS),
  kind: z.enum(JOB_KINDS).optional(),
  ms: duration().optional(),
  args: z.array(z.number()).optional(),
  over: duration().optional(),
};

const failpointFields = { target, at: z.string().min(1), action: z.enum(FAILPOINT_ACTIONS) };

const priorityFields = {
  set: z.record(z.string(), z.number().int()).optional(),
  preferSite: z.string().min(1).optional(),
};

const repeatFields = { times: z.number().int().min(1).max(1000), steps: z.array(z.unknown()).min(1) };

/** The value schema of every step kind: a step is a one-key mapping `<kind>: <value>`. */
export const STEP_SCHEMAS = {
  wait: strict(waitFields),
  kill: targetOrObject(strict({ target, signal: signal.optional() })),
  pause: target,
  resume: target,
  partition: strict(partitionFields),
  heal: target,
  delay: strict(delayFields),
  spawn: z.number().int().min(1).max(100),
  stop: target,
  restart: target,
  add: z.enum(['participant', 'observer']),
  remove: target,
  sleep: duration(),
  /** `jobs: 9` is short for `jobs: { submit: 9 }` (sleep jobs of 200ms). */
  jobs: z.preprocess((v) => (typeof v === 'number' ? { submit: v } : v), strict(jobsFields)),
  failpoint: strict(failpointFields),
  priority: strict(priorityFields),
  expect: strict(expectFields),
  repeat: strict(repeatFields),
} as const;

export type StepSchemaKind = keyof typeof STEP_SCHEMAS;
export const STEP_KINDS = Object.keys(STEP_SCHEMAS) as StepSchemaKind[];

/** Fields that live inside a step's value, to explain a field written next to the kind instead of inside it. */
export const STEP_FIELDS: Partial<Record<StepSchemaKind, readonly string[]>> = {
  wait: Object.keys(waitFields),
  kill: ['target', 'signal'],
  partition: Object.keys(partitionFields),
  delay: Object.keys(delayFields),
  expect: Object.keys(expectFields),
  repeat: Object.keys(repeatFields),
  jobs: Object.keys(jobsFields),
  failpoint: Object.keys(failpointFields),
  priority: Object.keys(priorityFields),
};

export type StepValue<K extends StepSchemaKind> = z.output<(typeof STEP_SCHEMAS)[K]>;
