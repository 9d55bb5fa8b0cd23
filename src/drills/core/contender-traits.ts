import { type ContenderSpec, runsProgram } from '../../contenders/spec.js';
import { failpointsOf } from '../../recipes/failpoint-names.js';

/** What the drill's contenders run, as far as steps and checks care. */
export interface ContenderTraits {
  /** The scheduler's workers: job steps, conditions and checks apply. */
  readonly scheduler: boolean;
  /** The priority recipe: the priority step and the preemption check apply. */
  readonly priority: boolean;
  /** Lock holders: everyoneAcquiresWithin and the lock checks apply. */
  readonly lock: boolean;
  readonly failpoints: readonly string[];
}

/** What a job step, condition or check says when the drill's contenders are no scheduler. */
export const NEEDS_SCHEDULER = "needs the scheduler's workers (add workload: scheduler to contenders)";

/** What a lock expectation or check says when the drill's contenders hold no lock. */
export const NEEDS_LOCK = 'needs lock holders (add workload: lock to contenders)';

export const workloadOf = (c: ContenderSpec) => (c.scheduler ? 'scheduler' : c.lock ? 'lock' : undefined);

/** What the steps and checks may ask of these contenders. */
export function traitsOf(c: ContenderSpec): ContenderTraits {
  return {
    scheduler: c.scheduler !== undefined,
    lock: c.lock !== undefined,
    priority: c.recipe === 'priority',
    failpoints: runsProgram(c.recipe) ? [] : failpointsOf(c.recipe, workloadOf(c)),
  };
}
