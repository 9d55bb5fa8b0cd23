import { formatDuration, formatOffset } from '../../../duration.js';
import { duration } from '../../core/zod-helpers.js';
import { leaderClaims } from '../../judge/leader-hits.js';
import type { ExpectationKind } from './kind.js';

/** A contender other than the leader before the latest fault step claims leadership within ms of that fault. */
export interface NewLeaderWithin {
  readonly kind: 'newLeaderWithin';
  readonly ms: number;
}

const schema = duration();

export const newLeaderWithin: ExpectationKind<NewLeaderWithin, typeof schema> = {
  kind: 'newLeaderWithin',
  example: 'newLeaderWithin: 3s',
  schema,
  build: (ms) => [{ kind: 'newLeaderWithin', ms }],
  describe: (e) => `a new leader within ${formatDuration(e.ms)}`,
  bound: (e) => e.ms,
  /** Decides by its deadline. */
  evaluate(e, ctx) {
    const h = ctx.history;
    const fault = ctx.lastFault;
    if (!fault) return { status: 'failed', detail: 'no fault step ran before this expectation' };
    const claim = leaderClaims(h).find(
      (c) => c.contender !== fault.leaderBefore && c.t >= fault.t && c.t <= fault.t + e.ms,
    );
    if (claim) {
      return {
        status: 'passed',
        detail: `${claim.contender} leads ${formatDuration(claim.t - fault.t)} after the fault`,
      };
    }
    if (ctx.now < fault.t + e.ms) return { status: 'pending', detail: 'waiting for a new leader' };
    return {
      status: 'failed',
      detail: `no new leader within ${formatDuration(e.ms)} of the fault at ${formatOffset(fault.t, h.start)}`,
    };
  },
};
