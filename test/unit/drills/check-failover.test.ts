import { describe, expect, it } from 'vitest';
import { checkFailoverTime } from '../../../src/drills/judge/check-failover.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { ev, joinAll, lab } from './fixtures.js';

const start = [...joinAll(0, ['c1', 'c2', 'c3']), ev(100, 'c1', 'leader', { token: 10 })];
const kill = lab(1000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' });

describe('checkFailoverTime', () => {
  it('measures from the kill of the leader to the next claim by another contender', () => {
    const h = buildHistory([...start, ev(3500, 'c2', 'leader', { token: 11 })], [kill]);
    const r = checkFailoverTime(h);
    expect(r.passed).toBe(true);
    expect(r.measurements).toEqual([{ name: 'failover after kill c1 (SIGKILL)', value: 2500, unit: 'ms', t: 1000 }]);
    expect(r.summary).toBe('1 failover(s), slowest 2.5s');
  });

  it('fails a failover slower than the bound', () => {
    const h = buildHistory([...start, ev(3500, 'c2', 'leader', { token: 11 })], [kill]);
    const r = checkFailoverTime(h, { max: 2000 });
    expect(r.passed).toBe(false);
    expect(r.details[0]?.message).toMatch(/c2 took over 2.5s after kill c1 \(SIGKILL\) at \+1s, over the 2s bound/);
  });

  it('fails when nobody takes over', () => {
    const h = buildHistory(start, [kill], { end: 20_000 });
    const r = checkFailoverTime(h);
    expect(r.passed).toBe(false);
    expect(r.measurements[0]?.value).toBeNull();
  });

  it('measures a clean stop from its SIGTERM: the next leader may claim before the old one has said it stopped', () => {
    // kazoo's Election, stopped: its znode goes as its session closes, c2 claims, and only then does c1 print that
    // it stopped and exit; the lab writes its line last of all.
    const h = buildHistory(
      [...start, ev(1060, 'c2', 'leader', { token: 11 }), ev(1070, 'c1', 'stopped')],
      [lab(1120, 'contender-stopped', { contender: 'c1', signalledAt: 1000 })],
      { end: 5000 },
    );
    const r = checkFailoverTime(h);
    expect(r.passed).toBe(true);
    expect(r.measurements).toEqual([{ name: 'failover after stop c1', value: 60, unit: 'ms', t: 1000 }]);
  });

  it('owes no failover for a fault the leader rode out by pausing and leading again before anyone else claimed', () => {
    // single-file-retry on a loaded machine: the leader's short isolation outlasted its client's patience, so it
    // paused, then led again with its session intact; minutes later it was killed and c2 took over.
    const h = buildHistory(
      [
        ...start,
        ev(2400, 'c1', 'paused'),
        ev(3200, 'c1', 'leader', { token: 10 }),
        ev(9000, 'c2', 'leader', { token: 11 }),
      ],
      [
        lab(1000, 'partition', { target: 'c1', description: 'isolate c1', mode: 'blackhole' }),
        lab(3000, 'heal', { kind: 'partition', description: 'heal c1' }),
        lab(7000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' }),
      ],
      { end: 12_000 },
    );
    const r = checkFailoverTime(h, { max: 6000 });
    expect(r.passed, r.details.map((d) => d.message).join('; ')).toBe(true);
    expect(r.measurements.map((m) => [m.name, m.value])).toEqual([['failover after kill c1 (SIGKILL)', 2000]]);
    expect(r.details[0]?.message).toBe(
      'no failover needed: c1 paused after isolate c1 at +1s and led again before anyone else claimed',
    );
  });

  it('still owes one when another claimed while the paused leader was away', () => {
    const h = buildHistory(
      [
        ...start,
        ev(2400, 'c1', 'paused'),
        ev(3100, 'c2', 'leader', { token: 11 }),
        ev(3200, 'c1', 'leader', { token: 10 }),
      ],
      [lab(1000, 'partition', { target: 'c1', description: 'isolate c1', mode: 'blackhole' })],
      { end: 12_000 },
    );
    expect(checkFailoverTime(h).measurements.map((m) => [m.name, m.value])).toEqual([
      ['failover after isolate c1', 2100],
    ]);
  });

  it('measures a resignation handover', () => {
    const h = buildHistory([...start, ev(2000, 'c1', 'resigned'), ev(2150, 'c3', 'leader', { token: 12 })], []);
    expect(checkFailoverTime(h).measurements.map((m) => [m.name, m.value])).toEqual([
      ['failover after c1 resigned', 150],
    ]);
  });

  it('does not count a short freeze the leader rode out', () => {
    const h = buildHistory(
      start,
      [
        lab(1000, 'contender-paused', { contender: 'c1', pid: 1 }),
        lab(1300, 'contender-resumed', { contender: 'c1', pid: 1 }),
      ],
      { end: 5000 },
    );
    const r = checkFailoverTime(h);
    expect(r.passed).toBe(true);
    expect(r.measurements).toEqual([]);
    expect(r.details[0]?.message).toMatch(/no failover needed: c1 kept leading through pause c1 at \+1s/);
  });

  it('attributes a failover to the fault that caused it, not to an earlier one the leader survived', () => {
    const h = buildHistory(
      [...start, ev(6000, 'c2', 'leader', { token: 11 })],
      [
        lab(1000, 'contender-paused', { contender: 'c1', pid: 1 }),
        lab(1300, 'contender-resumed', { contender: 'c1', pid: 1 }),
        lab(5000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' }),
      ],
    );
    expect(checkFailoverTime(h).measurements.map((m) => [m.t, m.value])).toEqual([[5000, 1000]]);
  });

  it('counts a frozen leader replaced while frozen as failed over', () => {
    const h = buildHistory(
      [...start, ev(3000, 'c2', 'leader', { token: 11 }), ev(5001, 'c1', 'expired')],
      [
        lab(1000, 'contender-paused', { contender: 'c1', pid: 1 }),
        lab(5000, 'contender-resumed', { contender: 'c1', pid: 1 }),
      ],
    );
    expect(checkFailoverTime(h).measurements.map((m) => m.value)).toEqual([2000]);
  });
});
