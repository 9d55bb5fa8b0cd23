import { describe, expect, it } from 'vitest';
import { parseSpawnRequest } from '../../../src/contenders/options.js';
import { UsageError } from '../../../src/errors.js';

describe('parseSpawnRequest', () => {
  it('applies the defaults', () => {
    expect(parseSpawnRequest({ count: '5' })).toMatchObject({
      count: 5,
      recipe: 'predecessor',
      sessionTimeoutMs: 2000,
      path: '/election',
      onDisconnect: 'pause',
      policy: 'priority',
    });
  });

  it.each(['0', '-3', 'abc', '201', '2.5', ''])('rejects count %j', (count) => {
    expect(() => parseSpawnRequest({ count })).toThrow(UsageError);
  });

  it('rejects unknown recipes, policies and modes', () => {
    expect(() => parseSpawnRequest({ count: 3, recipe: 'raft' })).toThrow(/unknown recipe "raft"/);
    expect(() => parseSpawnRequest({ count: 3, policy: 'loudest' })).toThrow(/unknown policy/);
    expect(() => parseSpawnRequest({ count: 3, onDisconnect: 'panic' })).toThrow(/on-disconnect/);
  });

  it('wants one priority and one site per contender', () => {
    expect(parseSpawnRequest({ count: 3, priority: '5,3,1', site: 'a,a,b' })).toMatchObject({
      priorities: [5, 3, 1],
      sites: ['a', 'a', 'b'],
    });
    expect(() => parseSpawnRequest({ count: 3, priority: '5,3' })).toThrow(/2 values for 3 contenders/);
    expect(() => parseSpawnRequest({ count: 2, priority: '5,x' })).toThrow(/not a whole number/);
    expect(() => parseSpawnRequest({ count: 2, site: 'a,' })).toThrow(UsageError);
  });

  it('takes a watchdog for the priority recipe that outlasts its takeover', () => {
    expect(parseSpawnRequest({ count: 2, recipe: 'priority', takeoverMs: '100', watchdogMs: '5000' })).toMatchObject({
      takeoverMs: 100,
      watchdogMs: 5000,
    });
    expect(parseSpawnRequest({ count: 2, recipe: 'priority' })).not.toHaveProperty('watchdogMs');
    expect(() => parseSpawnRequest({ count: 2, recipe: 'priority', takeoverMs: '500', watchdogMs: '500' })).toThrow(
      /does not outlast --takeover-ms 500/,
    );
    expect(() => parseSpawnRequest({ count: 2, recipe: 'priority', watchdogMs: '2s' })).toThrow(UsageError);
    expect(() => parseSpawnRequest({ count: 2, watchdogMs: '5000' })).toThrow(/priority recipe only/);
  });

  it('checks paths and connect strings', () => {
    expect(() => parseSpawnRequest({ count: 1, path: 'election' })).toThrow(/not a ZooKeeper path/);
    expect(() => parseSpawnRequest({ count: 1, path: '/a/' })).toThrow(UsageError);
    expect(parseSpawnRequest({ count: 1, connect: 'zk1:2181,10.0.0.2:2181' }).connect).toBe('zk1:2181,10.0.0.2:2181');
    expect(() => parseSpawnRequest({ count: 1, connect: 'zk1;rm -rf /' })).toThrow(UsageError);
  });
});

describe('parseSpawnRequest: programs and adapters', () => {
  it('takes the program after -- with --exec, and lowest-sequence as its leader rule', () => {
    expect(parseSpawnRequest({ count: 2, exec: true, program: ['python3', 'x.py', '{connect}'] })).toMatchObject({
      recipe: 'exec',
      program: ['python3', 'x.py', '{connect}'],
      leaderRule: { kind: 'lowest-sequence' },
    });
  });

  it('refuses --exec without a program, a program without --exec, and --exec with --recipe', () => {
    expect(() => parseSpawnRequest({ count: 1, exec: true })).toThrow(/--exec needs a program after --/);
    expect(() => parseSpawnRequest({ count: 1, exec: true, program: [''] })).toThrow(/--exec needs a program/);
    expect(() => parseSpawnRequest({ count: 1, program: ['python3'] })).toThrow(/only read with --exec/);
    expect(() => parseSpawnRequest({ count: 1, exec: true, recipe: 'herd', program: ['x'] })).toThrow(
      /two things to run/,
    );
  });

  it('reads both spellings of single-node and refuses unknown rules', () => {
    const exec = { count: 1, exec: true, program: ['x'] };
    expect(parseSpawnRequest({ ...exec, leaderRule: ['single-node', 'leader'] }).leaderRule).toEqual({
      kind: 'single-node',
      name: 'leader',
    });
    expect(parseSpawnRequest({ ...exec, leaderRule: 'single-node:leader' }).leaderRule).toEqual({
      kind: 'single-node',
      name: 'leader',
    });
    expect(() => parseSpawnRequest({ ...exec, leaderRule: 'loudest' })).toThrow(/unknown --leader-rule "loudest"/);
    expect(() => parseSpawnRequest({ ...exec, leaderRule: ['single-node'] })).toThrow(/unknown --leader-rule/);
    expect(() => parseSpawnRequest({ count: 1, leaderRule: 'lowest-sequence' })).toThrow(/applies to programs/);
  });

  it('knows the adapters, and the Curator error policy only for Curator', () => {
    expect(parseSpawnRequest({ count: 3, recipe: 'curator-latch' })).toMatchObject({
      recipe: 'curator-latch',
      curatorErrorPolicy: 'standard',
      leaderRule: { kind: 'lowest-sequence' },
    });
    expect(
      parseSpawnRequest({ count: 3, recipe: 'curator-latch', curatorErrorPolicy: 'session' }).curatorErrorPolicy,
    ).toBe('session');
    expect(parseSpawnRequest({ count: 3, recipe: 'kazoo-election' }).recipe).toBe('kazoo-election');
    expect(() => parseSpawnRequest({ count: 3, recipe: 'curator-latch', curatorErrorPolicy: 'lax' })).toThrow(
      /unknown --curator-error-policy "lax"/,
    );
    expect(() => parseSpawnRequest({ count: 3, recipe: 'kazoo-election', curatorErrorPolicy: 'session' })).toThrow(
      /curator-latch only/,
    );
  });
});
