import { describe, expect, it } from 'vitest';
import { serverStep } from '../../../src/drills/format/outside-ensemble.js';
import { parseDrill } from '../../../src/drills/format/schema.js';
import type { StepResult } from '../../../src/drills/judge/result.js';
import { runSteps } from '../../../src/drills/run/steps.js';
import type { RunState } from '../../../src/drills/run/state.js';
import { describeStep } from '../../../src/drills/steps/registry.js';
import { drillErrors } from './drill-errors.js';

const drill = (steps: string) =>
  parseDrill(`name: t\ncontenders: { count: 3, recipe: predecessor }\nsteps:\n${steps}`, 'd.yaml');

/** A run whose lab throws when anything reaches for it. */
function runOf(d: ReturnType<typeof drill>): RunState {
  const untouchable = new Proxy(
    {},
    {
      get: (_, key) => {
        throw new Error(`the log step reached for the lab (${String(key)})`);
      },
    },
  );
  return {
    drill: d,
    lab: untouchable as RunState['lab'],
    signal: new AbortController().signal,
    startedAt: Date.now(),
    steps: [],
    expectations: [],
    pausedAlias: new Map(),
    partitionedAlias: new Map(),
    frozen: new Set(),
    streams: [],
    report: () => undefined,
  };
}

describe('the log step', () => {
  it('is a line of the drill in the report: its text is its description', () => {
    const [step] = drill('  - log: "c1 leads; now kill it"\n').steps;
    expect(step).toEqual({ kind: 'log', line: 4, text: 'c1 leads; now kill it' });
    expect(describeStep(step!)).toBe('c1 leads; now kill it');
  });

  it('runs without touching the lab, and is no fault', async () => {
    const d = drill('  - log: before\n  - repeat: { times: 2, steps: [{ log: inside }] }\n');
    const state = runOf(d);
    expect(await runSteps(state, d.steps)).toBe(true);
    expect(state.steps.map((s: StepResult) => [s.index, s.line, s.kind, s.description, s.outcome])).toEqual([
      ['1', 4, 'log', 'before', 'ok'],
      ['2.1 (1/2)', 5, 'log', 'inside', 'ok'],
      ['2.1 (2/2)', 5, 'log', 'inside', 'ok'],
    ]);
    expect(state.lastFault).toBeUndefined();
  });

  it('may run against an ensemble zklab did not start', () => {
    expect(serverStep(drill('  - log: hello\n'))).toBeUndefined();
  });

  it('needs text', () => {
    expect(drillErrors('name: t\ncontenders: { count: 3 }\nsteps:\n  - log: ""\n  - log: { text: hi }\n')).toEqual([
      'd.yaml:4: steps[0].log: must not be empty (write a value)',
      'd.yaml:5: steps[1].log: expected text, got a mapping (write text here)',
    ]);
  });
});
