import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { formatDuration } from '../../duration.js';
import { NEEDS_LOCK } from '../core/contender-traits.js';
import { describeExpectation, type Expectation } from '../core/expectation.js';
import { CONTENDER_STATES } from '../core/types.js';
import { duration, strict } from '../core/zod-helpers.js';
import { evaluateExpectation } from '../judge/expectations.js';
import type { ExpectationResult } from '../judge/result.js';
import { streaming } from '../lab/streams.js';
import {
  type BuildContext,
  POLL_MS,
  type StepBase,
  type StepDone,
  type StepKind,
  type StepRunContext,
} from './kind.js';
import { target } from './targets.js';

/** Judges expectations as the run goes; a failed one is recorded and the run goes on. */
export interface ExpectStep extends StepBase {
  readonly kind: 'expect';
  readonly expectations: readonly Expectation[];
}

/** An expectation still undecided this long after its own bound (or its step's start) fails as undecided. */
export const UNDECIDED_AFTER_MS = 10_000;

const fields = {
  newLeaderWithin: duration().optional(),
  noLeaderChange: duration().optional(),
  leaderIs: target.optional(),
  leaderIsNot: target.optional(),
  notificationsPerDeath: strict({ max: z.number().int().min(0) }).optional(),
  state: z.record(z.string(), z.enum(CONTENDER_STATES)).optional(),
  allJobsDoneWithin: duration().optional(),
  everyoneAcquiresWithin: duration().optional(),
};
const schema = strict(fields);
type Value = z.output<typeof schema>;

const EXPECTS_NOTHING =
  'expects nothing (add newLeaderWithin, noLeaderChange, leaderIs, leaderIsNot, notificationsPerDeath, state, ' +
  'allJobsDoneWithin or everyoneAcquiresWithin)';

export const expect: StepKind<ExpectStep, typeof schema> = {
  kind: 'expect',
  schema,
  fields: Object.keys(fields),
  build(v, ctx) {
    if (v.allJobsDoneWithin !== undefined) ctx.needsScheduler(['allJobsDoneWithin']);
    if (v.everyoneAcquiresWithin !== undefined && ctx.contenders && !ctx.contenders.lock) {
      ctx.problem(NEEDS_LOCK, ['everyoneAcquiresWithin']);
    }
    return { kind: 'expect', expectations: expectationsOf(v, ctx) };
  },
  describe: (step) => `expect ${step.expectations.map(describeExpectation).join('; ')}`,
  run: (ctx, step, index) => judge(ctx, step, index),
};

function expectationsOf(v: Value, ctx: BuildContext): Expectation[] {
  const out: Expectation[] = [];
  for (const key of Object.keys(v) as (keyof Value)[]) {
    if (key === 'newLeaderWithin' || key === 'noLeaderChange') {
      out.push({ kind: key, ms: v[key] ?? 0 });
    } else if (key === 'leaderIs' || key === 'leaderIsNot') {
      out.push({ kind: key, contender: ctx.target(v[key] ?? '', ['contender'], [key]) });
    } else if (key === 'allJobsDoneWithin' || key === 'everyoneAcquiresWithin') {
      out.push({ kind: key, ms: v[key] ?? 0 });
    } else if (key === 'notificationsPerDeath') {
      out.push({ kind: key, max: v.notificationsPerDeath?.max ?? 0 });
    } else if (key === 'state') {
      const states = Object.entries(v.state ?? {});
      if (states.length === 0) ctx.problem('names no contender (write state: { c1: follower })', ['state']);
      for (const [contender, state] of states) {
        out.push({ kind: 'state', contender: ctx.target(contender, ['contender'], ['state', contender]), state });
      }
    }
  }
  if (out.length === 0 && Object.keys(v).length === 0) ctx.problem(EXPECTS_NOTHING);
  return out;
}

function boundOf(e: Expectation): number {
  return 'ms' in e ? e.ms : 0;
}

/**
 * Evaluates the step's expectations against the growing history until each is decided. One left undecided long
 * after its bound (a death whose notifications never settle because nobody took over) fails as undecided.
 */
async function judge(ctx: StepRunContext, step: ExpectStep, index: string): Promise<StepDone> {
  const stepStart = Date.now();
  const giveUp = stepStart + Math.max(0, ...step.expectations.map(boundOf)) + UNDECIDED_AFTER_MS;
  const pending = new Set(step.expectations);
  const decided = new Map<Expectation, ExpectationResult>();
  const decide = (e: Expectation, passed: boolean, detail: string, t: number) => {
    pending.delete(e);
    decided.set(e, { step: index, line: step.line, description: describeExpectation(e), passed, detail, t });
  };
  for (;;) {
    const stillStreaming = streaming(ctx);
    const now = Date.now();
    const history = ctx.lab.history(ctx.startedAt, now);
    for (const e of [...pending]) {
      const v = evaluateExpectation(e, {
        history,
        stepStart,
        now,
        streaming: stillStreaming,
        ...(ctx.lastFault ? { lastFault: ctx.lastFault } : {}),
      });
      if (v.status !== 'pending') decide(e, v.status === 'passed', v.detail, now);
      else if (now >= giveUp)
        decide(e, false, `still undecided after ${formatDuration(now - stepStart)} (${v.detail})`, now);
    }
    if (pending.size === 0) {
      const results = step.expectations.map((e) => decided.get(e)).filter((r) => r !== undefined);
      ctx.expectations.push(...results);
      return {
        outcome: results.every((r) => r.passed) ? 'ok' : 'failed',
        detail: results.map((r) => (r.passed ? r.detail : `FAILED ${r.description}: ${r.detail}`)).join('; '),
      };
    }
    await sleep(POLL_MS, undefined, { signal: ctx.signal });
  }
}
