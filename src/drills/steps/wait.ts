import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { formatDuration } from '../../duration.js';
import { isServing, probeServer } from '../../ensemble/quorum.js';
import { readState } from '../../lab/state.js';
import { describeWait, type WaitCondition } from '../core/wait-condition.js';
import { duration, strict } from '../core/zod-helpers.js';
import type { History } from '../judge/history.js';
import { doneBy, jobFacts } from '../judge/jobs.js';
import { joinedCount, leaderWords, waitConditionsHold } from '../judge/queries.js';
import { streaming } from '../lab/streams.js';
import { POLL_MS, type StepBase, type StepDone, type StepKind, type StepRunContext } from './kind.js';
import { target } from './targets.js';

/** Polls until every condition holds; the run stops if they do not within the timeout. */
export interface WaitStep extends StepBase {
  readonly kind: 'wait';
  readonly until: WaitCondition;
  readonly timeout: number;
}

/** `jobsDone: true` (every job submitted so far) or a count of jobs. */
const jobsDone = z.unknown().transform((value, ctx): true | number => {
  if (value === true || (typeof value === 'number' && Number.isInteger(value) && value >= 1)) return value;
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(value)} is not allowed (use true for every job submitted so far, or a count such as 5)`,
  });
  return z.NEVER;
});

const fields = {
  leader: z.boolean().optional(),
  leaderIs: target.optional(),
  joined: z.number().int().min(1).optional(),
  serving: target.optional(),
  notServing: target.optional(),
  jobsDone: jobsDone.optional(),
  timeout: duration('a wait needs a timeout so a stuck drill fails instead of hanging: add timeout: 10s'),
};
const schema = strict(fields);

export const wait: StepKind<WaitStep, typeof schema> = {
  kind: 'wait',
  summary: 'Wait until every condition holds; the run stops if they do not hold within the timeout (required)',
  examples: [
    'wait: { leader: true, timeout: 10s }',
    'wait: { joined: 5, leaderIs: c1, timeout: 20s }',
    'wait: { serving: zk1, timeout: 20s }',
    'wait: { jobsDone: true, timeout: 30s }',
  ],
  schema,
  fields: Object.keys(fields),
  build(v, ctx) {
    const { timeout, ...conditions } = v;
    if (Object.keys(conditions).length === 0) {
      ctx.problem('waits for nothing (add a condition: leader, leaderIs, joined, serving, notServing or jobsDone)');
    }
    if (v.jobsDone !== undefined) ctx.needsScheduler(['jobsDone']);
    if (v.leaderIs !== undefined) ctx.target(v.leaderIs, ['contender'], ['leaderIs']);
    if (v.serving !== undefined) ctx.target(v.serving, ['server'], ['serving']);
    if (v.notServing !== undefined) ctx.target(v.notServing, ['server'], ['notServing']);
    if (ctx.scope && v.joined !== undefined && v.joined > ctx.scope.contenders) {
      const here = `there are ${ctx.scope.contenders} contender(s) here`;
      ctx.problem(`${v.joined} cannot join: ${here} (lower it or spawn more)`, ['joined']);
    }
    return { kind: 'wait', until: conditions as WaitCondition, timeout };
  },
  describe: (step) => `wait for ${describeWait(step.until)} (up to ${formatDuration(step.timeout)})`,
  server: (step) => step.until.serving ?? step.until.notServing,
  run: (ctx, step) => waitFor(ctx, step),
};

async function serverServing(ctx: StepRunContext, name: string): Promise<boolean> {
  const state = readState(ctx.lab.paths);
  const server = state?.servers.find((s) => s.name === name);
  if (!state || !server) return false;
  return isServing((await probeServer(state, server, 500)).mode);
}

/** What a wait saw, for its detail: "c1 leads, 5 joined". */
function seen(c: WaitCondition, h: History, now: number, serving: ReadonlyMap<string, boolean>): string {
  const parts: string[] = [];
  if (c.leader !== undefined || c.leaderIs !== undefined) parts.push(leaderWords(h, now));
  if (c.joined !== undefined) parts.push(`${joinedCount(h, now)} joined`);
  if (c.jobsDone !== undefined) {
    const jobs = jobFacts(h);
    parts.push(`${doneBy(jobs, now)} of ${jobs.length} job(s) done`);
  }
  for (const [name, up] of serving) parts.push(`${name} ${up ? 'serving' : 'not serving'}`);
  return parts.join(', ');
}

/** Polls until every condition holds (events from the logs, serving / notServing from the servers' srvr). */
async function waitFor(ctx: StepRunContext, step: WaitStep): Promise<StepDone> {
  const c = step.until;
  const deadline = Date.now() + step.timeout;
  for (;;) {
    // Asked before the logs are read: a stream seen ended has every job it submitted in them.
    const stillStreaming = streaming(ctx);
    const { history: h, now } = ctx.lab.historyNow(ctx.startedAt);
    const serving = new Map<string, boolean>();
    if (c.serving !== undefined) serving.set(c.serving, await serverServing(ctx, c.serving));
    if (c.notServing !== undefined) serving.set(c.notServing, await serverServing(ctx, c.notServing));
    const holds =
      waitConditionsHold(c, h, now, { streaming: stillStreaming }) &&
      (c.serving === undefined || serving.get(c.serving) === true) &&
      (c.notServing === undefined || serving.get(c.notServing) === false);
    if (holds) return { outcome: 'ok', detail: seen(c, h, now, serving) };
    if (now >= deadline) {
      return { outcome: 'timeout', detail: `after ${formatDuration(step.timeout)}: ${seen(c, h, now, serving)}` };
    }
    await sleep(POLL_MS, undefined, { signal: ctx.signal });
  }
}
