import { submitJobs } from '../../contenders/jobs.js';
import * as faults from '../../faults/service.js';
import { resolveTarget } from '../../faults/targets.js';
import { describeStep } from '../format/describe.js';
import type { Step } from '../format/step.js';
import { shown } from './aliases.js';
import { JobStream } from './job-stream.js';
import type { RunState } from './state.js';

/** What a scheduler step did, for its StepResult. */
export interface SchedulerOutcome {
  readonly description: string;
  readonly detail?: string;
}

const span = (jobs: readonly string[]): string =>
  jobs.length <= 1 ? (jobs[0] ?? 'nothing') : `${jobs[0]}..${jobs.at(-1)}`;

/** Queues the jobs and returns; with `over`, starts streaming them in the background and returns at once. */
export async function runJobs(
  state: RunState,
  step: Extract<Step, { kind: 'jobs' }>,
  index: string,
): Promise<SchedulerOutcome> {
  const description = describeStep(step);
  if (step.over === undefined) {
    const r = await submitJobs(state.lab.paths, { count: step.count, spec: step.spec });
    return { description, detail: `queued ${span(r.jobs)} at ${r.root}; ${r.workers} worker(s) registered` };
  }
  const stream = new JobStream(state.lab.paths, step.count, step.spec, step.over, state.signal);
  state.streams.push({ index, line: step.line, description, count: step.count, stream });
  return { description, detail: 'streaming in the background; the next step starts now' };
}

/** Arms the failpoint in the contender the target names when the step runs (`leader`: the one leading then). */
export async function runFailpoint(
  state: RunState,
  step: Extract<Step, { kind: 'failpoint' }>,
): Promise<SchedulerOutcome> {
  const r = await resolveTarget(state.lab.paths, step.target);
  await faults.armFailpoint(state.lab.paths, r, step.at, step.action);
  // A contender that will freeze itself: `resume: leader` thaws the one this step meant.
  if (step.action === 'pause' && step.target === 'leader') state.pausedAlias.set('leader', r.name);
  return { description: `failpoint in ${shown(step.target, r)}: ${step.action} at ${step.at}` };
}

/** Whether a jobs stream is still submitting. */
export function streaming(state: RunState): boolean {
  return state.streams.some((s) => s.stream.active);
}

/**
 * Before the run is judged: waits for every stream to submit all it was asked to (`finish`), or stops them (the run
 * broke, or is being torn down). A stream whose submission failed breaks the run, as a failed step would.
 */
export async function settleStreams(
  state: RunState,
  finish: boolean,
  say: (message: string) => void = () => undefined,
): Promise<void> {
  for (const s of state.streams) {
    if (finish && s.stream.active) say(`waiting for step ${s.index} (${s.description}) to submit the rest`);
    const end = await (finish ? s.stream.done : s.stream.stop());
    if (end.error !== undefined && state.broke === undefined) {
      state.broke = `step ${s.index} (line ${s.line}) ${s.description}: submitted ${end.submitted} of ${s.count}, then: ${end.error}`;
    }
  }
}
