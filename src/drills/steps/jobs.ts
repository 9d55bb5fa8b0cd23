import { z } from 'zod';
import { submitJobs } from '../../contenders/jobs.js';
import { formatDuration } from '../../duration.js';
import { JOB_KINDS, type JobSpec, parseJobSpec } from '../../recipes/scheduler-layout.js';
import { duration, strict } from '../core/zod-helpers.js';
import { JobStream } from '../lab/job-stream.js';
import type { BuildContext, StepBase, StepKind } from './kind.js';

/** Queues `count` jobs, or with `over` streams them evenly over that time in the background. */
export interface JobsStep extends StepBase {
  readonly kind: 'jobs';
  readonly count: number;
  readonly spec: JobSpec;
  readonly over?: number;
}

/** How many jobs one jobs step may queue: a drill is a lesson, not a load test. */
const MAX_DRILL_JOBS = 10_000;
/** A jobs step's job when none is described: sleep jobs of 200ms. */
const DEFAULT_JOB_MS = 200;

const fields = {
  submit: z.number().int().min(1).max(MAX_DRILL_JOBS),
  kind: z.enum(JOB_KINDS).optional(),
  ms: duration().optional(),
  args: z.array(z.number()).optional(),
  over: duration().optional(),
};
/** `jobs: 9` is short for `jobs: { submit: 9 }` (sleep jobs of 200ms). */
const schema = z.preprocess((v) => (typeof v === 'number' ? { submit: v } : v), strict(fields));

/** "9 sleep jobs (3s each)", "1 sum job of [1, 2]", "2 fail jobs". */
function describeJobs(count: number, spec: JobSpec): string {
  const what = `${count} ${spec.kind} job${count === 1 ? '' : 's'}`;
  if (spec.kind === 'sleep') return `${what} (${formatDuration(spec.ms)} each)`;
  if (spec.kind === 'sum') return `${what} of [${spec.args.join(', ')}]`;
  return what;
}

const describe = (step: JobsStep) =>
  step.over === undefined
    ? `submit ${describeJobs(step.count, step.spec)}`
    : `stream ${describeJobs(step.count, step.spec)} over ${formatDuration(step.over)}`;

const span = (jobs: readonly string[]): string =>
  jobs.length <= 1 ? (jobs[0] ?? 'nothing') : `${jobs[0]}..${jobs.at(-1)}`;

export const jobs: StepKind<JobsStep, typeof schema> = {
  kind: 'jobs',
  summary:
    "Queue jobs for the task scheduler's workers (workload: scheduler); with over, stream them evenly over that " +
    'time in the background while the next steps run',
  examples: [
    'jobs: 9',
    'jobs: { submit: 9, kind: sleep, ms: 3s }',
    'jobs: { submit: 2, kind: sum, args: [1, 2] }',
    'jobs: { submit: 20, over: 4s }',
  ],
  schema,
  fields: Object.keys(fields),
  build(v, ctx) {
    ctx.needsScheduler();
    const spec = buildJob(v, ctx);
    if (!spec) return null;
    return { kind: 'jobs', count: v.submit, spec, ...(v.over === undefined ? {} : { over: v.over }) };
  },
  describe,
  /** Queues the jobs and returns; with `over`, starts streaming them in the background and returns at once. */
  async run(ctx, step, index) {
    const description = describe(step);
    if (step.over === undefined) {
      const r = await submitJobs(ctx.lab.paths, { count: step.count, spec: step.spec });
      return { description, detail: `queued ${span(r.jobs)} at ${r.root}; ${r.workers} worker(s) registered` };
    }
    const stream = new JobStream(ctx.lab.paths, step.count, step.spec, step.over, ctx.signal);
    ctx.streams.push({ index, line: step.line, description, count: step.count, stream });
    return { description, detail: 'streaming in the background; the next step starts now' };
  },
};

/** The job the step describes, checked by the scheduler's own parser. */
function buildJob(v: z.output<typeof schema>, ctx: BuildContext): JobSpec | null {
  const kind = v.kind ?? 'sleep';
  let ok = true;
  const refuse = (message: string, field: string) => {
    ctx.problem(message, [field]);
    ok = false;
  };
  if (v.ms !== undefined && kind !== 'sleep') refuse('only applies to sleep jobs (remove it or use kind: sleep)', 'ms');
  if (v.args !== undefined && kind !== 'sum') refuse('only applies to sum jobs (remove it or use kind: sum)', 'args');
  if (kind === 'sum' && v.args === undefined) refuse('is required for sum jobs (add args: [1, 2])', 'args');
  if (v.over === 0) refuse('must be above 0 (leave it out to queue the jobs at once)', 'over');
  if (!ok) return null;
  const spec = parseJobSpec({ kind, ms: v.ms ?? DEFAULT_JOB_MS, args: v.args });
  if ('error' in spec) {
    ctx.problem(`${spec.error} (see templates/drills/scheduler-*.yaml)`);
    return null;
  }
  return spec;
}
