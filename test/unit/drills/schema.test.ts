import { describe, expect, it } from 'vitest';
import { parseDrill } from '../../../src/drills/format/schema.js';
import { expandVariants } from '../../../src/drills/format/variants.js';
import { drillErrors } from './drill-errors.js';

const HEAD = `name: t
contenders: { count: 3, recipe: predecessor }
steps:
`;

describe('parseDrill on valid drills', () => {
  it('fills in the defaults', () => {
    const d = parseDrill(`${HEAD}  - wait: { leader: true, timeout: 10s }\n`, 'd.yaml');
    expect(d.ensemble).toEqual({ servers: 3, observers: 0, tick: 200, net: 'proxy' });
    expect(d.contenders).toEqual({
      count: 3,
      recipe: 'predecessor',
      leaderRule: { kind: 'auto' },
      onDisconnect: 'pause',
      sessionTimeoutMs: 2000,
      policy: 'priority',
      takeoverMs: 500,
      preempt: true,
      path: '/election',
      via: 'all',
      joinTimeoutMs: 30_000,
    });
    expect(Object.keys(d.checks)).toEqual(['singleLeader', 'failoverTime', 'herdSize', 'liveness']);
    expect(d.expectFailure).toEqual([]);
    expect(d.steps).toEqual([{ kind: 'wait', line: 4, until: { leader: true }, timeout: 10_000 }]);
  });

  it('reads every step kind with durations in ms, s or plain numbers', () => {
    const d = parseDrill(
      `${HEAD}  - kill: leader
  - kill: { target: c2, signal: term }
  - pause: zk-leader
  - resume: all
  - partition: { isolate: leader }
  - partition: { split: [[zk1, c1], [zk2, zk3]] }
  - heal: all
  - delay: { target: c2, ms: 300, jitter: 0.05s }
  - spawn: 2
  - stop: c5
  - restart: zk1
  - sleep: 1.5s
  - expect: { newLeaderWithin: 3s, leaderIsNot: c1, state: { c2: leader } }
  - repeat: { times: 2, steps: [ { kill: leader }, { sleep: 500ms } ] }
`,
      'd.yaml',
    );
    expect(d.steps.map((s) => s.kind)).toEqual([
      'kill',
      'kill',
      'pause',
      'resume',
      'partition',
      'partition',
      'heal',
      'delay',
      'spawn',
      'stop',
      'restart',
      'sleep',
      'expect',
      'repeat',
    ]);
    expect(d.steps[1]).toEqual({ kind: 'kill', line: 5, target: 'c2', signal: 'SIGTERM', scope: 'node' });
    expect(d.steps[5]).toMatchObject({
      partition: {
        mode: 'split',
        groups: [
          ['zk1', 'c1'],
          ['zk2', 'zk3'],
        ],
      },
    });
    expect(d.steps[7]).toMatchObject({ ms: 300, jitter: 50 });
    expect(d.steps[11]).toMatchObject({ ms: 1500 });
    expect(d.steps[12]).toMatchObject({
      expectations: [
        { kind: 'newLeaderWithin', ms: 3000 },
        { kind: 'leaderIsNot', contender: 'c1' },
        { kind: 'state', contender: 'c2', state: 'leader' },
      ],
    });
    expect(d.steps[13]).toMatchObject({
      times: 2,
      steps: [
        { kind: 'kill', line: 17 },
        { kind: 'sleep', ms: 500 },
      ],
    });
  });

  it('reads the scope of a kill and a pause: the whole node unless the program alone is asked for', () => {
    const d = parseDrill(
      `${HEAD}  - kill: { target: leader, scope: process }\n  - pause: { target: c2, scope: node }\n  - pause: c3\n`,
      'd.yaml',
    );
    expect(d.steps).toEqual([
      { kind: 'kill', line: 4, target: 'leader', signal: 'SIGKILL', scope: 'process' },
      { kind: 'pause', line: 5, target: 'c2', scope: 'node' },
      { kind: 'pause', line: 6, target: 'c3', scope: 'node' },
    ]);
  });

  it('reads membership steps: add a server (its zkN becomes a target), remove one; observers in the ensemble', () => {
    const d = parseDrill(
      `name: t
ensemble: { servers: 3, observers: 1 }
contenders: { count: 3, recipe: predecessor, via: observers }
steps:
  - add: participant
  - add: observer
  - kill: zk6
  - remove: zk5
  - remove: zk-leader
`,
      'd.yaml',
    );
    expect(d.ensemble).toEqual({ servers: 3, observers: 1, tick: 200, net: 'proxy' });
    expect(d.contenders.via).toBe('observers');
    expect(d.steps).toEqual([
      { kind: 'add', line: 5, role: 'participant' },
      { kind: 'add', line: 6, role: 'observer' },
      { kind: 'kill', line: 7, target: 'zk6', signal: 'SIGKILL', scope: 'node' },
      { kind: 'remove', line: 8, target: 'zk5' },
      { kind: 'remove', line: 9, target: 'zk-leader' },
    ]);
    expect(() => parseDrill(`${HEAD}  - kill: zk5\n`, 'd.yaml')).toThrow(/zk5 does not exist/);
    expect(() => parseDrill(`${HEAD}  - add: voter\n`, 'd.yaml')).toThrow(/add/);
    expect(() => parseDrill(`${HEAD}  - remove: c1\n`, 'd.yaml')).toThrow(/a contender is not allowed here/);
  });

  it('wants an ensemble shape a lab can run, and observers for contenders that connect to them', () => {
    const drill = (ensemble: string, via = 'all') =>
      `name: t\nensemble: ${ensemble}\ncontenders: { count: 2, recipe: predecessor, via: ${via} }\nsteps:\n  - sleep: 1s\n`;
    expect(drillErrors(drill('{ servers: 1, observers: 1 }'))).toEqual([
      'd.yaml:2: ensemble.observers: needs at least 2 voting servers beside it, not 1 (a single server runs standalone)',
    ]);
    expect(drillErrors(drill('{ servers: 5, observers: 5 }'))).toEqual([
      'd.yaml:2: ensemble.observers: 5 servers and 5 observers make 10; a lab runs at most 9',
    ]);
    expect(drillErrors(drill('{ servers: 3 }', 'observers'))).toEqual([
      'd.yaml:3: contenders.via: the ensemble has no observers to connect to (give the ensemble observers, or leave via out)',
    ]);
    expect(parseDrill(drill('{ servers: 3, observers: 1 }', 'observers'), 'd.yaml').contenders.via).toBe('observers');
  });

  it('reads checks as names or with options', () => {
    const d = parseDrill(
      `${HEAD}  - sleep: 1s\nchecks: [singleLeader, { herdSize: { max: 1 } }, { liveness: { within: 10s } }]\nexpectFailure: [herdSize]\n`,
      'd.yaml',
    );
    expect(d.checks).toEqual({ singleLeader: {}, herdSize: { max: 1 }, liveness: { within: 10_000 } });
    expect(d.expectFailure).toEqual(['herdSize']);
  });

  it('lets steps name contenders added by spawn', () => {
    const d = parseDrill(`${HEAD}  - spawn: 2\n  - kill: c5\n`, 'd.yaml');
    expect(d.steps[1]).toMatchObject({ target: 'c5' });
  });
});

describe('parseDrill: programs, adapters and variants', () => {
  const STEPS = `steps:\n  - wait: { leader: true, timeout: 10s }\n`;
  const errors = (text: string): string => {
    try {
      parseDrill(text, 'd.yaml');
      return '';
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('reads a program with its leader rule, and an adapter with its error policy', () => {
    const d = parseDrill(
      `name: t\ncontenders: { count: 2, exec: [python3, x.py, "{connect}"], leaderRule: single-node leader }\n${STEPS}`,
      'd.yaml',
    );
    expect(d.contenders).toMatchObject({
      count: 2,
      recipe: 'exec',
      program: ['python3', 'x.py', '{connect}'],
      leaderRule: { kind: 'single-node', name: 'leader' },
    });
    const c = parseDrill(
      `name: t\ncontenders: { count: 3, recipe: curator-latch, curatorErrorPolicy: session }\n${STEPS}`,
      'd.yaml',
    );
    expect(c.contenders).toMatchObject({ recipe: 'curator-latch', curatorErrorPolicy: 'session' });
  });

  it('wants one of recipe and exec, and the program-only fields only for programs', () => {
    // Neither: the predecessor recipe, as `contenders spawn` runs it.
    expect(parseDrill(`name: t\ncontenders: { count: 2 }\n${STEPS}`, 'd.yaml').contenders.recipe).toBe('predecessor');
    expect(errors(`name: t\ncontenders: { count: 2, recipe: herd, exec: [x] }\n${STEPS}`)).toMatch(
      /contenders\.exec: names a program as well as recipe/,
    );
    expect(errors(`name: t\ncontenders: { count: 2, recipe: herd, leaderRule: lowest-sequence }\n${STEPS}`)).toMatch(
      /contenders\.leaderRule: only applies to programs/,
    );
    expect(errors(`name: t\ncontenders: { count: 2, exec: [x], leaderRule: loudest }\n${STEPS}`)).toMatch(
      /contenders\.leaderRule: "loudest" is not a leader rule/,
    );
    expect(
      errors(`name: t\ncontenders: { count: 2, recipe: kazoo-election, curatorErrorPolicy: session }\n${STEPS}`),
    ).toMatch(/curatorErrorPolicy: only applies to recipe: curator-latch/);
  });

  it('runs each variant with its own contenders and expected failures', () => {
    const d = parseDrill(
      `name: t\ncontenders: { count: 3, recipe: curator-latch }\n${STEPS}checks: [singleLeader]\nvariants:\n  - { name: standard, contenders: { curatorErrorPolicy: standard } }\n  - { name: session, contenders: { curatorErrorPolicy: session }, expectFailure: [singleLeader] }\n`,
      'd.yaml',
    );
    expect(expandVariants(d).map((v) => [v.name, v.contenders.curatorErrorPolicy, v.expectFailure])).toEqual([
      ['t:standard', 'standard', []],
      ['t:session', 'session', ['singleLeader']],
    ]);
  });

  it('refuses variants that change the count, repeat a name, or expect an unchecked failure', () => {
    const head = `name: t\ncontenders: { count: 3, recipe: curator-latch }\n${STEPS}checks: [singleLeader]\nvariants:\n`;
    expect(errors(`${head}  - { name: a, contenders: { count: 4 } }\n`)).toMatch(
      /variants\[0\]\.contenders\.count: differs from contenders\.count/,
    );
    expect(errors(`${head}  - { name: a }\n  - { name: a }\n`)).toMatch(/variants: names a variant twice/);
    expect(errors(`${head}  - { name: a, expectFailure: [herdSize] }\n`)).toMatch(/herdSize is not among the checks/);
    expect(errors(`${head}  - { name: a, contenders: { curatorErrorPolicy: lax } }\n`)).toMatch(
      /variants\[0\]\.contenders\.curatorErrorPolicy/,
    );
  });
});
