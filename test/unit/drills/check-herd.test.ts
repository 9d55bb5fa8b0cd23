import { describe, expect, it } from 'vitest';
import { checkHerdSize } from '../../../src/drills/judge/check-herd.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { ev, joinAll, lab } from './fixtures.js';

const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
const start = [...joinAll(0, ids), ev(100, 'c1', 'leader', { token: 10 })];
const kill = lab(1000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' });
const deleted = { path: '/election/c1', type: 'deleted' };

/** c1's session expires at 3000: its znode goes and the watchers of it are told. */
function death(watchers: readonly string[]) {
  return [...watchers.map((id) => ev(3000, id, 'notified', deleted)), ev(3050, 'c2', 'leader', { token: 11 })];
}

describe('checkHerdSize', () => {
  it('counts the whole herd when every contender watched the leader', () => {
    const r = checkHerdSize(buildHistory([...start, ...death(['c2', 'c3', 'c4', 'c5'])], [kill]), { max: 1 });
    expect(r.passed).toBe(false);
    expect(r.measurements.at(-1)).toEqual({ name: 'max notified per death', value: 4, unit: 'count' });
  });

  it('counts one for a predecessor chain', () => {
    const r = checkHerdSize(buildHistory([...start, ...death(['c2'])], [kill]), { max: 1 });
    expect(r.passed).toBe(true);
    expect(r.measurements.at(-1)?.value).toBe(1);
  });

  it('only measures when no bound is given', () => {
    const r = checkHerdSize(buildHistory([...start, ...death(['c2', 'c3', 'c4', 'c5'])], [kill]));
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('1 leader death(s), at most 4 notified');
  });

  it('leaves out notifications after the window and those of the dead leader itself', () => {
    const h = buildHistory(
      [
        ...start,
        ...death(['c2']),
        ev(1000, 'c1', 'notified', deleted),
        ev(3050 + 499, 'c3', 'notified', { path: '/election', type: 'children' }),
        ev(3050 + 501, 'c4', 'notified', { path: '/election', type: 'children' }),
      ],
      [kill],
    );
    expect(checkHerdSize(h).measurements[0]?.value).toBe(2);
  });

  it('counts a watcher notified late, after the new leader claimed, while the window is open', () => {
    const h = buildHistory([...start, ...death(['c2']), ev(3400, 'c5', 'notified', deleted)], [kill]);
    expect(checkHerdSize(h, { max: 1 }).passed).toBe(false);
  });

  it('does not count notifications when no leader died', () => {
    const h = buildHistory(
      [...start, ev(2000, 'c3', 'notified', deleted)],
      [lab(1500, 'contender-killed', { contender: 'c2', pid: 1, signal: 'SIGKILL' })],
    );
    const r = checkHerdSize(h, { max: 0 });
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('no leader died');
  });
});
