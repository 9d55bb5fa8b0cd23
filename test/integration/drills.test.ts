import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DrillLab } from '../../src/drills/lab/drill-lab.js';
import { afterAll, describe, expect, it } from 'vitest';
import { listBuiltinDrills, resolveDrill } from '../../src/drills/format/builtins.js';
import { parseDrill } from '../../src/drills/format/schema.js';
import { expandVariants } from '../../src/drills/format/variants.js';
import { checkVerdicts, type DrillResult, drillPassed } from '../../src/drills/judge/result.js';
import { runDrill } from '../../src/drills/run/runner.js';
import type { DrillProgress } from '../../src/drills/run/progress.js';
import { LabPaths } from '../../src/lab/paths.js';
import { emptyState, writeState } from '../../src/lab/state.js';
import { findMarked } from '../../src/lab/node/procs.js';
import { explainDrill } from '../helpers/drill-explain.js';
import { tempDir } from '../helpers/paths.js';

/**
 * Every built-in drill on a real ensemble of its own, two at a time (the `labs` project's maxConcurrency): a drill
 * mostly waits on sessions and timeouts, so a second one beside it costs little. Nothing is shared between them.
 */

const timings: { name: string; ms: number }[] = [];
/** Each built-in drill run's result, by its name (`drill:variant`), for the tests that read one closer. */
const results = new Map<string, DrillResult>();

function labDir(): string {
  return `${tempDir()}/lab`;
}

/** A lab left with no process and no directory. */
function expectTornDown(dir: string): void {
  expect(findMarked(new LabPaths(dir).markers)).toEqual([]);
  expect(existsSync(dir)).toBe(false);
}

afterAll(() => {
  const total = timings.reduce((n, t) => n + t.ms, 0);
  console.log(
    `built-in drills, wall time each:\n${timings.map((t) => `  ${t.name.padEnd(28)} ${(t.ms / 1000).toFixed(1)} s`).join('\n')}\n  total ${(total / 1000).toFixed(1)} s`,
  );
});

describe('built-in drills on real ensembles', () => {
  // A drill with variants is run once per variant, as `drill run` does: each states its own expected failures.
  // One run of a drill per suite: zombie-leader runs in test/e2e/readme.test.ts, as the README's session runs it;
  // the isolation drills of real clients and curator-696 in test/integration/client-races.test.ts, which reads
  // their reports;
  // the clock lessons in test/integration/clock-lessons.test.ts;
  // leader-node-isolated in test/integration/node-net.test.ts, on both networks, and zk-leader-isolation and
  // client-partition there on the node network (their proxy-net faults are tested in net-servers and net-contenders).
  const elsewhere = new Set([
    'zombie-leader',
    'zk-leader-isolation',
    'client-partition',
    'curator-leader-isolated',
    'curator-696',
    'kazoo-leader-isolated',
    'leader-node-isolated',
    'clock-server-jump',
    'kazoo-clock-jump',
    'clock-drift',
    'curator-clock-back',
    'curator-clock-forward',
  ]);
  const runs = listBuiltinDrills()
    .filter((name) => !elsewhere.has(name))
    .flatMap((name) => expandVariants(resolveDrill(name)).map((drill) => [drill.name, drill] as const));
  it.concurrent.for(runs)('%s passes', { timeout: 180_000 }, async ([name, drill], { expect }) => {
    const dir = labDir();
    const started = Date.now();
    const r = await runDrill(drill, { labDir: dir, seed: 1 });
    results.set(name, r);
    timings.push({ name, ms: Date.now() - started });
    expect(drillPassed(r), explainDrill(r)).toBe(true);
    expect(r.steps.every((s) => s.outcome === 'ok')).toBe(true);
    expect(r.expectations.length).toBeGreaterThan(0);
    expect(r.expectations.every((e) => e.passed)).toBe(true);
    expect(r.seed).toBe(1);
    // A drill's expected failures really fail: that is what proves the checker can catch the problem.
    for (const v of checkVerdicts(r)) expect(v.check.passed, `${name} ${v.check.name}`).toBe(!v.expectedToFail);
    expectTornDown(dir);
  });

  it('judges split-brain FAILED by singleLeader with stale actions of the cut-off leader', () => {
    // Checked in the loop above too; spelled out here, on that run's result, because it is the proof that the
    // checker can fail.
    expect(resolveDrill('split-brain').expectFailure).toEqual(['singleLeader']);
    const r = results.get('split-brain');
    expect(r, 'split-brain ran above').toBeDefined();
    if (!r) return;
    const single = r.checks.find((c) => c.name === 'singleLeader');
    expect(single?.passed).toBe(false);
    expect(single?.details.some((d) => d.level === 'violation' && /stale leader acted: c1/.test(d.message))).toBe(true);
    expect(drillPassed(r)).toBe(true);
  });

  it('judges rolling-restart live after each of its three restarts, a fault each', () => {
    const r = results.get('rolling-restart');
    expect(r, 'rolling-restart ran above').toBeDefined();
    if (!r) return;
    const restarts = r.steps.filter((s) => s.kind === 'restart');
    expect(restarts).toHaveLength(3);
    // From the lab's own record: each restart began with the SIGKILL of its server.
    expect(r.labEvents.filter((e) => e.event === 'server-killed').map((e) => 'server' in e && e.server)).toEqual([
      'zk1',
      'zk2',
      'zk3',
    ]);
    const liveness = r.checks.find((c) => c.name === 'liveness');
    expect(liveness?.summary).toBe('a leader within 30s after each of 3 fault(s)');
  });
});

describe('the runner', () => {
  const EVERY_STEP = `name: every-step
description: every step kind once, on a real lab
ensemble: { servers: 3, tick: 200 }
contenders: { count: 3, recipe: predecessor, sessionTimeout: 2s }
steps:
  - wait: { joined: 3, leaderIs: c1, timeout: 20s }
  - delay: { target: c2, ms: 100, jitter: 20 }
  - sleep: 300ms
  - heal: c2
  - partition: { split: [[zk1], [zk2, zk3, c1, c2, c3]] }
  - wait: { notServing: zk1, timeout: 15s }
  - heal: all
  - wait: { serving: zk1, timeout: 15s }
  - pause: zk-leader
  - resume: zk-leader
  - pause: c3
  - resume: all
  - kill: { target: zk-leader, signal: TERM }
  - restart: all
  - wait: { serving: zk1, timeout: 20s }
  - wait: { leader: true, timeout: 15s }
  - spawn: 1
  - stop: c4
  - repeat: { times: 2, steps: [ { kill: leader }, { expect: { newLeaderWithin: 6s } } ] }
  - wait: { leader: true, timeout: 10s }
  - expect: { leaderIsNot: c4, state: { c4: dead } }
checks: [singleLeader, liveness]
`;

  it('carries out every step kind on a real lab', async () => {
    const dir = labDir();
    const drill = parseDrill(EVERY_STEP, 'every-step.yaml');
    const r = await runDrill(drill, { labDir: dir });
    expect(drillPassed(r), explainDrill(r)).toBe(true);
    expect(new Set(r.steps.map((s) => s.kind))).toEqual(
      new Set([
        'spawn',
        'wait',
        'delay',
        'sleep',
        'heal',
        'partition',
        'pause',
        'resume',
        'kill',
        'restart',
        'stop',
        'expect',
      ]),
    );
    const described = r.steps.map((s) => s.description);
    // What `leader` and `zk-leader` resolved to is part of the record.
    expect(described).toContainEqual(expect.stringMatching(/^pause zk-leader → zk\d$/));
    expect(described).toContainEqual(expect.stringMatching(/^kill leader → c\d$/));
    expect(r.labEvents.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'delay',
        'heal',
        'partition',
        'server-paused',
        'server-resumed',
        'contender-paused',
        'contender-resumed',
        'server-killed',
        'server-restarted',
        'contender-stopped',
        'contender-killed',
      ]),
    );
    expectTornDown(dir);
  }, 180_000);

  const FAILING = `name: stuck
description: waits for something that never happens
contenders: { count: 2, recipe: predecessor }
steps:
  - wait: { joined: 2, timeout: 20s }
  - wait: { leaderIs: c2, timeout: 1s }
  - kill: leader
  - expect: { newLeaderWithin: 5s }
checks: [singleLeader]
`;

  it('stops at a wait that times out, lists the rest as skipped and tears the lab down', async () => {
    const dir = labDir();
    const r = await runDrill(parseDrill(FAILING, 'stuck.yaml'), { labDir: dir });
    expect(r.steps.map((s) => [s.index, s.outcome])).toEqual([
      ['0', 'ok'],
      ['1', 'ok'],
      ['2', 'timeout'],
      ['3', 'skipped'],
      ['4', 'skipped'],
    ]);
    expect(r.steps[2]?.detail).toMatch(/after 1s: c1 leads/);
    // A check over half a history would claim what nobody saw: it says it was not judged, and where the run stopped.
    expect(checkVerdicts(r).map((v) => [v.check.name, v.label])).toEqual([['singleLeader', 'NOT JUDGED']]);
    expect(r.checks[0]?.summary).toMatch(/^the drill stopped at step 2 \(line 6\): wait .* timed out$/);
    expect(drillPassed(r)).toBe(false);
    expectTornDown(dir);
  }, 120_000);

  it('reports a step it cannot carry out and still tears down', async () => {
    const dir = labDir();
    const text = FAILING.replace('  - wait: { leaderIs: c2, timeout: 1s }\n', '  - resume: leader\n');
    const r = await runDrill(parseDrill(text, 'resume.yaml'), { labDir: dir });
    expect(r.error).toMatch(/step 2 \(line 6\) resume leader: nothing to resume/);
    expect(r.steps.map((s) => s.outcome)).toEqual(['ok', 'ok', 'failed', 'skipped', 'skipped']);
    expect(r.checks.map((c) => c.notJudged)).toEqual([
      expect.stringMatching(/^the drill stopped at step 2 \(line 6\): resume leader failed$/),
    ]);
    expectTornDown(dir);
  }, 120_000);

  it('tears everything down when aborted (Ctrl-C) and rethrows the abort', async () => {
    const dir = labDir();
    const controller = new AbortController();
    const onProgress = (p: DrillProgress) => {
      if (p.kind === 'step' && p.step.index === '1') controller.abort(new Error('interrupted by SIGINT'));
    };
    const drill = resolveDrill('join-and-elect');
    await expect(runDrill(drill, { labDir: dir, signal: controller.signal, onProgress })).rejects.toThrow(
      'interrupted by SIGINT',
    );
    expectTornDown(dir);
  }, 120_000);

  it('beside a directory that holds a lab, runs in a directory of its own under it and leaves the other lab', async () => {
    const paths = new LabPaths(labDir());
    writeState(paths, emptyState());
    const lab = DrillLab.open('test', paths.root);
    expect(dirname(lab.paths.root)).toBe(paths.root);
    expect(readdirSync(lab.paths.root)).toEqual([]);
    await lab.close();
    expect(existsSync(lab.paths.root)).toBe(false);
    expect(readdirSync(paths.root)).toEqual(['lab.json']);
  });
});
