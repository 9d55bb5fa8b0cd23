import { formatDuration } from '../../duration.js';
import type { JobSpec } from '../../recipes/scheduler-layout.js';
import { describeExpectation } from './expectation.js';
import type { Step } from './step.js';
import { describeWait } from './wait-condition.js';

/** "sleep jobs (3s each)", "sum jobs of [1, 2]", "fail jobs". */
export function describeJobs(count: number, spec: JobSpec): string {
  const what = `${count} ${spec.kind} job${count === 1 ? '' : 's'}`;
  if (spec.kind === 'sleep') return `${what} (${formatDuration(spec.ms)} each)`;
  if (spec.kind === 'sum') return `${what} of [${spec.args.join(', ')}]`;
  return what;
}

/** One line for a step, as the drill file says it (the runner appends what `leader` resolved to). */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'wait':
      return `wait for ${describeWait(step.until)} (up to ${formatDuration(step.timeout)})`;
    case 'kill':
      return `kill ${step.target}${step.signal === 'SIGKILL' ? '' : ` (${step.signal})`}`;
    case 'partition':
      return step.partition.mode === 'isolate'
        ? `partition: isolate ${step.partition.target}`
        : `partition: split ${step.partition.groups.map((g) => `[${g.join(' ')}]`).join(' | ')}`;
    case 'delay':
      return `delay ${step.target} by ${formatDuration(step.ms)}${step.jitter ? ` ± ${formatDuration(step.jitter)}` : ''}`;
    case 'spawn':
      return `spawn ${step.count} contender(s)`;
    case 'sleep':
      return `sleep ${formatDuration(step.ms)}`;
    case 'expect':
      return `expect ${step.expectations.map(describeExpectation).join('; ')}`;
    case 'repeat':
      return `repeat ${step.times}× (${step.steps.length} step(s))`;
    case 'jobs':
      return step.over === undefined
        ? `submit ${describeJobs(step.count, step.spec)}`
        : `stream ${describeJobs(step.count, step.spec)} over ${formatDuration(step.over)}`;
    case 'failpoint':
      return `failpoint in ${step.target}: ${step.action} at ${step.at}`;
    case 'priority':
      return step.preferSite !== undefined
        ? `policy: prefer site ${step.preferSite}`
        : `policy: priority ${Object.entries(step.set ?? {})
            .map(([id, p]) => `${id} = ${p}`)
            .join(', ')}`;
    case 'add':
      return `add a server (${step.role}) by reconfig`;
    case 'remove':
      return `remove ${step.target} by reconfig`;
    case 'pause':
    case 'resume':
    case 'heal':
    case 'stop':
    case 'restart':
      return `${step.kind} ${step.target}`;
  }
}
