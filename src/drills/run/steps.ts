import { ZklabError } from '../../errors.js';
import { leaderAt } from '../judge/queries.js';
import type { StepOutcome, StepResult } from '../judge/result.js';
import type { RunState } from './state.js';
import { describeStep, type Step, stepKindOf } from '../steps/registry.js';

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
  if (step.kind === 'repeat') throw new Error('a repeat step is run by runSteps');
  const kind = stepKindOf(step);
  const start = Date.now();
  const leaderBefore = kind.fault
    ? (leaderAt(state.lab.history(state.startedAt, start), start)?.contender ?? null)
    : null;
  const done = await kind.run(state, step, index);
  // newLeaderWithin measures from the latest fault: when it landed, and who led just before.
  if (kind.fault) state.lastFault = { t: done.appliedAt ?? start, leaderBefore };
  return {
    outcome: done.outcome ?? 'ok',
    description: done.description ?? kind.describe(step),
    ...(done.detail === undefined ? {} : { detail: done.detail }),
  };
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
    // An interrupt between steps stops the run here: a step that finds its condition met at once never waits on it.
    state.signal.throwIfAborted();
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
