import { formatDuration } from '../../../duration.js';
import { NEEDS_LOCK } from '../../core/contender-traits.js';
import { duration } from '../../core/zod-helpers.js';
import { stateAt } from '../../judge/queries.js';
import type { ExpectationKind } from './kind.js';

/** Lock workload: every contender alive at the deadline acquires the lock within ms of this step. */
export interface EveryoneAcquiresWithin {
  readonly kind: 'everyoneAcquiresWithin';
  readonly ms: number;
}

const schema = duration();

export const everyoneAcquiresWithin: ExpectationKind<EveryoneAcquiresWithin, typeof schema> = {
  kind: 'everyoneAcquiresWithin',
  example: 'everyoneAcquiresWithin: 10s',
  schema,
  needs: (c) => (c.lock ? undefined : NEEDS_LOCK),
  build: (ms) => [{ kind: 'everyoneAcquiresWithin', ms }],
  describe: (e) => `every live contender holds the lock within ${formatDuration(e.ms)}`,
  bound: (e) => e.ms,
  evaluate(e, ctx) {
    const h = ctx.history;
    const holders = h.contenders.filter((c) =>
      h.events.some(
        (ev) => ev.id === c && ev.event === 'lock-acquired' && ev.t >= ctx.stepStart && ev.t <= ctx.stepStart + e.ms,
      ),
    );
    const waiting = h.contenders.filter((c) => !holders.includes(c) && stateAt(h, c, ctx.now) !== 'dead');
    if (waiting.length === 0) {
      return holders.length > 0
        ? { status: 'passed', detail: `${holders.join(', ')} held the lock` }
        : { status: 'failed', detail: 'no contender is alive to hold the lock' };
    }
    if (ctx.now < ctx.stepStart + e.ms) return { status: 'pending', detail: `waiting for ${waiting.join(', ')}` };
    return { status: 'failed', detail: `${waiting.join(', ')} did not get the lock within ${formatDuration(e.ms)}` };
  },
};
