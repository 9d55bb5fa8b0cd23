import type { RecipeName } from './types.js';

/**
 * The named points where a contender can be told to crash, freeze or hang (src/lab/failpoints.ts arms them), by
 * what the contender runs. Like etcd's gofail: a fault in the exact window a random kill rarely hits.
 */
export const ELECTION_FAILPOINTS = ['after-create-before-watch'] as const;
export const SCHEDULER_FAILPOINTS = [
  'before-assign',
  'after-assign',
  'before-status',
  'after-status-before-unassign',
  ...ELECTION_FAILPOINTS,
] as const;
export type FailpointName = (typeof SCHEDULER_FAILPOINTS)[number];

/**
 * crash: SIGKILL itself. pause: SIGSTOP itself (`zklab resume` wakes it). hang: that flow never goes on; the process
 * and its session live.
 */
export const FAILPOINT_ACTIONS = ['crash', 'pause', 'hang'] as const;
export type FailpointAction = (typeof FAILPOINT_ACTIONS)[number];

/** The failpoints a contender knows: a workload's, else its recipe's; none for programs of their own. */
export function failpointsOf(recipe: RecipeName | string, workload: string | undefined): readonly string[] {
  if (workload === 'scheduler') return SCHEDULER_FAILPOINTS;
  return recipe === 'predecessor' || recipe === 'herd' ? ELECTION_FAILPOINTS : [];
}
