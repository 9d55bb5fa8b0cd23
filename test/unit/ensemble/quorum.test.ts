import { describe, expect, it } from 'vitest';
import { type Running, restartRefusal } from '../../../src/ensemble/quorum.js';

const servers = (names: string[], observers: string[] = []) => [
  ...names.map((name) => ({ name })),
  ...observers.map((name) => ({ name, role: 'observer' as const })),
];
const named = (...names: string[]) => names.map((name) => ({ name }));
const states =
  (of: Record<string, Running>) =>
  (name: string): Running =>
    of[name] ?? 'running';

describe('a restart that cannot bring a quorum back', () => {
  it('is refused when the others are down, naming them', () => {
    expect(restartRefusal(servers(['zk1', 'zk2', 'zk3']), named('zk1'), states({ zk2: 'down', zk3: 'down' }))).toBe(
      'restarting zk1 cannot form a quorum: zk2 and zk3 are down (a quorum is 2 of the 3 voters)',
    );
  });

  it('counts a paused voter out, and says it is paused', () => {
    const of = states({ zk2: 'paused', zk3: 'down', zk4: 'down', zk5: 'running' });
    expect(restartRefusal(servers(['zk1', 'zk2', 'zk3', 'zk4', 'zk5']), named('zk1'), of)).toBe(
      'restarting zk1 cannot form a quorum: zk3 and zk4 are down, zk2 is paused (a quorum is 3 of the 5 voters)',
    );
  });

  it('is taken when the restarted and the running voters make a majority', () => {
    const all = servers(['zk1', 'zk2', 'zk3']);
    expect(restartRefusal(all, named('zk1'), states({ zk3: 'down' }))).toBeNull();
    expect(restartRefusal(all, named('zk1'), states({ zk1: 'down', zk3: 'down' }))).toBeNull();
    expect(restartRefusal(all, all, states({ zk1: 'down', zk2: 'down', zk3: 'paused' }))).toBeNull();
    expect(restartRefusal(servers(['zk1']), named('zk1'), states({ zk1: 'down' }))).toBeNull();
  });

  it('counts voters only: an observer restarted beside voters without a majority waits for nothing else', () => {
    const of = states({ zk2: 'down', zk3: 'down' });
    expect(restartRefusal(servers(['zk1', 'zk2', 'zk3'], ['zk4']), named('zk4'), of)).toBe(
      'restarting zk4 cannot form a quorum: zk2 and zk3 are down (a quorum is 2 of the 3 voters)',
    );
    expect(restartRefusal(servers(['zk1', 'zk2', 'zk3'], ['zk4']), named('zk2'), of)).toBeNull();
  });
});
