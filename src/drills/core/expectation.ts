import { formatDuration } from '../../duration.js';
import type { ContenderState, Target } from './types.js';

/** What an expect step may expect; each is judged by judge/expectations.ts. */
export type Expectation =
  /** A contender other than the leader before the latest fault step claims leadership within ms of that fault. */
  | { readonly kind: 'newLeaderWithin'; readonly ms: number }
  /** For ms from this step, no contender but the one leading when it starts claims leadership. */
  | { readonly kind: 'noLeaderChange'; readonly ms: number }
  | { readonly kind: 'leaderIs'; readonly contender: Target }
  | { readonly kind: 'leaderIsNot'; readonly contender: Target }
  /** Every leader death so far woke at most max other contenders. */
  | { readonly kind: 'notificationsPerDeath'; readonly max: number }
  | { readonly kind: 'state'; readonly contender: Target; readonly state: ContenderState }
  /** Every job submitted so far (a stream's included, once it ends) has its status within ms of this step. */
  | { readonly kind: 'allJobsDoneWithin'; readonly ms: number }
  /** Lock workload: every contender alive at the deadline acquires the lock within ms of this step. */
  | { readonly kind: 'everyoneAcquiresWithin'; readonly ms: number };

export function describeExpectation(e: Expectation): string {
  switch (e.kind) {
    case 'newLeaderWithin':
      return `a new leader within ${formatDuration(e.ms)}`;
    case 'noLeaderChange':
      return `no leader change for ${formatDuration(e.ms)}`;
    case 'leaderIs':
      return `${e.contender} leads`;
    case 'leaderIsNot':
      return `${e.contender} does not lead`;
    case 'notificationsPerDeath':
      return `at most ${e.max} notified per leader death`;
    case 'state':
      return `${e.contender} is ${e.state}`;
    case 'allJobsDoneWithin':
      return `every job done within ${formatDuration(e.ms)}`;
    case 'everyoneAcquiresWithin':
      return `every live contender holds the lock within ${formatDuration(e.ms)}`;
  }
}
