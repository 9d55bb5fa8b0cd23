import { describe, expect, it } from 'vitest';
import { parseDrill } from '../../../src/drills/format/schema.js';
import {
  checkPreemption,
  DEFAULT_PREEMPTION_WITHIN_MS,
  handovers,
} from '../../../src/drills/judge/check-preemption.js';
import { runChecks } from '../../../src/drills/judge/checkers.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import type { ContenderEvent } from '../../../src/lab/events.js';
import { ev, joinAll } from './fixtures.js';

const history = (events: readonly ContenderEvent[], end = 20_000) => buildHistory(events, [], { start: 0, end });

const elected = (t: number, candidate: string, previous: string | null, reason = 'preempt', by = 'c1') =>
  ev(t, by, 'elected', { candidate, policy: 'priority', reason, previous });
const resigned = (t: number, id: string, wasLeader = true, token = 0x10) =>
  ev(t, id, 'resigned', { reason: 'not-elected', token, wasLeader });
const progress = (t: number, id: string, token = 0x20) => ev(t, id, 'progress', { token });
const ready = (t: number, id: string, token = 0x20) => ev(t, id, 'ready', { token });
const policy = (t: number, by = 'c1', sites: string[] = ['b', 'a']) =>
  ev(t, by, 'policy', { sites, priorities: {}, problems: [] });

/** c1 (elector and leader) leads from 1s; c4, ranked above it, joins at 5s; c1 hands over to c4. */
const base: ContenderEvent[] = [
  ...joinAll(0, ['c1', 'c2', 'c3']),
  elected(500, 'c1', null, 'policy'),
  progress(600, 'c1', 0x10),
  ready(1000, 'c1', 0x10),
  ev(1000, 'c1', 'leader', { token: 0x10 }),
  ev(5000, 'c4', 'joined'),
];

/** The clean hand-over: elected 40ms after c4 joined, c1 stops, then c4 goes PROGRESS → READY. */
const clean: ContenderEvent[] = [
  ...base,
  elected(5040, 'c4', 'c1'),
  resigned(5100, 'c1'),
  progress(5150, 'c4'),
  ready(5700, 'c4'),
];

describe('handovers', () => {
  it('follows each pre-emption step by step', () => {
    expect(handovers(history(clean))).toEqual([
      {
        from: 'c1',
        to: 'c4',
        trigger: { t: 5000, what: 'c4 joined' },
        elected: 5040,
        fromLed: true,
        resigned: 5100,
        supersededAt: null,
        progress: 5150,
        ready: 5700,
      },
    ]);
  });

  it('ignores elections of any other reason', () => {
    expect(
      handovers(history([...base, elected(5040, 'c4', 'c1', 'policy'), elected(6000, 'c2', 'c4', 'holder')])),
    ).toEqual([]);
  });

  it('takes the policy read as the trigger when it comes after the candidate joined', () => {
    const events = [
      ...base,
      policy(5020),
      elected(5040, 'c4', 'c1'),
      resigned(5100, 'c1'),
      progress(5150, 'c4'),
      ready(5700, 'c4'),
    ];
    expect(handovers(history(events))[0]?.trigger).toEqual({ t: 5020, what: 'the elector read a changed policy' });
  });

  it("keeps the candidate's join as the trigger when the policy was read before it, or after the election", () => {
    const before = [...base, policy(4000), elected(5040, 'c4', 'c1'), progress(5150, 'c4'), ready(5700, 'c4')];
    expect(handovers(history(before))[0]?.trigger).toEqual({ t: 5000, what: 'c4 joined' });
    const afterElection = [...base, elected(5040, 'c4', 'c1'), policy(5050), progress(5150, 'c4'), ready(5700, 'c4')];
    expect(handovers(history(afterElection))[0]?.trigger).toEqual({ t: 5000, what: 'c4 joined' });
  });

  it('a policy read at the very time of the join leaves the join as the trigger (only a later read wins)', () => {
    const events = [...base, policy(5000), elected(5040, 'c4', 'c1'), progress(5150, 'c4'), ready(5700, 'c4')];
    expect(handovers(history(events))[0]?.trigger).toEqual({ t: 5000, what: 'c4 joined' });
  });

  it("a candidate that joined long ago and is pre-empted in by the administrator's policy: the policy read", () => {
    // c3 joined at 0; the policy written at 8s makes the elector name it.
    const events = [
      ...base,
      policy(8000),
      elected(8030, 'c3', 'c1'),
      resigned(8100, 'c1'),
      progress(8120, 'c3'),
      ready(8500, 'c3'),
    ];
    expect(handovers(history(events))).toEqual([
      {
        from: 'c1',
        to: 'c3',
        trigger: { t: 8000, what: 'the elector read a changed policy' },
        elected: 8030,
        fromLed: true,
        resigned: 8100,
        supersededAt: null,
        progress: 8120,
        ready: 8500,
      },
    ]);
  });

  it('uses the latest join before the election, and the election time when the candidate never logged one', () => {
    const rejoin = [...base, ev(4000, 'c4', 'joined'), elected(5040, 'c4', 'c1'), ev(6000, 'c4', 'joined')];
    // c4 joined at 4s and at 5s (fixture base), and again after the election: the one at 5s counts.
    expect(handovers(history(rejoin))[0]?.trigger).toEqual({ t: 5000, what: 'c4 joined' });
    const silent = [...joinAll(0, ['c1']), elected(3000, 'c9', 'c1')];
    expect(handovers(history(silent))[0]).toEqual({
      from: 'c1',
      to: 'c9',
      trigger: { t: 3000, what: 'c9 joined' },
      elected: 3000,
      fromLed: false,
      resigned: null,
      supersededAt: null,
      progress: null,
      ready: null,
    });
  });

  it("counts the replaced one's first resignation at or after the election, as leader or as a candidate taking over", () => {
    const events = [
      ...base,
      resigned(4500, 'c1'),
      elected(5040, 'c4', 'c1'),
      resigned(5080, 'c1', false),
      resigned(5090, 'c2'),
      resigned(5120, 'c1'),
      progress(5150, 'c4'),
      ready(5700, 'c4'),
    ];
    expect(handovers(history(events))[0]?.resigned).toBe(5080);
  });

  it("takes the leader's resignation logged a moment before the elector logs the election", () => {
    const early = [...base, resigned(5030, 'c1'), elected(5040, 'c4', 'c1'), progress(5150, 'c4'), ready(5700, 'c4')];
    expect(handovers(history(early))[0]).toMatchObject({ from: 'c1', fromLed: true, resigned: 5030 });
    expect(checkPreemption(history(early)).passed).toBe(true);
  });

  it('does not fail a pre-emption superseded by a newer one before its READY, and measures each from the one who was leading', () => {
    // c3 is named over c1, then c4 over c3 while c3 is still taking over: c3 resigns as a candidate.
    const chain = [
      ...base,
      elected(5040, 'c3', 'c1'),
      resigned(5060, 'c1'),
      progress(5100, 'c3'),
      elected(5200, 'c4', 'c3'),
      resigned(5250, 'c3', false),
      progress(5300, 'c4'),
      ready(5800, 'c4'),
    ];
    const [first, second] = handovers(history(chain));
    expect(first).toMatchObject({ to: 'c3', supersededAt: 5200, ready: null });
    // c4 replaces the one who was leading (c1, who stopped at 5.06s), not c3, which was elected but never led.
    expect(second).toMatchObject({
      from: 'c1',
      to: 'c4',
      fromLed: true,
      resigned: 5060,
      supersededAt: null,
      ready: 5800,
    });
    const r = checkPreemption(history(chain));
    expect(r.passed).toBe(true);
    expect(r.details.map((d) => d.level)).toEqual(['info', 'info']);
    expect(r.details[0]!.message).toMatch(/superseded by a newer pre-emption at \+5\.2s/);
  });

  it("takes the candidate's first PROGRESS after the election and the READY after it", () => {
    const events = [
      ...base,
      progress(4000, 'c4', 0x1),
      ready(4100, 'c4', 0x1),
      elected(5040, 'c4', 'c1'),
      resigned(5100, 'c1'),
      progress(5150, 'c4'),
      ready(5700, 'c4'),
      progress(9000, 'c4', 0x30),
      ready(9500, 'c4', 0x30),
    ];
    expect(handovers(history(events))[0]).toMatchObject({ progress: 5150, ready: 5700 });
  });
});

describe('checkPreemption', () => {
  it('passes a clean pre-emption and reports each step', () => {
    const r = checkPreemption(history(clean));
    expect(r).toEqual({
      name: 'preemption',
      passed: true,
      summary: '1 pre-emption(s), each READY within 5s (slowest 700ms), the old leader stopped first',
      details: [
        {
          level: 'info',
          t: 5000,
          message:
            'c1 → c4 after c4 joined at +5s: elected at +5.04s (+40ms), c1 stopped at +5.1s, PROGRESS at +5.15s, READY at +5.7s (700ms in all)',
        },
      ],
      measurements: [{ name: 'pre-emption c1 → c4: trigger → READY', value: 700, unit: 'ms', t: 5000 }],
    });
  });

  it('defaults to 5s', () => {
    expect(DEFAULT_PREEMPTION_WITHIN_MS).toBe(5000);
    const at5s = [...base, elected(5040, 'c4', 'c1'), resigned(5100, 'c1'), progress(5150, 'c4'), ready(10_000, 'c4')];
    expect(checkPreemption(history(at5s)).passed).toBe(true);
    const past5s = [
      ...base,
      elected(5040, 'c4', 'c1'),
      resigned(5100, 'c1'),
      progress(5150, 'c4'),
      ready(10_001, 'c4'),
    ];
    expect(checkPreemption(history(past5s)).passed).toBe(false);
  });

  it('fails READY after `within`', () => {
    const late = [...base, elected(5040, 'c4', 'c1'), resigned(5100, 'c1'), progress(5150, 'c4'), ready(7500, 'c4')];
    const r = checkPreemption(history(late), { within: 2000 });
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('1 of 1 pre-emption(s) late, unfinished or overlapping (see details)');
    expect(r.details).toEqual([
      {
        level: 'violation',
        t: 5000,
        message:
          'c1 → c4 after c4 joined at +5s: elected at +5.04s (+40ms), c1 stopped at +5.1s, PROGRESS at +5.15s, READY at +7.5s (2.5s in all, over 2s)',
      },
    ]);
    expect(r.measurements).toEqual([
      { name: 'pre-emption c1 → c4: trigger → READY', value: 2500, unit: 'ms', t: 5000 },
    ]);
    // The same hand-over passes with room for it.
    expect(checkPreemption(history(late), { within: 2500 }).passed).toBe(true);
  });

  it('measures from the policy read when that set it off', () => {
    const events = [
      ...base,
      policy(8000),
      elected(8030, 'c3', 'c1'),
      resigned(8100, 'c1'),
      progress(8120, 'c3'),
      ready(8500, 'c3'),
    ];
    const r = checkPreemption(history(events), { within: 500 });
    expect(r.passed).toBe(true);
    expect(r.details[0]?.message).toBe(
      'c1 → c3 after the elector read a changed policy at +8s: elected at +8.03s (+30ms), c1 stopped at +8.1s, PROGRESS at +8.12s, READY at +8.5s (500ms in all)',
    );
    expect(r.measurements).toEqual([{ name: 'pre-emption c1 → c3: trigger → READY', value: 500, unit: 'ms', t: 8000 }]);
  });

  it('fails a pre-emption that never reaches READY', () => {
    const stuck = [...base, elected(5040, 'c4', 'c1'), resigned(5100, 'c1'), progress(5150, 'c4')];
    const r = checkPreemption(history(stuck));
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('1 of 1 pre-emption(s) late, unfinished or overlapping (see details)');
    expect(r.details).toEqual([
      {
        level: 'violation',
        t: 5000,
        message:
          'c1 → c4 after c4 joined at +5s: elected at +5.04s (+40ms), c1 stopped at +5.1s, PROGRESS at +5.15s, READY at never (never READY)',
      },
    ]);
    expect(r.measurements).toEqual([
      { name: 'pre-emption c1 → c4: trigger → READY', value: null, unit: 'ms', t: 5000 },
    ]);
  });

  it('fails a pre-emption whose candidate never even marked PROGRESS (a READY without PROGRESS does not count)', () => {
    const r = checkPreemption(history([...base, elected(5040, 'c4', 'c1'), resigned(5100, 'c1'), ready(5700, 'c4')]));
    expect(r.passed).toBe(false);
    expect(r.details[0]?.message).toBe(
      'c1 → c4 after c4 joined at +5s: elected at +5.04s (+40ms), c1 stopped at +5.1s, PROGRESS at never, READY at never (never READY)',
    );
  });

  it('fails an overlap: the old leader resigned only after the new one marked PROGRESS', () => {
    const overlap = [...base, elected(5040, 'c4', 'c1'), progress(5150, 'c4'), resigned(5200, 'c1'), ready(5700, 'c4')];
    const r = checkPreemption(history(overlap));
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('1 of 1 pre-emption(s) late, unfinished or overlapping (see details)');
    expect(r.details).toEqual([
      {
        level: 'violation',
        t: 5000,
        message:
          'c1 → c4 after c4 joined at +5s: elected at +5.04s (+40ms), c1 stopped at +5.2s, PROGRESS at +5.15s, READY at +5.7s (700ms in all); c1 stopped only after c4 marked PROGRESS',
      },
    ]);
    // In time: the overlap alone fails it.
    expect(r.measurements[0]?.value).toBe(700);
  });

  it('a resignation at the very time of PROGRESS is no overlap', () => {
    const tie = [...base, elected(5040, 'c4', 'c1'), resigned(5150, 'c1'), progress(5150, 'c4'), ready(5700, 'c4')];
    expect(checkPreemption(history(tie)).passed).toBe(true);
  });

  it('fails a hand-over whose old leader never said it stopped', () => {
    const silent = [...base, elected(5040, 'c4', 'c1'), progress(5150, 'c4'), ready(5700, 'c4')];
    const r = checkPreemption(history(silent));
    expect(r.passed).toBe(false);
    expect(r.details).toEqual([
      {
        level: 'violation',
        t: 5000,
        message:
          'c1 → c4 after c4 joined at +5s: elected at +5.04s (+40ms), c1 stopped at never, PROGRESS at +5.15s, READY at +5.7s (700ms in all); c1 never said it stopped',
      },
    ]);
  });

  it('fails with "no pre-emption happened" when no election had reason preempt', () => {
    const sticky = [...base, elected(5040, 'c1', 'c1', 'holder')];
    const r = checkPreemption(history(sticky));
    const message = 'no pre-emption happened: the leader was never replaced by a better-ranked contender';
    expect(r).toEqual({
      name: 'preemption',
      passed: false,
      summary: message,
      details: [{ level: 'violation', message }],
      measurements: [],
    });
    expect(checkPreemption(history([])).summary).toBe(message);
  });

  it('judges each of several pre-emptions and reports the slowest', () => {
    const two = [
      ...clean,
      policy(9000),
      elected(9050, 'c3', 'c4'),
      resigned(9100, 'c4', true, 0x20),
      progress(9200, 'c3', 0x30),
      ready(10_200, 'c3', 0x30),
    ];
    const r = checkPreemption(history(two));
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('2 pre-emption(s), each READY within 5s (slowest 1.2s), the old leader stopped first');
    expect(r.measurements).toEqual([
      { name: 'pre-emption c1 → c4: trigger → READY', value: 700, unit: 'ms', t: 5000 },
      { name: 'pre-emption c4 → c3: trigger → READY', value: 1200, unit: 'ms', t: 9000 },
    ]);
    expect(r.details.map((d) => d.level)).toEqual(['info', 'info']);

    const r2 = checkPreemption(history(two), { within: 1000 });
    expect(r2.passed).toBe(false);
    expect(r2.summary).toBe('1 of 2 pre-emption(s) late, unfinished or overlapping (see details)');
    expect(r2.details.map((d) => d.level)).toEqual(['info', 'violation']);
  });

  it("runs from a drill: runChecks passes the drill's within", () => {
    const drill = parseDrill(
      `name: t
contenders: { count: 3, recipe: priority, priorities: [10, 1, 5, 20] }
steps:
  - spawn: 1
checks:
  - preemption: { within: 600ms }
`,
      'd.yaml',
    );
    expect(drill.checks).toEqual({ preemption: { within: 600 } });
    const [r] = runChecks(history(clean), drill.checks);
    expect(r?.name).toBe('preemption');
    expect(r?.passed).toBe(false);
    expect(r?.details[0]?.message).toContain('(700ms in all, over 600ms)');
  });
});
