import { setTimeout as sleep } from 'node:timers/promises';
import { ZklabError } from '../../errors.js';
import { describeStep } from '../format/describe.js';
import { leaderAt } from '../judge/queries.js';
import type { StepOutcome, StepResult } from '../judge/result.js';
import { runExpect, runWait } from './conditions.js';
import { isFaultStep, runFault } from './fault-steps.js';
import { runPriority } from './priority-steps.js';
import { runFailpoint, runJobs } from './scheduler-steps.js';
import type { RunState } from './state.js';
import type { Step } from '../format/step.js';

interface Done {
  readonly outcome: StepOutcome;
  readonly description: string;
  readonly detail?: string;
}

/** "5.2 (2/3)": the second body step of step 5 in its second iteration. */
function indexOf(path: readonly number[], iterations: readonly string[]): string {
  return path.join('.') + (iterations.length > 0 ? ` (${iterations.join(', ')})` : '');
}

function record(state: RunState, step: Step, index: string, start: number, done: Done): StepResult {
  const result: StepResult = {
    index,
    line: step.line,
    kind: step.kind,
    description: done.description,
    start,
    end: Date.now(),
    outcome: done.outcome,
    ...(done.detail === undefined ? {} : { detail: done.detail }),
  };
  state.steps.push(result);
  state.report({ kind: 'step', step: result, startedAt: state.startedAt });
  return result;
}

async function carryOut(state: RunState, step: Step, index: string): Promise<Done> {
  const description = describeStep(step);
  switch (step.kind) {
    case 'wait':
      return { description, ...(await runWait(state, step)) };
    case 'expect':
      return { description, ...(await runExpect(state, step, index)) };
    case 'sleep':
      await sleep(step.ms, undefined, { signal: state.signal });
      return { description, outcome: 'ok' };
    case 'jobs':
      return { outcome: 'ok', ...(await runJobs(state, step, index)) };
    case 'failpoint':
      return { outcome: 'ok', ...(await runFailpoint(state, step)) };
    case 'repeat':
      throw new Error('a repeat step is run by runSteps');
    case 'priority': {
      // A policy change is meant to move leadership: newLeaderWithin measures from it, as from a fault.
      const t = Date.now();
      const leaderBefore = leaderAt(state.lab.history(state.startedAt, t), t)?.contender ?? null;
      const done = await runPriority(state, step);
      state.lastFault = { t, leaderBefore };
      return { outcome: 'ok', ...done };
    }
    default: {
      if (!isFaultStep(step)) throw new Error(`no runner for step kind ${(step as Step).kind}`);
      const clock = { at: Date.now() };
      const leaderBefore = leaderAt(state.lab.history(state.startedAt, clock.at), clock.at)?.contender ?? null;
      const done = await runFault(state, step, clock);
      state.lastFault = { t: clock.at, leaderBefore };
      return { outcome: 'ok', ...done };
    }
  }
}

/**
 * Runs steps in order; a repeat runs its body `times` times. A wait that times out or a step that cannot be carried
 * out stops the run (what follows is listed as skipped); a failed expectation is recorded and the run goes on.
 * Returns false when the run stopped.
 */
export async function runSteps(
  state: RunState,
  steps: readonly Step[],
  path: readonly number[] = [],
  iterations: readonly string[] = [],
): Promise<boolean> {
  for (const [i, step] of steps.entries()) {
    const at = [...path, i + 1];
    let go: boolean;
    if (step.kind === 'repeat') {
      go = true;
      for (let k = 1; k <= step.times && go; k++)
        go = await runSteps(state, step.steps, at, [...iterations, `${k}/${step.times}`]);
    } else {
      go = await runOne(state, step, indexOf(at, iterations));
    }
    if (!go) {
      for (const [j, rest] of steps.slice(i + 1).entries()) {
        const start = Date.now();
        const detail = 'not run: an earlier step failed';
        record(state, rest, indexOf([...path, i + 2 + j], iterations), start, {
          outcome: 'skipped',
          description: describeStep(rest),
          detail,
        });
      }
      return false;
    }
  }
  return true;
}

export async function runOne(state: RunState, step: Step, index: string): Promise<boolean> {
  const start = Date.now();
  try {
    const done = await carryOut(state, step, index);
    record(state, step, index, start, done);
    return done.outcome !== 'timeout';
  } catch (e) {
    if (state.signal.aborted) throw e;
    const message = e instanceof ZklabError && e.hint ? `${e.message} (${e.hint})` : (e as Error).message;
    record(state, step, index, start, { outcome: 'failed', description: describeStep(step), detail: message });
    state.broke = `step ${index} (line ${step.line}) ${describeStep(step)}: ${message}`;
    return false;
  }
}
