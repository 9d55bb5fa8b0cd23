import { describe, expect, it } from 'vitest';
import { parseDrill } from '../../../src/drills/format/schema.js';

const HEAD = `name: t
contenders: { count: 3, recipe: predecessor }
steps:
`;

describe('parseDrill on valid drills', () => {
  it('fills in the defaults', () => {
    const d = parseDrill(`${HEAD}  - wait: { leader: true, timeout: 10s }\n`, 'd.yaml');
    expect(d.ensemble).toEqual({ servers: 3, tick: 200 });
    expect(d.contenders).toEqual({ count: 3, recipe: 'predecessor', onDisconnect: 'pause', sessionTimeout: 2000 });
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
      'kill', 'kill', 'pause', 'resume', 'partition', 'partition', 'heal', 'delay', 'spawn', 'stop', 'restart', 'sleep', 'expect', 'repeat',
    ]);
    expect(d.steps[1]).toEqual({ kind: 'kill', line: 5, target: 'c2', signal: 'SIGTERM' });
    expect(d.steps[5]).toMatchObject({ partition: { mode: 'split', groups: [['zk1', 'c1'], ['zk2', 'zk3']] } });
    expect(d.steps[7]).toMatchObject({ ms: 300, jitter: 50 });
    expect(d.steps[11]).toMatchObject({ ms: 1500 });
    expect(d.steps[12]).toMatchObject({
      expectations: [
        { kind: 'newLeaderWithin', ms: 3000 },
        { kind: 'leaderIsNot', contender: 'c1' },
        { kind: 'state', contender: 'c2', state: 'leader' },
      ],
    });
    expect(d.steps[13]).toMatchObject({ times: 2, steps: [{ kind: 'kill', line: 17 }, { kind: 'sleep', ms: 500 }] });
  });

  it('reads checks as names or with options', () => {
    const d = parseDrill(`${HEAD}  - sleep: 1s\nchecks: [singleLeader, { herdSize: { max: 1 } }, { liveness: { within: 10s } }]\nexpectFailure: [herdSize]\n`, 'd.yaml');
    expect(d.checks).toEqual({ singleLeader: {}, herdSize: { max: 1 }, liveness: { within: 10_000 } });
    expect(d.expectFailure).toEqual(['herdSize']);
  });

  it('lets steps name contenders added by spawn', () => {
    const d = parseDrill(`${HEAD}  - spawn: 2\n  - kill: c5\n`, 'd.yaml');
    expect(d.steps[1]).toMatchObject({ target: 'c5' });
  });
});
