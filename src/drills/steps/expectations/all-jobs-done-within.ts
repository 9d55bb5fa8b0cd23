import { formatDuration } from '../../../duration.js';
import { NEEDS_SCHEDULER } from '../../core/contender-traits.js';
import { duration } from '../../core/zod-helpers.js';
import { describeWhereabouts, jobFacts, someOf } from '../../judge/jobs.js';
import type { ExpectationKind } from './kind.js';

/** Every job submitted so far (a stream's included, once it ends) has its status within ms of this step. */
export interface AllJobsDoneWithin {
  readonly kind: 'allJobsDoneWithin';
  readonly ms: number;
}

const schema = duration();

export const allJobsDoneWithin: ExpectationKind<AllJobsDoneWithin, typeof schema> = {
  kind: 'allJobsDoneWithin',
  example: 'allJobsDoneWithin: 20s',
  schema,
  needs: (c) => (c.scheduler ? undefined : NEEDS_SCHEDULER),
  build: (ms) => [{ kind: 'allJobsDoneWithin', ms }],
  describe: (e) => `every job done within ${formatDuration(e.ms)}`,
  bound: (e) => e.ms,
  evaluate(e, ctx) {
    const h = ctx.history;
    const jobs = jobFacts(h);
    const missing = jobs.filter((j) => j.statusAt === null);
    if (jobs.length > 0 && missing.length === 0 && !ctx.streaming) {
      const last = Math.max(...jobs.map((j) => j.statusAt ?? 0));
      const when =
        last <= ctx.stepStart
          ? 'all before this step'
          : `the last ${formatDuration(last - ctx.stepStart)} after this step`;
      return { status: 'passed', detail: `${jobs.length} job(s) done, ${when}` };
    }
    if (jobs.length === 0 && !ctx.streaming)
      return { status: 'failed', detail: 'no jobs were submitted before this step (add a jobs step)' };
    const waiting = `${missing.length} of ${jobs.length} job(s) without a status${ctx.streaming ? ', a stream still submitting' : ''}`;
    if (ctx.now < ctx.stepStart + e.ms) return { status: 'pending', detail: waiting };
    const names = someOf(
      missing.map((j) => describeWhereabouts(j, h.start)),
      3,
    );
    return { status: 'failed', detail: `${waiting} after ${formatDuration(e.ms)}${names ? `: ${names}` : ''}` };
  },
};
