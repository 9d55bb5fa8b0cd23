import type { Target } from './types.js';

/** Every condition given must hold at once. `serving`/`notServing` need a 4lw probe, the rest come from events. */
export interface WaitCondition {
  /** true: some contender leads; false: none does. */
  readonly leader?: boolean;
  readonly leaderIs?: Target;
  /** At least this many contenders have joined and are alive. */
  readonly joined?: number;
  readonly serving?: Target;
  readonly notServing?: Target;
  /**
   * true: every job submitted so far (at least one, no stream still submitting) has its status; N: at least N jobs
   * have theirs.
   */
  readonly jobsDone?: true | number;
}

/** "a leader, 5 joined". */
export function describeWait(c: WaitCondition): string {
  const parts: string[] = [];
  if (c.leader !== undefined) parts.push(c.leader ? 'a leader' : 'no leader');
  if (c.leaderIs !== undefined) parts.push(`${c.leaderIs} leads`);
  if (c.joined !== undefined) parts.push(`${c.joined} joined`);
  if (c.serving !== undefined) parts.push(`${c.serving} serving`);
  if (c.notServing !== undefined) parts.push(`${c.notServing} not serving`);
  if (c.jobsDone !== undefined) parts.push(c.jobsDone === true ? 'every job done' : `${c.jobsDone} job(s) done`);
  return parts.join(', ');
}
