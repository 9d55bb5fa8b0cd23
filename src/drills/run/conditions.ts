import { setTimeout as sleep } from 'node:timers/promises';
import { probeSrvr } from '../../ensemble/fourlw.js';
import { isServing } from '../../ensemble/quorum.js';
import { readState } from '../../lab/state.js';
import { describeExpectation, type Expectation } from '../format/expectation.js';
import { formatDuration } from '../../duration.js';
import { evaluateExpectation } from '../judge/expectations.js';
import type { History } from '../judge/history.js';
import type { ExpectationResult } from '../judge/result.js';
import { doneBy, jobFacts } from '../judge/jobs.js';
import { joinedCount, leaderAt, waitConditionsHold } from '../judge/queries.js';
import { streaming } from './scheduler-steps.js';
import type { RunState } from './state.js';
import type { Step } from '../format/step.js';
import type { WaitCondition } from '../format/wait-condition.js';

/** How often a wait or expect step looks at the event logs and the servers again. */
export const POLL_MS = 50;
/** An expectation still undecided this long after its own bound (or its step's start) fails as undecided. */
export const UNDECIDED_AFTER_MS = 10_000;

export interface CheckOutcome {
  readonly outcome: 'ok' | 'failed' | 'timeout';
  readonly detail: string;
}

async function serverServing(state: RunState, name: string): Promise<boolean> {
  const server = readState(state.lab.paths)?.servers.find((s) => s.name === name);
  if (!server) return false;
  return isServing((await probeSrvr(server.clientPort, 500)).mode);
}

/** What a wait saw, for its detail: "c1 leads, 5 joined". */
function seen(c: WaitCondition, h: History, now: number, serving: ReadonlyMap<string, boolean>): string {
  const parts: string[] = [];
  if (c.leader !== undefined || c.leaderIs !== undefined)
    parts.push(`${leaderAt(h, now)?.contender ?? 'nobody'} leads`);
  if (c.joined !== undefined) parts.push(`${joinedCount(h, now)} joined`);
  if (c.jobsDone !== undefined) {
    const jobs = jobFacts(h);
    parts.push(`${doneBy(jobs, now)} of ${jobs.length} job(s) done`);
  }
  for (const [name, up] of serving) parts.push(`${name} ${up ? 'serving' : 'not serving'}`);
  return parts.join(', ');
}

/** Polls until every condition holds (events from the logs, serving / notServing from the servers' srvr). */
export async function runWait(state: RunState, step: Extract<Step, { kind: 'wait' }>): Promise<CheckOutcome> {
  const c = step.until;
  const deadline = Date.now() + step.timeout;
  for (;;) {
    // Asked before the logs are read: a stream seen ended has every job it submitted in them.
    const stillStreaming = streaming(state);
    const now = Date.now();
    const h = state.lab.history(state.startedAt, now);
    const serving = new Map<string, boolean>();
    if (c.serving !== undefined) serving.set(c.serving, await serverServing(state, c.serving));
    if (c.notServing !== undefined) serving.set(c.notServing, await serverServing(state, c.notServing));
    const holds =
      waitConditionsHold(c, h, now, { streaming: stillStreaming }) &&
      (c.serving === undefined || serving.get(c.serving) === true) &&
      (c.notServing === undefined || serving.get(c.notServing) === false);
    if (holds) return { outcome: 'ok', detail: seen(c, h, now, serving) };
    if (now >= deadline) {
      return { outcome: 'timeout', detail: `after ${formatDuration(step.timeout)}: ${seen(c, h, now, serving)}` };
    }
    await sleep(POLL_MS, undefined, { signal: state.signal });
  }
}

function boundOf(e: Expectation): number {
  return 'ms' in e ? e.ms : 0;
}

/**
 * Evaluates the step's expectations against the growing history until each is decided. One left undecided long
 * after its bound (a death whose notifications never settle because nobody took over) fails as undecided.
 */
export async function runExpect(
  state: RunState,
  step: Extract<Step, { kind: 'expect' }>,
  index: string,
): Promise<CheckOutcome> {
  const stepStart = Date.now();
  const giveUp = stepStart + Math.max(0, ...step.expectations.map(boundOf)) + UNDECIDED_AFTER_MS;
  const pending = new Set(step.expectations);
  const decided = new Map<Expectation, ExpectationResult>();
  const decide = (e: Expectation, passed: boolean, detail: string, t: number) => {
    pending.delete(e);
    decided.set(e, { step: index, line: step.line, description: describeExpectation(e), passed, detail, t });
  };
  for (;;) {
    const stillStreaming = streaming(state);
    const now = Date.now();
    const history = state.lab.history(state.startedAt, now);
    for (const e of [...pending]) {
      const v = evaluateExpectation(e, {
        history,
        stepStart,
        now,
        streaming: stillStreaming,
        ...(state.lastFault ? { lastFault: state.lastFault } : {}),
      });
      if (v.status !== 'pending') decide(e, v.status === 'passed', v.detail, now);
      else if (now >= giveUp)
        decide(e, false, `still undecided after ${formatDuration(now - stepStart)} (${v.detail})`, now);
    }
    if (pending.size === 0) {
      const results = step.expectations.map((e) => decided.get(e)).filter((r) => r !== undefined);
      state.expectations.push(...results);
      return {
        outcome: results.every((r) => r.passed) ? 'ok' : 'failed',
        detail: results.map((r) => (r.passed ? r.detail : `FAILED ${r.description}: ${r.detail}`)).join('; '),
      };
    }
    await sleep(POLL_MS, undefined, { signal: state.signal });
  }
}
