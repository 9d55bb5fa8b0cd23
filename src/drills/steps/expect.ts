import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { formatDuration } from '../../duration.js';
import { strict } from '../core/zod-helpers.js';
import type { ExpectationResult } from '../judge/result.js';
import { streaming } from '../lab/streams.js';
import {
  boundOf,
  describeExpectation,
  EXPECTATION_KINDS,
  type Expectation,
  evaluateExpectation,
} from './expectations/registry.js';
import type { ExpectationKind } from './expectations/kind.js';
import {
  type BuildContext,
  POLL_MS,
  type StepBase,
  type StepDone,
  type StepKind,
  type StepRunContext,
} from './kind.js';

/** Judges expectations as the run goes; a failed one is recorded and the run goes on. */
export interface ExpectStep extends StepBase {
  readonly kind: 'expect';
  readonly expectations: readonly Expectation[];
}

/** An expectation still undecided this long after its own bound (or its step's start) fails as undecided. */
export const UNDECIDED_AFTER_MS = 10_000;

type Registered = (typeof EXPECTATION_KINDS)[number];
const fields = Object.fromEntries(EXPECTATION_KINDS.map((k) => [k.kind, k.schema.optional()])) as {
  [K in Registered as K['kind']]: z.ZodOptional<K['schema']>;
};
const schema = strict(fields);
type Value = z.output<typeof schema>;

const KINDS: readonly ExpectationKind[] = EXPECTATION_KINDS;
const NAMES = KINDS.map((k) => k.kind);
const EXPECTS_NOTHING = `expects nothing (add ${NAMES.slice(0, -1).join(', ')} or ${NAMES.at(-1)})`;

export const expect: StepKind<ExpectStep, typeof schema> = {
  kind: 'expect',
  summary: 'Judge expectations as the run goes; a failed one is recorded, and the run goes on',
  examples: KINDS.map((k) => `expect: { ${k.example} }`),
  schema,
  fields: NAMES,
  build: (v, ctx) => ({ kind: 'expect', expectations: expectationsOf(v, ctx) }),
  describe: (step) => `expect ${step.expectations.map(describeExpectation).join('; ')}`,
  run: (ctx, step, index) => judge(ctx, step, index),
};

/** The expectations of the step's value, in the registry's order; what the contenders cannot give is a problem. */
function expectationsOf(v: Value, ctx: BuildContext): Expectation[] {
  const values: Readonly<Record<string, unknown>> = v;
  const given = KINDS.filter((k) => values[k.kind] !== undefined);
  for (const k of given) {
    const unmet = ctx.contenders ? k.needs?.(ctx.contenders) : undefined;
    if (unmet !== undefined) ctx.problem(unmet, [k.kind]);
  }
  // Each kind builds expectations of its own kind from its own value.
  const out = given.flatMap((k) => k.build(values[k.kind], ctx)) as Expectation[];
  if (out.length === 0 && given.length === 0) ctx.problem(EXPECTS_NOTHING);
  return out;
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
    const { history, now } = ctx.lab.historyNow(ctx.startedAt);
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
