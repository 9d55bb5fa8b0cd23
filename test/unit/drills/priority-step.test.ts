import { describe, expect, it } from 'vitest';
import { describeStep } from '../../../src/drills/steps/registry.js';
import { parseDrill } from '../../../src/drills/format/schema.js';
import { specOfContender } from '../../../src/contenders/spec.js';
import { drillErrors } from './drill-errors.js';

const PRIORITY = `name: t
contenders: { count: 3, recipe: priority, policy: site, priorities: [10, 5, 1], sites: [a, a, b] }
steps:
`;

const ELECTION = `name: t
contenders: { count: 3, recipe: predecessor }
steps:
`;

describe('the priority step', () => {
  it('reads preferSite and set on priority contenders, and describes them', () => {
    const d = parseDrill(
      `${PRIORITY}  - priority: { preferSite: b }\n  - priority: { set: { c2: 50 } }\n  - priority: { set: { c1: -3, c3: 0 } }\n`,
      'd.yaml',
    );
    expect(d.steps).toEqual([
      { kind: 'priority', line: 4, preferSite: 'b' },
      { kind: 'priority', line: 5, set: { c2: 50 } },
      { kind: 'priority', line: 6, set: { c1: -3, c3: 0 } },
    ]);
    expect(d.steps.map(describeStep)).toEqual([
      'policy: prefer site b',
      'policy: priority c2 = 50',
      'policy: priority c1 = -3, c3 = 0',
    ]);
  });

  it('reads it inside repeat, and names a contender a spawn step added', () => {
    const d = parseDrill(
      `${PRIORITY}  - spawn: 1\n  - repeat: { times: 2, steps: [{ priority: { set: { c4: 7 } } }] }\n`,
      'd.yaml',
    );
    expect(d.steps[1]).toEqual({
      kind: 'repeat',
      line: 5,
      times: 2,
      steps: [{ kind: 'priority', line: 5, set: { c4: 7 } }],
    });
  });

  it('refuses neither and both of set and preferSite', () => {
    const message =
      'says neither or both of set and preferSite (write priority: { set: { c2: 50 } } or priority: { preferSite: b })';
    expect(drillErrors(`${PRIORITY}  - priority: {}\n`)).toEqual([`d.yaml:4: steps[0].priority: ${message}`]);
    expect(drillErrors(`${PRIORITY}  - priority: { set: { c2: 50 }, preferSite: b }\n`)).toEqual([
      `d.yaml:4: steps[0].priority: ${message}`,
    ]);
  });

  it('refuses an empty set and an empty site', () => {
    expect(drillErrors(`${PRIORITY}  - priority: { set: {} }\n`)).toEqual([
      'd.yaml:4: steps[0].priority.set: names no contender (write set: { c2: 50 })',
    ]);
    expect(drillErrors(`${PRIORITY}  - priority: { preferSite: "" }\n`)).toEqual([
      'd.yaml:4: steps[0].priority.preferSite: must not be empty (write a value)',
    ]);
  });

  it('refuses the step for contenders that are not priority contenders', () => {
    expect(drillErrors(`${ELECTION}  - priority: { preferSite: b }\n`)).toEqual([
      'd.yaml:4: steps[0].priority: needs priority contenders (recipe: priority)',
    ]);
    expect(
      drillErrors(`name: t\ncontenders: { count: 2, workload: lock }\nsteps:\n  - priority: { set: { c1: 5 } }\n`),
    ).toEqual(['d.yaml:4: steps[0].priority: needs priority contenders (recipe: priority)']);
  });

  it('refuses an unknown contender in set as other steps refuse their targets', () => {
    expect(drillErrors(`${PRIORITY}  - priority: { set: { c9: 50 } }\n`)).toEqual([
      'd.yaml:4: steps[0].priority.set.c9: c9 does not exist: the drill has 3 contender(s) at this step (use c1..c3)',
    ]);
    expect(drillErrors(`${PRIORITY}  - priority: { set: { leader: 50 } }\n`)).toEqual([
      'd.yaml:4: steps[0].priority.set.leader: "leader" is not allowed here (use c1..c3)',
    ]);
    expect(drillErrors(`${PRIORITY}  - priority: { set: { zk1: 50 } }\n`)).toEqual([
      'd.yaml:4: steps[0].priority.set.zk1: a server is not allowed here (use c1..c3)',
    ]);
    expect(drillErrors(`${PRIORITY}  - priority: { set: { bob: 50 } }\n`)).toEqual([
      'd.yaml:4: steps[0].priority.set.bob: "bob" is not a target (use c1..c3)',
    ]);
    // The same message a kill step gets for the same contender.
    const kill = drillErrors(`${PRIORITY}  - kill: c9\n`);
    expect(kill).toEqual([
      'd.yaml:4: steps[0].kill.target: c9 does not exist: the drill has 3 contender(s) at this step (use leader, zk-leader, c1..c3, zk1..zk3)',
    ]);
  });

  it('refuses a priority that is not a whole number', () => {
    expect(drillErrors(`${PRIORITY}  - priority: { set: { c2: 2.5 } }\n`)).toEqual([
      'd.yaml:4: steps[0].priority.set.c2: expected a whole number, got 2.5 (write a whole number here)',
    ]);
    expect(drillErrors(`${PRIORITY}  - priority: { set: { c2: high } }\n`)).toEqual([
      'd.yaml:4: steps[0].priority.set.c2: expected a number, got "high" (write a number here)',
    ]);
  });

  it('refuses unknown fields in it, and its fields written beside it', () => {
    expect(drillErrors(`${PRIORITY}  - priority: { preferSite: b, site: a }\n`)).toEqual([
      'd.yaml:4: steps[0].priority.site: unknown field (use one of: set, preferSite)',
    ]);
    expect(drillErrors(`${PRIORITY}  - priority: { preferSite: b }\n    set: { c2: 5 }\n`)).toEqual([
      'd.yaml:5: steps[0].set: belongs inside the priority step (write priority: { ..., set: ... })',
    ]);
  });
});

describe('preempt and the preemption check', () => {
  it('accepts preempt: false on the priority recipe and hands it to the spawn', () => {
    const d = parseDrill(
      `name: t\ncontenders: { count: 2, recipe: priority, preempt: false, priorities: [1, 9] }\nsteps:\n  - sleep: 1s\n`,
      'd.yaml',
    );
    expect(d.contenders).toMatchObject({ count: 2, recipe: 'priority', preempt: false, priorities: [1, 9] });
    expect(specOfContender(d.contenders, 1)).toMatchObject({ recipe: 'priority', preempt: false, priorities: [9] });
    // Not said: the elector pre-empts.
    const dflt = parseDrill(`name: t\ncontenders: { count: 2, recipe: priority }\nsteps:\n  - sleep: 1s\n`, 'd.yaml');
    expect(dflt.contenders.preempt).toBe(true);
  });

  it('refuses preempt on any other contenders', () => {
    const message = 'only applies to recipe: priority (remove it, or use recipe: priority)';
    expect(
      drillErrors(`name: t\ncontenders: { count: 2, recipe: predecessor, preempt: false }\nsteps:\n  - sleep: 1s\n`),
    ).toEqual([`d.yaml:2: contenders.preempt: ${message}`]);
    expect(
      drillErrors(`name: t\ncontenders:\n  count: 2\n  workload: lock\n  preempt: true\nsteps:\n  - sleep: 1s\n`),
    ).toEqual([`d.yaml:5: contenders.preempt: ${message}`]);
    expect(
      drillErrors(`name: t\ncontenders: { count: 2, recipe: priority, preempt: no }\nsteps:\n  - sleep: 1s\n`),
    ).toEqual(['d.yaml:2: contenders.preempt: expected true or false, got "no" (write true or false)']);
  });

  it('takes a watchdog bound that outlasts the takeover, for the priority recipe only', () => {
    const d = parseDrill(
      `name: t\ncontenders: { count: 2, recipe: priority, takeoverMs: 100ms, watchdogMs: 5s }\nsteps:\n  - sleep: 1s\n`,
      'd.yaml',
    );
    expect(d.contenders).toMatchObject({ takeoverMs: 100, watchdogMs: 5000 });
    expect(
      drillErrors(`name: t\ncontenders: { count: 2, recipe: priority, watchdogMs: 400ms }\nsteps:\n  - sleep: 1s\n`),
    ).toEqual([
      'd.yaml:2: contenders.watchdogMs: "400ms" does not outlast the takeover (500ms): every takeover would be cut short (give more than 500ms, or leave it out: the default is 3 × takeover + 1s)',
    ]);
    expect(
      drillErrors(`name: t\ncontenders: { count: 2, recipe: herd, watchdogMs: 5s }\nsteps:\n  - sleep: 1s\n`),
    ).toEqual([
      'd.yaml:2: contenders.watchdogMs: only applies to recipe: priority (remove it, or use recipe: priority)',
    ]);
  });

  it('accepts the preemption check on the priority recipe, with or without within', () => {
    const d = parseDrill(
      `${PRIORITY}  - sleep: 1s\nchecks: [singleLeader, preemption]\nexpectFailure: [preemption]\n`,
      'd.yaml',
    );
    expect(d.checks).toEqual({ singleLeader: {}, preemption: {} });
    expect(d.expectFailure).toEqual(['preemption']);
    expect(parseDrill(`${PRIORITY}  - sleep: 1s\nchecks: [{ preemption: { within: 2s } }]\n`, 'd.yaml').checks).toEqual(
      { preemption: { within: 2000 } },
    );
  });

  it('refuses the preemption check without recipe priority', () => {
    expect(drillErrors(`${ELECTION}  - sleep: 1s\nchecks: [singleLeader, preemption]\n`)).toEqual([
      "d.yaml:5: checks[1].preemption: judges the priority recipe's hand-overs: it needs recipe: priority",
    ]);
    expect(
      drillErrors(
        `name: t\ncontenders: { count: 2, workload: lock }\nsteps:\n  - sleep: 1s\nchecks:\n  - { preemption: { within: 1s } }\n`,
      ),
    ).toEqual(["d.yaml:6: checks[0].preemption: judges the priority recipe's hand-overs: it needs recipe: priority"]);
  });

  it('refuses an unknown option of the preemption check', () => {
    expect(drillErrors(`${PRIORITY}  - sleep: 1s\nchecks: [{ preemption: { max: 2s } }]\n`)).toEqual([
      'd.yaml:5: checks[0].preemption.max: unknown field (use one of: within)',
    ]);
  });
});
