import { describe, expect, it } from 'vitest';
import {
  type ContenderSpecInput,
  checkContenderSpec,
  type SpecContext,
  specOfContender,
} from '../../../src/contenders/spec.js';

/** The fields a spec is refused on, in the order the validator reports them; [] when it is accepted. */
function refusedOn(input: ContenderSpecInput, ctx?: SpecContext): string[] {
  return (checkContenderSpec(input, ctx).issues ?? []).map((i) => i.field);
}

function accepted(input: ContenderSpecInput, ctx?: SpecContext) {
  const r = checkContenderSpec(input, ctx);
  if (!r.spec) throw new Error(`refused: ${JSON.stringify(r.issues)}`);
  return r.spec;
}

describe('the contender spec', () => {
  it('fills in the defaults of an election', () => {
    expect(accepted({ count: '5' })).toEqual({
      count: 5,
      recipe: 'predecessor',
      leaderRule: { kind: 'auto' },
      sessionTimeoutMs: 2000,
      onDisconnect: 'pause',
      policy: 'priority',
      takeoverMs: 500,
      preempt: true,
      path: '/election',
      via: 'all',
      joinTimeoutMs: 30_000,
    });
  });

  it.each([0, -3, 'abc', 201, 2.5, ''])('refuses the count %j', (count) => {
    expect(refusedOn({ count })).toEqual(['count']);
  });

  it('needs a count', () => {
    expect(checkContenderSpec({}).issues).toEqual([
      { field: 'count', message: 'is required', hint: 'say how many contenders, 1 to 200' },
    ]);
  });

  it('reads every duration the same way: 250ms, 2s, or a bare number of milliseconds', () => {
    for (const v of ['2000', 2000, '2s', '2000ms'])
      expect(accepted({ count: 1, sessionTimeout: v }).sessionTimeoutMs).toBe(2000);
    const lock = (hold: unknown) => accepted({ count: 1, workload: 'lock', hold }).lock?.holdMs;
    expect([lock('2'), lock(2), lock('1.5s'), lock('0')]).toEqual([2, 2, 1500, 0]);
    expect(refusedOn({ count: 1, sessionTimeout: 'soon' })).toEqual(['sessionTimeout']);
    expect(refusedOn({ count: 1, sessionTimeout: '0.5' })).toEqual(['sessionTimeout']);
    expect(refusedOn({ count: 1, workload: 'lock', think: -5 })).toEqual(['think']);
  });

  it('holds every bound in one place: counts to 200, takeover to 60s, hold and think to an hour', () => {
    expect(accepted({ count: 200 }).count).toBe(200);
    expect(refusedOn({ count: 1, recipe: 'priority', takeoverMs: '90s' })).toEqual(['takeoverMs']);
    expect(accepted({ count: 1, recipe: 'priority', takeoverMs: '60s' }).takeoverMs).toBe(60_000);
    expect(accepted({ count: 1, workload: 'lock', hold: '60m' }).lock?.holdMs).toBe(3_600_000);
    expect(refusedOn({ count: 1, workload: 'lock', hold: '61m' })).toEqual(['hold']);
    expect(refusedOn({ count: 1, workload: 'lock', think: '2h' })).toEqual(['think']);
    expect(refusedOn({ count: 1, workload: 'scheduler', statusTtl: '25h' })).toEqual(['statusTtl']);
  });

  it('knows the tick when the ensemble is known: a session timeout the servers would not grant is refused', () => {
    expect(refusedOn({ count: 1, sessionTimeout: '300ms' })).toEqual([]);
    expect(refusedOn({ count: 1, sessionTimeout: '300ms' }, { tickMs: 200 })).toEqual(['sessionTimeout']);
    expect(refusedOn({ count: 1, sessionTimeout: '61s' }, { tickMs: 200 })).toEqual(['sessionTimeout']);
    // Without a session timeout, the default moves into what the servers grant.
    expect(accepted({ count: 1 }, { tickMs: 2000 }).sessionTimeoutMs).toBe(4000);
  });

  it('refuses unknown names', () => {
    expect(refusedOn({ count: 3, recipe: 'raft' })).toEqual(['recipe']);
    expect(refusedOn({ count: 3, recipe: 'priority', policy: 'loudest' })).toEqual(['policy']);
    expect(refusedOn({ count: 3, onDisconnect: 'panic' })).toEqual(['onDisconnect']);
    expect(refusedOn({ count: 3, workload: 'mutex' })).toEqual(['workload']);
    expect(refusedOn({ count: 3, workload: 'lock', fencing: 'maybe' })).toEqual(['fencing']);
    expect(refusedOn({ count: 3, workload: 'scheduler', strategy: 'loudest' })).toEqual(['strategy']);
  });

  it('wants one priority and one site per contender, and lets a drill list more for its later spawns', () => {
    const priority = { count: 3, recipe: 'priority' };
    expect(accepted({ ...priority, priorities: '5,3,1', sites: 'a,a,b' })).toMatchObject({
      priorities: [5, 3, 1],
      sites: ['a', 'a', 'b'],
    });
    expect(accepted({ ...priority, priorities: [5, 3, 1], sites: ['a', 'a', 'b'] }).priorities).toEqual([5, 3, 1]);
    expect(refusedOn({ ...priority, priorities: '5,3' })).toEqual(['priorities']);
    expect(refusedOn({ ...priority, priorities: '5,3,1,0' })).toEqual(['priorities']);
    expect(accepted({ ...priority, priorities: [5, 3, 1, 0] }, { extraPerContender: true }).priorities).toHaveLength(4);
    expect(refusedOn({ ...priority, priorities: '5,x,1' })).toEqual(['priorities']);
    expect(refusedOn({ ...priority, sites: 'a,,b' })).toEqual(['sites']);
  });

  it("keeps the priority recipe's fields to the priority recipe", () => {
    for (const field of ['policy', 'priorities', 'sites', 'takeoverMs', 'watchdogMs', 'preempt'] as const) {
      const value =
        field === 'preempt'
          ? false
          : field === 'policy'
            ? 'site'
            : field.endsWith('s') && field !== 'takeoverMs' && field !== 'watchdogMs'
              ? '1,2'
              : '5s';
      expect(refusedOn({ count: 2, [field]: value })).toEqual([field]);
    }
  });

  it('wants a watchdog that outlasts the takeover', () => {
    const priority = { count: 2, recipe: 'priority' };
    expect(accepted({ ...priority, takeoverMs: '100', watchdogMs: '5000' })).toMatchObject({
      takeoverMs: 100,
      watchdogMs: 5000,
    });
    expect(accepted(priority)).not.toHaveProperty('watchdogMs');
    expect(checkContenderSpec({ ...priority, takeoverMs: '500', watchdogMs: '500' }).issues).toEqual([
      {
        field: 'watchdogMs',
        message: '"500" does not outlast the takeover (500ms): every takeover would be cut short',
        hint: 'give more than 500ms, or leave it out: the default is 3 × takeover + 1s',
      },
    ]);
  });

  it('runs the lock on predecessor or herd, the scheduler on predecessor, and neither runs a program', () => {
    expect(accepted({ count: 3, workload: 'lock' })).toMatchObject({
      recipe: 'predecessor',
      path: '/lock',
      lock: { holdMs: 200, thinkMs: 100, fencing: true },
    });
    expect(accepted({ count: 3, workload: 'lock', recipe: 'herd', fencing: 'off' }).lock?.fencing).toBe(false);
    expect(refusedOn({ count: 3, workload: 'lock', recipe: 'priority' })).toEqual(['recipe']);
    expect(refusedOn({ count: 3, workload: 'scheduler', recipe: 'herd' })).toEqual(['recipe']);
    expect(refusedOn({ count: 3, workload: 'lock', exec: ['python3', 'x.py'] })).toEqual(['exec']);
    expect(accepted({ count: 3, workload: 'scheduler', path: '/s2', strategy: 'random' })).toMatchObject({
      path: '/s2/election',
      scheduler: { root: '/s2', strategy: 'random', statusTtlMs: 30_000 },
    });
  });

  it("keeps each workload's fields to its workload", () => {
    expect(refusedOn({ count: 3, hold: '1s' })).toEqual(['hold']);
    expect(refusedOn({ count: 3, workload: 'scheduler', fencing: 'off' })).toEqual(['fencing']);
    expect(refusedOn({ count: 3, workload: 'lock', strategy: 'random', statusTtl: '1s' })).toEqual([
      'strategy',
      'statusTtl',
    ]);
  });

  it('takes programs with a leader rule, and the Curator error policy for Curator only', () => {
    expect(accepted({ count: 2, exec: ['python3', 'x.py', '{connect}'] })).toMatchObject({
      recipe: 'exec',
      program: ['python3', 'x.py', '{connect}'],
      leaderRule: { kind: 'lowest-sequence' },
      path: '/election',
    });
    const exec = { count: 1, exec: ['x'] };
    const single = { kind: 'single-node', name: 'leader' };
    expect(accepted({ ...exec, leaderRule: ['single-node', 'leader'] }).leaderRule).toEqual(single);
    expect(accepted({ ...exec, leaderRule: 'single-node:leader', path: '/db' })).toMatchObject({
      leaderRule: single,
      path: '/db',
    });
    expect(refusedOn({ ...exec, leaderRule: 'loudest' })).toEqual(['leaderRule']);
    expect(refusedOn({ count: 1, leaderRule: 'lowest-sequence' })).toEqual(['leaderRule']);
    expect(refusedOn({ count: 1, exec: [] })).toEqual(['exec']);
    expect(refusedOn({ count: 1, exec: [''] })).toEqual(['exec']);
    expect(refusedOn({ count: 1, exec: ['x'], recipe: 'herd' })).toEqual(['exec']);
    expect(accepted({ count: 3, recipe: 'curator-latch' }).curatorErrorPolicy).toBe('standard');
    expect(accepted({ count: 3, recipe: 'curator-latch', curatorErrorPolicy: 'session' }).curatorErrorPolicy).toBe(
      'session',
    );
    expect(refusedOn({ count: 3, recipe: 'curator-latch', curatorErrorPolicy: 'lax' })).toEqual(['curatorErrorPolicy']);
    expect(refusedOn({ count: 3, recipe: 'kazoo-election', curatorErrorPolicy: 'session' })).toEqual([
      'curatorErrorPolicy',
    ]);
  });

  it('checks paths, connect strings and the observers', () => {
    expect(refusedOn({ count: 1, path: 'election' })).toEqual(['path']);
    expect(refusedOn({ count: 1, path: '/a/' })).toEqual(['path']);
    expect(accepted({ count: 1, connect: 'zk1:2181,10.0.0.2:2181' }).connect).toBe('zk1:2181,10.0.0.2:2181');
    expect(refusedOn({ count: 1, connect: 'zk1;rm -rf /' })).toEqual(['connect']);
    expect(refusedOn({ count: 1, via: 'observers', connect: 'a:1' })).toEqual(['via']);
    expect(refusedOn({ count: 1, via: 'observers' }, { observers: 0 })).toEqual(['via']);
    expect(accepted({ count: 1, via: 'observers' }, { observers: 2 }).via).toBe('observers');
  });

  it('reports every problem, in field order', () => {
    expect(refusedOn({ count: 0, workload: 'lock', hold: 'x', recipe: 'priority', path: 'p' })).toEqual([
      'count',
      'recipe',
      'hold',
      'path',
    ]);
  });

  it('gives each contender of a drill its own priority and site, 0 and none beyond the lists', () => {
    const spec = accepted(
      { count: 2, recipe: 'priority', priorities: [9, 5, 1], sites: ['a', 'b', 'b'] },
      { extraPerContender: true },
    );
    expect(specOfContender(spec, 1)).toMatchObject({ count: 1, priorities: [5], sites: ['b'] });
    expect(specOfContender(spec, 3)).toMatchObject({ count: 1, priorities: [0] });
    expect(specOfContender(spec, 3)).not.toHaveProperty('sites');
  });
});
