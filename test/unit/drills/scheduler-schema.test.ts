import { describe, expect, it } from 'vitest';
import { describeStep } from '../../../src/drills/steps/registry.js';
import { parseDrill } from '../../../src/drills/format/schema.js';
import { drillErrors } from './drill-errors.js';

const HEAD = `name: t
contenders: { count: 3, workload: scheduler }
steps:
`;

const errors = drillErrors;

describe('drill files for the scheduler', () => {
  it('reads the workload, its options and the predecessor recipe it runs on', () => {
    const d = parseDrill(
      `name: t\ncontenders: { count: 3, workload: scheduler, strategy: random, statusTtl: 3s, path: /jobs-a }\nsteps:\n  - sleep: 1s\n`,
      'd.yaml',
    );
    expect(d.contenders).toMatchObject({
      count: 3,
      recipe: 'predecessor',
      scheduler: { root: '/jobs-a', strategy: 'random', statusTtlMs: 3000 },
      path: '/jobs-a/election',
      onDisconnect: 'pause',
      sessionTimeoutMs: 2000,
    });
    // A drill that names no checks is judged by the election's four, scheduler or not.
    expect(Object.keys(d.checks)).toEqual(['singleLeader', 'failoverTime', 'herdSize', 'liveness']);
  });

  it('reads jobs steps, short and long, queued or streamed', () => {
    const d = parseDrill(
      `${HEAD}  - jobs: 4
  - jobs: { submit: 9, kind: sleep, ms: 3s }
  - jobs: { submit: 2, kind: sum, args: [1, 2.5] }
  - jobs: { submit: 1, kind: fail }
  - jobs: { submit: 30, ms: 1s, over: 4s }
`,
      'd.yaml',
    );
    expect(d.steps).toEqual([
      { kind: 'jobs', line: 4, count: 4, spec: { kind: 'sleep', ms: 200 } },
      { kind: 'jobs', line: 5, count: 9, spec: { kind: 'sleep', ms: 3000 } },
      { kind: 'jobs', line: 6, count: 2, spec: { kind: 'sum', args: [1, 2.5] } },
      { kind: 'jobs', line: 7, count: 1, spec: { kind: 'fail' } },
      { kind: 'jobs', line: 8, count: 30, spec: { kind: 'sleep', ms: 1000 }, over: 4000 },
    ]);
    expect(d.steps.map(describeStep)).toEqual([
      'submit 4 sleep jobs (200ms each)',
      'submit 9 sleep jobs (3s each)',
      'submit 2 sum jobs of [1, 2.5]',
      'submit 1 fail job',
      'stream 30 sleep jobs (1s each) over 4s',
    ]);
  });

  it('reads failpoints, jobsDone waits and allJobsDoneWithin expectations', () => {
    const d = parseDrill(
      `${HEAD}  - failpoint: { target: leader, at: before-assign, action: crash }
  - wait: { jobsDone: true, timeout: 10s }
  - wait: { jobsDone: 5, leader: true, timeout: 10s }
  - expect: { allJobsDoneWithin: 20s }
checks: [noLostJobs, { executionsPerJob: { max: 2 } }, { statusTtl: { slack: 3s } }, { noLostJobs: { within: 6s } }]
`,
      'd.yaml',
    );
    expect(d.steps).toEqual([
      { kind: 'failpoint', line: 4, target: 'leader', at: 'before-assign', action: 'crash' },
      { kind: 'wait', line: 5, until: { jobsDone: true }, timeout: 10_000 },
      { kind: 'wait', line: 6, until: { jobsDone: 5, leader: true }, timeout: 10_000 },
      { kind: 'expect', line: 7, expectations: [{ kind: 'allJobsDoneWithin', ms: 20_000 }] },
    ]);
    expect(d.steps.map(describeStep)).toEqual([
      'failpoint in leader: crash at before-assign',
      'wait for every job done (up to 10s)',
      'wait for a leader, 5 job(s) done (up to 10s)',
      'expect every job done within 20s',
    ]);
    expect(d.checks).toEqual({
      noLostJobs: { within: 6000 },
      executionsPerJob: { max: 2 },
      statusTtl: { slack: 3000 },
    });
  });

  it('refuses scheduler options without the workload, and the workload on another recipe or a program', () => {
    expect(
      errors(
        `name: t\ncontenders: { count: 2, recipe: predecessor, strategy: random, statusTtl: 3s, path: /s }\nsteps:\n  - sleep: 1s\n`,
      ),
    ).toEqual([
      'd.yaml:2: contenders.strategy: only applies to workload: scheduler (remove it, or add workload: scheduler)',
      'd.yaml:2: contenders.statusTtl: only applies to workload: scheduler (remove it, or add workload: scheduler)',
    ]);
    expect(
      errors(`name: t\ncontenders:\n  count: 2\n  workload: scheduler\n  recipe: herd\nsteps:\n  - sleep: 1s\n`),
    ).toEqual([
      'd.yaml:5: contenders.recipe: workload: scheduler runs on predecessor, not herd (use recipe: predecessor, or leave recipe out)',
    ]);
    expect(
      errors(
        `name: t\ncontenders:\n  count: 2\n  workload: scheduler\n  exec: [python3, x.py]\nsteps:\n  - sleep: 1s\n`,
      ),
    ).toEqual(['d.yaml:5: contenders.exec: workload: scheduler runs its own workers, not a program (remove exec)']);
  });

  it('refuses a bad workload, strategy, TTL or path', () => {
    expect(errors(`name: t\ncontenders:\n  count: 2\n  workload: batch\nsteps:\n  - sleep: 1s\n`)).toEqual([
      'd.yaml:4: contenders.workload: "batch" is unknown (choose one of scheduler, lock)',
    ]);
    expect(
      errors(
        `name: t\ncontenders:\n  count: 2\n  workload: scheduler\n  strategy: fair\n  statusTtl: 0s\n  path: scheduler\nsteps:\n  - sleep: 1s\n`,
      ),
    ).toEqual([
      'd.yaml:5: contenders.strategy: "fair" is unknown (choose one of round-robin, random)',
      'd.yaml:6: contenders.statusTtl: "0s" is not above 0 (write a duration from 1ms to 24h00m, e.g. 250ms or 2s)',
      'd.yaml:7: contenders.path: "scheduler" is not a ZooKeeper path (use an absolute path such as /election: letters, digits, . _ : -)',
    ]);
    expect(
      errors(
        `name: t\ncontenders:\n  count: 2\n  workload: scheduler\n  statusTtl: 0s\n  path: scheduler\nsteps:\n  - sleep: 1s\n`,
      ),
    ).toEqual([
      'd.yaml:5: contenders.statusTtl: "0s" is not above 0 (write a duration from 1ms to 24h00m, e.g. 250ms or 2s)',
      'd.yaml:6: contenders.path: "scheduler" is not a ZooKeeper path (use an absolute path such as /election: letters, digits, . _ : -)',
    ]);
  });

  it('refuses jobs, job conditions and job checks without the scheduler', () => {
    const text = `name: t\ncontenders: { count: 3, recipe: predecessor }\nsteps:\n  - jobs: 3\n  - wait: { jobsDone: true, timeout: 5s }\n  - expect: { allJobsDoneWithin: 5s }\nchecks: [singleLeader, noLostJobs]\n`;
    expect(errors(text)).toEqual([
      "d.yaml:4: steps[0].jobs: needs the scheduler's workers (add workload: scheduler to contenders)",
      "d.yaml:5: steps[1].wait.jobsDone: needs the scheduler's workers (add workload: scheduler to contenders)",
      "d.yaml:6: steps[2].expect.allJobsDoneWithin: needs the scheduler's workers (add workload: scheduler to contenders)",
      "d.yaml:7: checks[1].noLostJobs: judges jobs: it needs the scheduler's workers (add workload: scheduler to contenders)",
    ]);
  });

  it('refuses job fields of another kind of job, and a sum without args', () => {
    expect(
      errors(
        `${HEAD}  - jobs: { submit: 2, kind: sum, ms: 1s }\n  - jobs: { submit: 2, args: [1] }\n  - jobs: { submit: 0 }\n  - jobs: { submit: 1, over: 0s }\n`,
      ),
    ).toEqual([
      'd.yaml:4: steps[0].jobs.ms: only applies to sleep jobs (remove it or use kind: sleep)',
      'd.yaml:5: steps[1].jobs.args: only applies to sum jobs (remove it or use kind: sum)',
      'd.yaml:6: steps[2].jobs.submit: 0 is too small (use at least 1)',
      'd.yaml:7: steps[3].jobs.over: must be above 0 (leave it out to queue the jobs at once)',
      // What is missing comes after what is written wrong.
      'd.yaml:4: steps[0].jobs.args: is required for sum jobs (add args: [1, 2])',
    ]);
  });

  it('refuses jobsDone: false, an unknown failpoint, a server as its target, and failpoints of contenders that have none', () => {
    expect(
      errors(
        `${HEAD}  - wait: { jobsDone: false, timeout: 1s }\n  - failpoint: { target: c2, at: before-lunch, action: hang }\n  - failpoint: { target: zk1, at: before-assign, action: crash }\n  - failpoint: { target: c1, at: before-assign, action: explode }\n`,
      ),
    ).toEqual([
      'd.yaml:4: steps[0].wait.jobsDone: false is not allowed (use true for every job submitted so far, or a count such as 5)',
      'd.yaml:5: steps[1].failpoint.at: "before-lunch" is not a failpoint of these contenders (use one of: before-assign, after-assign, before-status, after-status-before-unassign, after-create-before-watch)',
      'd.yaml:6: steps[2].failpoint.target: a server is not allowed here (use leader, c1..c3)',
      'd.yaml:7: steps[3].failpoint.action: "explode" is not allowed (use one of: crash, pause, hang)',
    ]);
    expect(
      errors(
        `name: t\ncontenders: { count: 2, recipe: single-file }\nsteps:\n  - failpoint: { target: c1, at: before-assign, action: crash }\n`,
      ),
    ).toEqual([
      "d.yaml:4: steps[0].failpoint: these contenders have no failpoints (zklab's own recipes have them: predecessor, herd, and workload: scheduler)",
    ]);
    // The election recipes have failpoints of their own.
    expect(
      parseDrill(
        `name: t\ncontenders: { count: 2, recipe: herd }\nsteps:\n  - failpoint: { target: c1, at: after-create-before-watch, action: pause }\n`,
        'd.yaml',
      ).steps,
    ).toHaveLength(1);
  });

  it('refuses a variant that changes the workload', () => {
    const text = `name: t\ncontenders: { count: 3, recipe: predecessor }\nsteps:\n  - sleep: 1s\nvariants:\n  - { name: a, contenders: { onDisconnect: ignore } }\n  - { name: b, contenders: { workload: scheduler } }\n`;
    expect(errors(text)).toEqual([
      'd.yaml:7: variants[1].contenders.workload: differs from contenders.workload (the steps and checks depend on it; keep it)',
    ]);
    const random = parseDrill(
      `${HEAD}  - jobs: 3\nvariants:\n  - { name: a, contenders: { strategy: random } }\n`,
      'd.yaml',
    );
    expect(random.variants?.[0]?.contenders).toMatchObject({ scheduler: { strategy: 'random' } });
  });
});
