import { formatDuration, formatOffset } from '../../../duration.js';
import { duration } from '../../core/zod-helpers.js';
import { leaderClaims } from '../../judge/leader-hits.js';
import { leaderAt } from '../../judge/queries.js';
import type { ExpectationKind } from './kind.js';

/** For ms from this step, no contender but the one leading when it starts claims leadership. */
export interface NoLeaderChange {
  readonly kind: 'noLeaderChange';
  readonly ms: number;
}

const schema = duration();

export const noLeaderChange: ExpectationKind<NoLeaderChange, typeof schema> = {
  kind: 'noLeaderChange',
  example: 'noLeaderChange: 2s',
  schema,
  build: (ms) => [{ kind: 'noLeaderChange', ms }],
  describe: (e) => `no leader change for ${formatDuration(e.ms)}`,
  bound: (e) => e.ms,
  /** Decides by its deadline. */
  evaluate(e, ctx) {
    const h = ctx.history;
    // The leader when it starts, or the last to claim before it: a leader paused by a disconnect at that moment
    // (its observer cut off) that claims again on another server is still no change of leader.
    const claims = leaderClaims(h);
    const before = leaderAt(h, ctx.stepStart)?.contender ?? claims.findLast((c) => c.t <= ctx.stepStart)?.contender;
    const until = ctx.stepStart + e.ms;
    const other = claims.find((c) => c.contender !== before && c.t > ctx.stepStart && c.t <= until);
    // The same leader pausing and claiming again (a reconnect with its session intact) is no change of leader.
    if (other) {
      return { status: 'failed', detail: `${other.contender} claimed leadership at ${formatOffset(other.t, h.start)}` };
    }
    if (ctx.now < until) return { status: 'pending', detail: 'watching for a change' };
    return { status: 'passed', detail: `${before ?? 'nobody'} led throughout ${formatDuration(e.ms)}` };
  },
};
