import { describe, expect, it } from 'vitest';
import { attributeRepeats, gradeScenario, type ScenarioGrade } from '../../../src/audit/grade.js';
import { scenarioNamed } from '../../../src/audit/scenarios.js';
import { parseSlo } from '../../../src/audit/slo.js';
import { runChecks } from '../../../src/drills/judge/checkers.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import type { DrillResult, StepResult } from '../../../src/drills/judge/result.js';
import type { ContenderEvent } from '../../../src/lab/events.js';
import type { LabLine } from '../../../src/faults/kinds/registry.js';
import { acts, ev, joinAll, lab } from '../drills/fixtures.js';

/** A recorded scenario run: its steps, the contenders' and the lab's events, judged by the checks the audit names. */
function run(
  steps: readonly Omit<StepResult, 'index' | 'line'>[],
  events: readonly ContenderEvent[],
  labLines: readonly LabLine[],
  end: number,
): DrillResult {
  const h = buildHistory(events, labLines, { start: 0, end });
  return {
    drill: { name: 'audit-x', file: 'audit-x.yaml', expectFailure: [] },
    startedAt: 0,
    endedAt: end,
    steps: steps.map((s, i) => ({ ...s, index: String(i), line: i + 1 })),
    expectations: [],
    checks: runChecks(h, { singleLeader: {}, failoverTime: { max: 6000 }, herdSize: {} }),
    contenderEvents: events,
    labEvents: labLines,
  };
}

const step = (kind: string, start: number, end: number, outcome: StepResult['outcome'] = 'ok', detail?: string) => ({
  kind,
  description: kind,
  start,
  end,
  outcome,
  ...(detail ? { detail } : {}),
});
const zk = (t: number, leader: string) =>
  lab(t, 'zk-leader', { path: '/election', leader, znode: `/election/${leader}`, session: `s-${leader}` });
const slo = parseSlo(undefined, 2000);
const g = { probed: false, curatorSessionPolicy: false };
const crash = scenarioNamed('leader-crash')!;
const freeze = scenarioNamed('freeze')!;

// c1 leads from 100; killed at 3000; c2 claims at 5000 and leads to the end.
const failover = [
  ...joinAll(0, ['c1', 'c2', 'c3']),
  ev(100, 'c1', 'leader', { token: 10 }),
  ...acts('c1', 10, 100, 3000),
  ev(5000, 'c2', 'leader', { token: 11 }),
  ...acts('c2', 11, 5000, 8000),
];
const crashSteps = [
  step('spawn', 0, 50),
  step('wait', 50, 150),
  step('sleep', 150, 1150),
  step('kill', 3000, 3010),
  step('expect', 3010, 5000),
  step('wait', 5000, 5100),
  step('sleep', 5100, 6100),
];
const crashLab = [
  lab(3000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' }),
  zk(100, 'c1'),
  zk(5000, 'c2'),
];

describe('gradeScenario on recorded runs', () => {
  it('passes a healthy failover and measures it', () => {
    const grade = gradeScenario(crash, run(crashSteps, failover, crashLab, 8000), slo, g);
    expect(grade).toMatchObject({ verdict: 'pass', safety: 'pass', liveness: 'pass', recovery: 'pass' });
    expect(grade.figures).toMatchObject({ failoverMs: 2000, leaderChanges: 1, churn: 0, unavailableMs: 2000 });
  });

  it('fails a failover slower than the bound, with the bound in its words', () => {
    const grade = gradeScenario(crash, run(crashSteps, failover, crashLab, 8000), parseSlo('failover=1s', 2000), g);
    expect(grade.verdict).toBe('fail');
    expect(grade.liveness).toBe('fail');
    expect(grade.why).toBe('failover took 2s, over the 1s bound');
  });

  it('fails a zombie that acts after its thaw while another leads, with the freeze remedy', () => {
    const events = [
      ...joinAll(0, ['c1', 'c2', 'c3']),
      ev(100, 'c1', 'leader', { token: 10 }),
      ...acts('c1', 10, 100, 3000),
      ev(5000, 'c2', 'leader', { token: 11 }),
      ...acts('c2', 11, 5000, 12000),
      ...acts('c1', 10, 7000, 9000),
      ev(9000, 'c1', 'expired'),
    ];
    const labLines = [
      lab(3000, 'contender-paused', { contender: 'c1', pid: 1 }),
      lab(6000, 'contender-resumed', { contender: 'c1', pid: 1 }),
      zk(100, 'c1'),
      zk(5000, 'c2'),
    ];
    const steps = [
      step('spawn', 0, 50),
      step('wait', 50, 150),
      step('sleep', 150, 1150),
      step('pause', 3000, 3010),
      step('expect', 3010, 5000),
      step('sleep', 5000, 6000),
      step('resume', 6000, 6010),
      step('sleep', 6010, 10000),
      step('wait', 10000, 10100),
      step('sleep', 10100, 11100),
    ];
    const grade = gradeScenario(freeze, run(steps, events, labLines, 12000), slo, g);
    expect(grade.verdict).toBe('fail');
    expect(grade.safety).toBe('fail');
    expect(grade.remedy).toMatch(/thawed process/);
  });

  it('fails a program that never reached the steady state, saying so', () => {
    const steps = [step('spawn', 0, 50), step('wait', 50, 16000, 'timeout', 'nobody leads')];
    const grade = gradeScenario(crash, run(steps, joinAll(0, ['c1', 'c2']), [], 16000), slo, g);
    expect(grade.verdict).toBe('fail');
    expect(grade.why).toMatch(/^no steady state before the fault: wait timed out \(nobody leads\)/);
  });

  it('cannot judge safety of a silent program without a probe', () => {
    const silent = [
      ...['c1', 'c2', 'c3'].map((id) => ev(0, id, 'started', { recipe: 'exec' })),
      ev(3000, 'c1', 'exited', { code: null, signal: 'SIGKILL', stderr: [] }),
    ];
    const grade = gradeScenario(crash, run(crashSteps, silent, crashLab, 8000), slo, g);
    expect(grade.safety).toBe('unknown');
    expect(grade.verdict).toBe('unknown');
    expect(grade.notes[0]).toMatch(/no probe/);
  });

  it('cannot judge safety where a probe said nothing while another led: not a pass', () => {
    const probed = (t: number, id: string, leads: boolean | null) =>
      ev(t, id, 'probed', {
        leads,
        everyMs: 250,
        source: 'probe',
        ...(leads === null ? { why: 'hung past 2000ms' } : {}),
      });
    const cut = scenarioNamed('cut-off')!;
    const steps = [...crashSteps.slice(0, 3), step('partition', 3000, 3010), ...crashSteps.slice(4)];
    const silent = ['c1', 'c2', 'c3'].map((id) => ev(0, id, 'started', { recipe: 'exec' }));
    const heard = [...silent, probed(100, 'c1', true), probed(100, 'c2', false), probed(5100, 'c2', true)];
    const labLines = [
      zk(100, 'c1'),
      lab(3000, 'partition', { description: 'cut c1 off', mode: 'blackhole', target: 'c1' }),
      zk(5000, 'c2'),
    ];
    const blind = gradeScenario(cut, run(steps, [...heard, probed(3200, 'c1', null)], labLines, 8000), slo, {
      ...g,
      probed: true,
    });
    expect(blind).toMatchObject({ verdict: 'unknown', safety: 'unknown' });
    expect(blind.why).toBe(
      "safety could not be judged: probes said nothing for 3s while ZooKeeper named another leader (the report's singleLeader details say whose)",
    );
    const seen = gradeScenario(cut, run(steps, [...heard, probed(3200, 'c1', false)], labLines, 8000), slo, {
      ...g,
      probed: true,
    });
    expect(seen).toMatchObject({ verdict: 'pass', safety: 'pass' });
  });

  it('skips a scenario whose fault the lab could not carry out, with why', () => {
    const steps = [...crashSteps.slice(0, 3), step('clock', 3000, 3010, 'failed', "c1's clock cannot be faked")];
    const grade = gradeScenario(scenarioNamed('clock-jump')!, run(steps, failover, crashLab, 8000), slo, g);
    expect(grade).toMatchObject({ verdict: 'skipped', why: "clock: c1's clock cannot be faked" });
  });

  it('reports churn, and grades it only when bounded', () => {
    const flapping = [
      ...failover,
      ev(6000, 'c2', 'paused', { token: 11 }),
      ev(6100, 'c3', 'leader', { token: 12 }),
      ev(7000, 'c3', 'paused', { token: 12 }),
      ev(7100, 'c2', 'leader', { token: 13 }),
    ];
    const r = run(crashSteps, flapping, crashLab, 8000);
    const free = gradeScenario(crash, r, slo, g);
    expect(free.figures.churn).toBe(2);
    expect(free.churn).toBe('n/a');
    expect(free.notes.join(' ')).toMatch(/2 leader change\(s\) beyond the fault's/);
    const bounded = gradeScenario(crash, r, parseSlo('churn=0', 2000), g);
    expect(bounded).toMatchObject({ verdict: 'fail', churn: 'fail' });
  });
});

describe('attributeRepeats', () => {
  it('does not blame the clock for a cut the program fails anyway', () => {
    const failed = (scenario: string): ScenarioGrade => ({
      scenario,
      asks: '',
      verdict: 'fail',
      why: 'c1 acted',
      notes: [],
      safety: 'fail',
      liveness: 'pass',
      churn: 'n/a',
      recovery: 'pass',
      figures: {},
    });
    const [cut, clock] = attributeRepeats([failed('cut-off'), failed('clock-jump')]);
    expect(cut!.verdict).toBe('fail');
    expect(clock).toMatchObject({ verdict: 'unknown', safety: 'unknown' });
    expect(clock!.why).toMatch(/^it fails cut-off/);
    expect(attributeRepeats([failed('clock-jump')])[0]!.verdict).toBe('fail');
  });
});
