import { describe, expect, it } from 'vitest';
import { checkSingleLeader, PROBES_BLIND } from '../../../src/drills/judge/check-single-leader.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { acts, ev, joinAll, lab } from './fixtures.js';
import { labEvent } from '../../helpers/events.js';

const start = joinAll(0, ['c1', 'c2', 'c3']);
const violations = (r: ReturnType<typeof checkSingleLeader>) => r.details.filter((d) => d.level === 'violation');
const warnings = (r: ReturnType<typeof checkSingleLeader>) => r.details.filter((d) => d.level === 'warning');

describe('checkSingleLeader on leadership intervals', () => {
  it('passes disjoint intervals without warnings', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ...acts('c1', 10, 100, 900),
        ev(900, 'c1', 'resigned', { token: 10 }),
        ev(1500, 'c2', 'leader', { token: 11 }),
        ...acts('c2', 11, 1500, 2500),
      ],
      [],
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(true);
    expect(r.details).toEqual([]);
  });

  it('passes touching intervals (one ends exactly when the next starts)', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ...acts('c1', 10, 100, 1000),
        ev(1000, 'c1', 'resigned', { token: 10 }),
        ev(1000, 'c2', 'leader', { token: 11 }),
        ...acts('c2', 11, 1000, 2000),
      ],
      [],
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(true);
    expect(r.details).toEqual([]);
  });

  it('only warns about overlapping beliefs when no stale action came of them', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ...acts('c1', 10, 100, 700),
        ev(700, 'c2', 'leader', { token: 11 }),
        ev(1000, 'c1', 'paused', { wasLeader: true }),
      ],
      [],
      { end: 3000 },
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(true);
    expect(warnings(r)).toHaveLength(1);
    expect(warnings(r)[0]?.message).toMatch(/c1 \(token 10\) and c2 \(token 11\) both believed they led for 300ms/);
  });

  it('fails when a stale leader acts after a higher token was claimed', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ...acts('c1', 10, 100, 1700),
        ev(1000, 'c2', 'leader', { token: 11 }),
      ],
      [],
      { end: 3000 },
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(false);
    expect(violations(r)).toHaveLength(1);
    expect(violations(r)[0]?.message).toMatch(
      /^stale leader acted: c1 acted 3× with token 10 .* after c2 claimed with token 11/,
    );
    expect(r.measurements.find((m) => m.name === 'stale actions')?.value).toBe(3);
  });

  it('does not count an act logged in the same millisecond as the higher claim', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ev(1000, 'c1', 'act', { token: 10 }),
        ev(1000, 'c2', 'leader', { token: 11 }),
        ev(1000, 'c1', 'paused', { wasLeader: true }),
      ],
      [],
    );
    expect(checkSingleLeader(h).passed).toBe(true);
  });

  it('does not count acts of a lower-token leader that happened before the higher claim', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ...acts('c1', 10, 100, 1000),
        ev(1000, 'c1', 'expired'),
        ev(1200, 'c2', 'leader', { token: 11 }),
      ],
      [],
    );
    expect(checkSingleLeader(h).passed).toBe(true);
  });
});

describe('checkSingleLeader on sessions', () => {
  it('fails a claim made under a session already known to be expired', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ev(1000, 'c1', 'expired'),
        ev(1200, 'c1', 'leader', { token: 10 }),
      ],
      [],
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(false);
    expect(violations(r)[0]?.message).toMatch(/c1 claimed leadership .* under session s-c1, which had already expired/);
  });

  it('passes a claim under a new session after the old one expired', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ev(1000, 'c1', 'expired'),
        ev(1100, 'c1', 'connected', { session: 's-c1-b' }),
        ev(1200, 'c1', 'leader', { token: 12, session: 's-c1-b' }),
      ],
      [],
    );
    expect(checkSingleLeader(h).passed).toBe(true);
  });
});

describe('checkSingleLeader with a frozen leader', () => {
  const frozen = [
    lab(1000, 'contender-paused', { contender: 'c1', pid: 1 }),
    lab(5000, 'contender-resumed', { contender: 'c1', pid: 1 }),
  ];
  const zombie = [
    ...start,
    ev(100, 'c1', 'leader', { token: 10 }),
    ...acts('c1', 10, 100, 1000),
    ev(3000, 'c2', 'leader', { token: 11 }),
    ...acts('c2', 11, 3000, 6000),
  ];

  it('passes when the resumed leader learns of its expiry before acting', () => {
    const h = buildHistory([...zombie, ev(5001, 'c1', 'expired')], frozen);
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(true);
    expect(warnings(r)).toEqual([]);
    expect(r.details.map((d) => d.level)).toEqual(['info']);
  });

  it('ignores an act stamped inside the freeze window', () => {
    const h = buildHistory([...zombie, ev(3500, 'c1', 'act', { token: 10 }), ev(5001, 'c1', 'expired')], frozen);
    expect(checkSingleLeader(h).passed).toBe(true);
  });

  it('fails when the resumed leader acts before it hears it lost', () => {
    const h = buildHistory([...zombie, ev(5002, 'c1', 'act', { token: 10 }), ev(5010, 'c1', 'expired')], frozen);
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(false);
    expect(violations(r)[0]?.message).toMatch(/stale leader acted: c1 acted 1× with token 10/);
  });
});

describe("checkSingleLeader against ZooKeeper's own view (programs run as contenders)", () => {
  const zk = (t: number, leader: string | null) =>
    labEvent(t, 'zk-leader', {
      path: '/election',
      leader,
      znode: leader && `/election/${leader}`,
      session: leader && `s-${leader}`,
    });

  it('fails a believer that acts after ZooKeeper gave leadership to a contender that says nothing', () => {
    const h = buildHistory(
      [...start, ev(100, 'c1', 'leader', { token: null }), ...acts('c1', null, 100, 3000)],
      [zk(50, 'c1'), zk(1500, 'c3')],
      { end: 3000 },
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(false);
    expect(violations(r)[0]?.message).toMatch(
      /^c1 acted \d+× at \+1\.[5-7]\d*s\.\.\+2\.\d+s while ZooKeeper's state named c3 leader \(since \+1\.5s?0*\)/,
    );
    expect(
      r.details.some((d) => /c1 believed it led for 1\.5s while ZooKeeper named c3 leader at \+1\.5s/.test(d.message)),
    ).toBe(true);
  });

  it('does not count a new leader the sample of ZooKeeper catches up with late, as on a busy machine', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ...acts('c1', 10, 100, 900),
        ev(900, 'c1', 'resigned', { token: 10 }),
        ev(1000, 'c2', 'leader', { token: 11 }),
        ...acts('c2', 11, 1000, 4000),
      ],
      [zk(50, 'c1'), zk(2600, 'c2')],
      { end: 4000 },
    );
    expect(violations(checkSingleLeader(h))).toEqual([]);
  });

  it('fails a program that claims and acts anew, after a restart, while ZooKeeper names another', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: null }),
        ...acts('c1', null, 100, 1000),
        ev(1000, 'c1', 'exited', { code: 1, signal: null, stderr: [] }),
        ev(3000, 'c1', 'started', { recipe: 'exec' }),
        ev(3100, 'c1', 'leader', { token: null }),
        ...acts('c1', null, 3100, 4000),
      ],
      [zk(50, 'c1'), zk(1500, 'c2')],
      { end: 4000 },
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(false);
    expect(violations(r).map((d) => d.message)).toEqual([
      "c1 acted 5× at +3.1s..+3.9s while ZooKeeper's state named c2 leader (since +1.5s)",
    ]);
  });

  it('does not count a new leader acting before the sample of ZooKeeper caught up with it', () => {
    const h = buildHistory(
      [
        ...start,
        ev(100, 'c1', 'leader', { token: 10 }),
        ...acts('c1', 10, 100, 900),
        ev(900, 'c1', 'resigned', { token: 10 }),
        ev(1000, 'c2', 'leader', { token: 11 }),
        ...acts('c2', 11, 1000, 2000),
      ],
      [zk(50, 'c1'), zk(1080, 'c2')],
      { end: 2000 },
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(true);
    expect(r.details).toEqual([]);
  });

  // The drill's look at ZooKeeper waited on a silent server (zk-leader-isolation on the node network) from 1000 to
  // 4200: the hand-over to c2 at 1500 was seen only when it came back.
  const blindLook = (t: number, since: number, leader: string | null) =>
    labEvent(t, 'zk-leader', {
      path: '/election',
      leader,
      znode: leader && `/election/${leader}`,
      session: leader && `s-${leader}`,
      blindSince: since,
    });
  const handOver = [
    ...start,
    ev(100, 'c1', 'leader', { token: 10 }),
    ...acts('c1', 10, 100, 1400),
    ev(1400, 'c1', 'paused', { token: 10 }),
    ev(1500, 'c2', 'leader', { token: 11 }),
    ...acts('c2', 11, 1500, 5000),
  ];

  it('does not count a new leader acting while the drill could not ask ZooKeeper', () => {
    const h = buildHistory(handOver, [zk(50, 'c1'), blindLook(4200, 1000, 'c2')], { end: 5000 });
    expect(h.zkLeaders.map((z) => [z.leader, z.unknown ?? false, z.start, z.end])).toEqual([
      ['c1', false, 50, 1000],
      [null, true, 1000, 4200],
      ['c2', false, 4200, 5000],
    ]);
    expect(checkSingleLeader(h).details.filter((d) => d.level !== 'info')).toEqual([]);
  });

  it('still fails one that acts behind ZooKeeper once the drill can ask again', () => {
    const h = buildHistory(
      [...handOver, ev(4000, 'c1', 'resumed'), ...acts('c1', 10, 4500, 5000)],
      [zk(50, 'c1'), blindLook(4200, 1000, 'c2')],
      { end: 5000 },
    );
    expect(violations(checkSingleLeader(h)).length).toBeGreaterThan(0);
  });

  it('does not count a new leader while a failed look left ZooKeeper unknown', () => {
    const unknown = labEvent(1000, 'zk-leader', {
      path: '/election',
      leader: null,
      znode: null,
      session: null,
      unknown: true,
      blindSince: 900,
    });
    const h = buildHistory(handOver, [zk(50, 'c1'), unknown, zk(4200, 'c2')], { end: 5000 });
    expect(h.zkLeaders.map((z) => [z.leader, z.unknown ?? false, z.start, z.end])).toEqual([
      ['c1', false, 50, 900],
      [null, true, 900, 1000],
      [null, true, 1000, 4200],
      ['c2', false, 4200, 5000],
    ]);
    expect(checkSingleLeader(h).passed).toBe(true);
  });
});

describe('checkSingleLeader on what the probes said (nodes whose data plane outlives their agent)', () => {
  const zk = (t: number, leader: string | null) =>
    labEvent(t, 'zk-leader', { path: '/ha', leader, znode: leader && '/ha/leader', session: leader && `s-${leader}` });
  const probed = (t: number, id: string, leads: boolean | null) =>
    ev(t, id, 'probed', { leads, everyMs: 250, session: null, znode: null, source: 'probe' });
  const silent = ['c1', 'c2'].flatMap((id) => [ev(0, id, 'started', { recipe: 'exec' })]);
  /** Two silent programs with what their probes said, beside the lab's lines, until `end`. */
  const probeHistory = (words: ReturnType<typeof probed>[], labLines: ReturnType<typeof labEvent>[], end: number) =>
    buildHistory([...silent, ...words], labLines, { end });
  const blindness = (h: ReturnType<typeof buildHistory>) =>
    checkSingleLeader(h).measurements.find((m) => m.name === PROBES_BLIND)?.value;

  it('fails when the data plane of a leader whose agent died acts on beside the next leader, with the overlap', () => {
    const h = probeHistory(
      [probed(100, 'c1', true), probed(100, 'c2', false), probed(4300, 'c2', true)],
      [
        zk(50, 'c1'),
        labEvent(1000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL', scope: 'process' }),
        zk(4000, 'c2'),
      ],
      10_000,
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(false);
    expect(violations(r).map((d) => d.message)).toEqual([
      'c1 acted as leader by its probe for 6s after ZooKeeper gave leadership to c2 at +4s (c1 acting since +100ms)',
      'c1 and c2 both acted as leader by their probes for 5.7s at +4.3s (c1 acting since +100ms, c2 acting since +4.3s)',
    ]);
    expect(r.measurements.find((m) => m.name === 'two nodes acting (probes)')?.value).toBe(5700);
  });

  it('passes when the whole node of the old leader was killed: its data plane stopped acting with it', () => {
    const h = probeHistory(
      [probed(100, 'c1', true), probed(100, 'c2', false), probed(1200, 'c1', false), probed(4300, 'c2', true)],
      [
        zk(50, 'c1'),
        labEvent(1000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL', scope: 'node' }),
        zk(4000, 'c2'),
      ],
      10_000,
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(true);
    expect(violations(r)).toEqual([]);
  });

  it('does not count what sampling explains: a hand-over seen one probe interval late', () => {
    const h = probeHistory(
      [probed(100, 'c1', true), probed(2300, 'c2', true), probed(2500, 'c1', false)],
      [zk(50, 'c1'), zk(2200, 'c2')],
      5000,
    );
    expect(checkSingleLeader(h).passed).toBe(true);
  });

  // A node whose acting begins while ZooKeeper names another: the zombie that serves only once it is thawed, the
  // node that serves again once a partition heals, the program that serves again when it is restarted. Only c1
  // ever serves, so no two nodes act at once: ZooKeeper's word is what shows the second leader.
  const lateStarts: readonly { readonly name: string; readonly fault: ReturnType<typeof labEvent>[] }[] = [
    {
      name: 'once it is thawed',
      fault: [
        labEvent(1000, 'contender-paused', { contender: 'c1', pid: 1 }),
        labEvent(6000, 'contender-resumed', { contender: 'c1', pid: 1 }),
      ],
    },
    {
      name: 'once its partition heals',
      fault: [
        labEvent(1000, 'partition', { description: 'isolate c1', mode: 'blackhole', target: 'c1' }),
        labEvent(6000, 'heal', { kind: 'partition', description: 'heal c1', target: 'c1' }),
      ],
    },
    {
      name: 'once its program is restarted',
      fault: [labEvent(1000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL', scope: 'process' })],
    },
  ];
  for (const { name, fault } of lateStarts) {
    it(`fails a node that begins to act while ZooKeeper names another: ${name}`, () => {
      const h = probeHistory(
        [probed(100, 'c1', true), probed(100, 'c2', false), probed(1100, 'c1', false), probed(6200, 'c1', true)],
        [zk(50, 'c1'), ...fault, zk(4000, 'c2')],
        9200,
      );
      const r = checkSingleLeader(h);
      expect(r.passed).toBe(false);
      expect(violations(r).map((d) => d.message)).toEqual([
        'c1 acted as leader by its probe for 3s while ZooKeeper named c2 leader (since +4s) (c1 acting since +6.2s)',
      ]);
      expect(r.summary).toMatch(/a node acted as leader while ZooKeeper named another \(probes\)/);
    });
  }

  it('does not count a new leader acting before the late sample of ZooKeeper names it', () => {
    const h = probeHistory(
      [probed(100, 'c1', true), probed(100, 'c2', false), probed(2000, 'c1', false), probed(2100, 'c2', true)],
      [zk(50, 'c1'), zk(3500, 'c2')],
      6000,
    );
    expect(violations(checkSingleLeader(h))).toEqual([]);
  });

  it('passes a node that acts alone while ZooKeeper names no leader, and measures it', () => {
    const h = probeHistory(
      [probed(100, 'c1', true), probed(100, 'c2', false)],
      [zk(50, 'c1'), zk(2000, null), zk(3000, 'c1')],
      4000,
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(true);
    expect(r.measurements.find((m) => m.name === 'acting while ZooKeeper named no leader (probes)')?.value).toBe(1000);
  });

  it('ends acting where the probe stops knowing (it hung: a frozen data plane acts on nothing)', () => {
    const h = probeHistory(
      [probed(100, 'c1', true), probed(1000, 'c1', null), probed(4300, 'c2', true)],
      [zk(50, 'c1'), zk(4000, 'c2')],
      10_000,
    );
    expect(h.acting.map((a) => [a.contender, a.start, a.end, a.endReason])).toEqual([
      ['c1', 100, 1000, 'unknown'],
      ['c2', 4300, 10_000, 'end-of-history'],
    ]);
    expect(checkSingleLeader(h).passed).toBe(true);
  });

  it('says how long a probe said nothing while ZooKeeper named another: no verdict can say the node did not act', () => {
    const h = probeHistory(
      [probed(100, 'c1', true), probed(1000, 'c1', null), probed(4300, 'c2', true), probed(7000, 'c1', false)],
      [zk(50, 'c1'), zk(4000, 'c2')],
      10_000,
    );
    const r = checkSingleLeader(h);
    expect(r.passed).toBe(true);
    expect(warnings(r).map((d) => d.message)).toEqual([
      "c1's probe said nothing for 3s at +4s while ZooKeeper named c2 leader (no answer): whether it acted then is not known",
    ]);
    expect(blindness(h)).toBe(3000);
  });

  it('is not blind where the probe said nothing while its node was frozen, or while ZooKeeper named that node', () => {
    const h = probeHistory(
      [probed(100, 'c1', true), probed(1000, 'c1', null), probed(4300, 'c2', true), probed(7000, 'c1', false)],
      [
        zk(50, 'c1'),
        labEvent(900, 'contender-paused', { contender: 'c1', pid: 1 }),
        zk(4000, 'c2'),
        labEvent(6900, 'contender-resumed', { contender: 'c1', pid: 1 }),
      ],
      10_000,
    );
    expect(blindness(h)).toBe(0);
    const own = probeHistory(
      [probed(100, 'c1', true), probed(1000, 'c1', null), probed(3000, 'c1', true)],
      [zk(50, 'c1')],
      5000,
    );
    expect(blindness(own)).toBe(0);
  });

  it('takes one run killed as hung for a late sample, not for blindness', () => {
    const h = probeHistory(
      [probed(100, 'c1', true), probed(3000, 'c1', false), probed(5000, 'c1', null), probed(6000, 'c1', false)],
      [zk(50, 'c1'), zk(2800, 'c2')],
      8000,
    );
    expect(blindness(h)).toBe(0);
  });

  it("allows a slow probe's word to be as late as its runs were slow, and no later", () => {
    const late = (lateMs: number) =>
      probeHistory(
        [
          probed(100, 'c1', true),
          probed(100, 'c2', false),
          { ...probed(3000, 'c1', false), lateMs },
          probed(3100, 'c2', true),
        ],
        [zk(50, 'c1'), zk(2200, 'c2')],
        5000,
      );
    expect(violations(checkSingleLeader(late(1200)))).toEqual([]);
    expect(violations(checkSingleLeader(late(250))).map((d) => d.message)).toEqual([
      'c1 acted as leader by its probe for 800ms after ZooKeeper gave leadership to c2 at +2.2s (c1 acting since +100ms)',
    ]);
  });
});
