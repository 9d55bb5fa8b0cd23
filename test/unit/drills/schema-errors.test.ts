import { describe, expect, it } from 'vitest';
import { parseDrill } from '../../../src/drills/format/schema.js';
import { drillErrors } from './drill-errors.js';

const HEAD = `name: t
contenders: { count: 3, recipe: predecessor }
steps:
`;

const errors = drillErrors;

describe('parseDrill errors name the file, line and field', () => {
  it('rejects a wait without a timeout', () => {
    expect(errors(`${HEAD}  - sleep: 1s\n  - wait: { leader: true }\n`)).toEqual([
      'd.yaml:5: steps[1].wait.timeout: is required (a wait needs a timeout so a stuck drill fails instead of hanging: add timeout: 10s)',
    ]);
  });

  it('rejects an unknown step kind, listing the real ones', () => {
    const [line] = errors(`${HEAD}  - wait: { leader: true, timeout: 1s }\n  - explode: leader\n`);
    expect(line).toMatch(
      /^d\.yaml:5: steps\[1\]\.explode: unknown step kind \(use one of: wait, kill, pause, .*repeat\)$/,
    );
  });

  it('rejects an unknown field, pointing at its own line', () => {
    expect(errors(`${HEAD}  - wait:\n      leader: true\n      timeout: 1s\n      colour: red\n`)).toEqual([
      'd.yaml:7: steps[0].wait.colour: unknown field (use one of: leader, leaderIs, joined, serving, notServing, jobsDone, timeout)',
    ]);
  });

  it('explains an option written next to the step kind instead of inside it', () => {
    expect(errors(`${HEAD}  - kill: leader\n    signal: TERM\n`)).toEqual([
      'd.yaml:5: steps[0].signal: belongs inside the kill step (write kill: { ..., signal: ... })',
    ]);
  });

  it('rejects targets that do not exist, naming the ones that do', () => {
    expect(
      errors(`${HEAD}  - kill: c4\n  - partition: { isolate: zk9 }\n  - wait: { serving: c1, timeout: 1s }\n`),
    ).toEqual([
      'd.yaml:4: steps[0].kill.target: c4 does not exist: the drill has 3 contender(s) at this step (use leader, zk-leader, c1..c3, zk1..zk3)',
      'd.yaml:5: steps[1].partition.isolate: zk9 does not exist: the ensemble has 3 server(s) (use leader, zk-leader, c1..c3, zk1..zk3)',
      'd.yaml:6: steps[2].wait.serving: a contender is not allowed here (use zk1..zk3)',
    ]);
  });

  it('rejects a kill or pause scope that is neither node nor process', () => {
    expect(errors(`${HEAD}  - kill: { target: leader, scope: agent }\n  - pause: { target: c1, scope: 3 }\n`)).toEqual([
      'd.yaml:4: steps[0].kill.scope: "agent" is not a scope (use node or process: node (default: everything it ' +
        'started) or process (its program alone; daemons live on))',
      'd.yaml:5: steps[1].pause.scope: 3 is not a scope (use node or process: node (default: everything it ' +
        'started) or process (its program alone; daemons live on))',
    ]);
  });

  it('rejects a name that is no target at all, and "all" where it makes no sense', () => {
    expect(errors(`${HEAD}  - pause: everyone\n  - kill: all\n`)).toEqual([
      'd.yaml:4: steps[0].pause.target: "everyone" is not a target (use leader, zk-leader, c1..c3, zk1..zk3)',
      'd.yaml:5: steps[1].kill.target: "all" is not allowed here (use leader, zk-leader, c1..c3, zk1..zk3)',
    ]);
  });

  it('checks targets inside a repeat against the contenders at that point', () => {
    const text = `${HEAD}  - repeat:\n      times: 2\n      steps:\n        - spawn: 1\n        - kill: c5\n  - kill: c6\n`;
    expect(errors(text)).toEqual([
      'd.yaml:8: steps[0].repeat.steps[1].kill.target: c5 does not exist: the drill has 4 contender(s) at this step (use leader, zk-leader, c1..c4, zk1..zk3)',
      'd.yaml:9: steps[1].kill.target: c6 does not exist: the drill has 5 contender(s) at this step (use leader, zk-leader, c1..c5, zk1..zk3)',
    ]);
  });

  it('rejects bad durations and bad values', () => {
    expect(errors(`${HEAD}  - sleep: 3 seconds\n  - spawn: 0\n  - expect: { state: { c1: asleep } }\n`)).toEqual([
      'd.yaml:4: steps[0].sleep: "3 seconds" is not a duration (write a duration such as 500ms, 3s or a number of milliseconds)',
      'd.yaml:5: steps[1].spawn: 0 is too small (use at least 1)',
      'd.yaml:6: steps[2].expect.state.c1: "asleep" is not allowed (use one of: follower, leader, paused, frozen, dead)',
    ]);
  });

  it('rejects a partition that is not one of an isolation, a split or a one-way cut', () => {
    expect(errors(`${HEAD}  - partition: { isolate: c1, split: [[zk1], [zk2]] }\n`)).toEqual([
      'd.yaml:4: steps[0].partition: needs exactly one of isolate, split or oneWay (write isolate: leader, ' +
        'split: [[zk1], [zk2, zk3]], or oneWay: [c1, c2])',
    ]);
    expect(errors(`${HEAD}  - partition: { oneWay: [c1, c1] }\n`)).toEqual([
      'd.yaml:4: steps[0].partition.oneWay: names c1 twice (a one-way cut needs two members)',
    ]);
  });

  it('reports problems in several sections at once, in line order', () => {
    const text = `name: Bad Name\ncontenders: { count: 2, recipe: bully }\nsteps:\n  - sleep: 1s\nchecks: [speed]\n`;
    expect(errors(text)).toEqual([
      'd.yaml:1: name: is not a drill name (use lowercase letters, digits and dashes)',
      'd.yaml:2: contenders.recipe: "bully" is unknown (choose one of predecessor, herd, single-file, priority, curator-latch, kazoo-election)',
      'd.yaml:5: checks[0].speed: unknown field (use one of: singleLeader, failoverTime, herdSize, liveness, noLostJobs, executionsPerJob, statusTtl, mutualExclusion, fencedWrites, lockProgress, notificationsPerRelease, preemption)',
    ]);
  });

  it("rejects a session timeout the lab's servers would not grant, and priority options on another recipe", () => {
    const text = `name: t\ncontenders:\n  count: 2\n  recipe: predecessor\n  sessionTimeout: 90s\n  priorities: [1, 2]\nsteps:\n  - sleep: 1s\n`;
    expect(errors(text)).toEqual([
      'd.yaml:5: contenders.sessionTimeout: "90s" is not what servers with tick 200ms grant (400ms to 1m00s) (give one in that range, or change the ensemble\'s tick)',
      'd.yaml:6: contenders.priorities: only applies to recipe: priority (remove it, or use recipe: priority)',
    ]);
  });

  it('accepts a session timeout beyond 20 ticks up to the 60 s a lab grants', () => {
    const drill = parseDrill(
      `name: t\ncontenders: { count: 2, recipe: predecessor, sessionTimeout: 10s }\nsteps:\n  - sleep: 1s\n`,
      'd.yaml',
    );
    expect(drill.contenders.sessionTimeoutMs).toBe(10_000);
  });

  it('rejects expectFailure naming a check the drill does not run', () => {
    expect(errors(`${HEAD}  - sleep: 1s\nchecks: [liveness]\nexpectFailure: [singleLeader]\n`)).toEqual([
      'd.yaml:6: expectFailure[0]: singleLeader is not among the checks (add it to checks)',
    ]);
  });

  it('reports what is written wrong before what is then missing', () => {
    // contenders indented into a step: the step is the real error, the missing section only follows from it.
    const nested = `name: t\nsteps:\n  - explode: leader\n    contenders: { count: 3, recipe: predecessor }\n`;
    expect(errors(nested).map((l) => l.replace(/ \(use one of: .*\)$/, ''))).toEqual([
      'd.yaml:3: steps[0].explode: unknown step kind',
      'd.yaml:4: steps[0].contenders: unknown step kind',
      'd.yaml:1: contenders: is required (add it: a mapping)',
    ]);
    const repeat = `${HEAD}  - repeat:\n      times: 2\n    steps:\n      - kill: leader\n`;
    expect(errors(repeat)).toEqual([
      'd.yaml:6: steps[0].steps: belongs inside the repeat step (write repeat: { ..., steps: ... })',
      'd.yaml:4: steps[0].repeat.steps: is required (add it: a list)',
    ]);
  });

  it('reports a missing required section at the top', () => {
    expect(errors(`name: t\nsteps:\n  - sleep: 1s\n`)).toEqual([
      'd.yaml:1: contenders: is required (add it: a mapping)',
    ]);
  });

  it('reports YAML syntax errors with their line', () => {
    const [line] = errors(`${HEAD}  - kill: [leader\n  - sleep: 1s\n`);
    expect(line).toMatch(/^d\.yaml:\d+: \(yaml\): .+ \(fix the YAML syntax\)$/);
    expect(line).not.toContain('\n');
  });

  it('rejects an empty file', () => {
    expect(errors('# nothing\n')).toEqual([
      'd.yaml:1: (top level): the file is empty (write a drill: name, contenders, steps; see templates/drills/)',
    ]);
  });

  it('rejects a file that is not a mapping', () => {
    expect(errors('- kill: leader\n')).toEqual([
      'd.yaml:1: (top level): expected a mapping, got a list (write a mapping here)',
    ]);
  });
});
