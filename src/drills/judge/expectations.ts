import { herdCounts } from './check-herd.js';
import { formatDuration, formatOffset } from '../../duration.js';
import type { History } from './history.js';
import { describeWhereabouts, jobFacts, someOf } from './jobs.js';
import { leaderClaims } from './leader-hits.js';
import { leaderAt, stateAt } from './queries.js';
import type { Expectation } from '../core/expectation.js';

export type ExpectationStatus = 'passed' | 'failed' | 'pending';

export interface ExpectationContext {
  /** The history as recorded so far, built with `end` = now. */
  readonly history: History;
  /** When the expect step started. */
  readonly stepStart: number;
  /** The latest fault step run before this one (kill, pause, partition, stop…) and who led just before it. */
  readonly lastFault?: { readonly t: number; readonly leaderBefore: string | null };
  readonly now: number;
  /** A jobs step is still streaming jobs in the background: "every job submitted so far" is not final yet. */
  readonly streaming?: boolean;
}

export interface ExpectationVerdict {
  readonly status: ExpectationStatus;
  readonly detail: string;
}

/**
 * Judges one expectation against the history so far. `pending` means "not decided yet, evaluate again later":
 * the runner polls until the verdict is final (newLeaderWithin and noLeaderChange decide by their deadline,
 * notificationsPerDeath once the last death's count is complete; the others decide at once).
 */
export function evaluateExpectation(e: Expectation, ctx: ExpectationContext): ExpectationVerdict {
  const h = ctx.history;
  const at = (t: number) => formatOffset(t, h.start);
  switch (e.kind) {
    case 'newLeaderWithin': {
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
        detail: `no new leader within ${formatDuration(e.ms)} of the fault at ${at(fault.t)}`,
      };
    }
    case 'noLeaderChange': {
      const before = leaderAt(h, ctx.stepStart);
      const until = ctx.stepStart + e.ms;
      const other = leaderClaims(h).find(
        (c) => c.contender !== before?.contender && c.t > ctx.stepStart && c.t <= until,
      );
      // The same leader pausing and claiming again (a reconnect with its session intact) is no change of leader.
      if (other) return { status: 'failed', detail: `${other.contender} claimed leadership at ${at(other.t)}` };
      if (ctx.now < until) return { status: 'pending', detail: 'watching for a change' };
      return { status: 'passed', detail: `${before?.contender ?? 'nobody'} led throughout ${formatDuration(e.ms)}` };
    }
    case 'leaderIs':
    case 'leaderIsNot': {
      const leader = leaderAt(h, ctx.now)?.contender ?? null;
      const ok = (leader === e.contender) === (e.kind === 'leaderIs');
      return { status: ok ? 'passed' : 'failed', detail: `${leader ?? 'nobody'} leads` };
    }
    case 'notificationsPerDeath': {
      const counts = herdCounts(h);
      const worst = Math.max(0, ...counts.map((c) => c.notified));
      if (worst > e.max) return { status: 'failed', detail: `a leader death woke ${worst} contenders` };
      if (counts.some((c) => !c.complete)) return { status: 'pending', detail: 'notifications may still arrive' };
      return { status: 'passed', detail: `${counts.length} death(s), at most ${worst} notified` };
    }
    case 'state': {
      const state = stateAt(h, e.contender, ctx.now);
      return {
        status: state === e.state ? 'passed' : 'failed',
        detail: `${e.contender} is ${state ?? 'not started'}`,
      };
    }
    case 'allJobsDoneWithin': {
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
    }
    case 'everyoneAcquiresWithin': {
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
    }
  }
}
