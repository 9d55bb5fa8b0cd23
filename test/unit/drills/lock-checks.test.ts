import { describe, expect, it } from 'vitest';
import { parseDrill } from '../../../src/drills/format/schema.js';
import { checkFencedWrites } from '../../../src/drills/judge/check-fenced-writes.js';
import { checkLockProgress } from '../../../src/drills/judge/check-lock-progress.js';
import { checkMutualExclusion } from '../../../src/drills/judge/check-mutual-exclusion.js';
import { checkNotificationsPerRelease } from '../../../src/drills/judge/check-notifications.js';
import { runChecks } from '../../../src/drills/judge/checkers.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import type { ContenderEvent, LabEvent } from '../../../src/lab/events.js';
import { drillErrors } from './drill-errors.js';
import { ev, lab } from './fixtures.js';

const joined = (t: number, id: string) => ev(t, id, 'joined', { znode: `/lock/${id}-${t}` });
const acquired = (t: number, id: string, token: number, waitedMs = 0) =>
  ev(t, id, 'lock-acquired', { token, waitedMs });
const released = (t: number, id: string, token: number, reason = 'done') =>
  ev(t, id, 'lock-released', { token, heldMs: 0, reason });
const wrote = (t: number, id: string, token: number) =>
  ev(t, id, 'lock-write', { token, value: 1, accepted: true, lastToken: 0, previousValue: 0 });
const notified = (t: number, id: string, path = '/lock') => ev(t, id, 'notified', { path, type: 'deleted' });
const paused = (t: number, contender: string) => lab(t, 'contender-paused', { contender, pid: 1 });
const resumed = (t: number, contender: string) => lab(t, 'contender-resumed', { contender, pid: 1 });
const killed = (t: number, contender: string) => lab(t, 'contender-killed', { contender, pid: 1, signal: 'SIGKILL' });
const history = (events: readonly ContenderEvent[], labEvents: readonly LabEvent[] = [], end = 10_000) =>
  buildHistory(events, labEvents, { start: 0, end });

/** c1 holds token 0x100, is frozen past its session, c2 takes the lock (0x105); c1 thaws, writes and lets go. */
const zombie = [
  joined(0, 'c1'),
  joined(10, 'c2'),
  acquired(100, 'c1', 0x100),
  wrote(150, 'c1', 0x100),
  acquired(2600, 'c2', 0x105, 2590),
  wrote(2650, 'c2', 0x105),
  wrote(4010, 'c1', 0x100),
  released(4020, 'c1', 0x100, 'lost'),
  released(4500, 'c2', 0x105),
];
const zombieLab = [paused(300, 'c1'), resumed(4000, 'c1')];

describe('checkMutualExclusion', () => {
  it('passes holds that follow each other', () => {
    const r = checkMutualExclusion(
      history([
        joined(0, 'c1'),
        joined(0, 'c2'),
        acquired(10, 'c1', 1),
        released(500, 'c1', 1),
        acquired(510, 'c2', 2),
        released(900, 'c2', 2),
      ]),
    );
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('2 hold(s), no overlap');
    expect(r.measurements).toEqual([
      { name: 'holds', value: 2, unit: 'count' },
      { name: 'overlapping holds', value: 0, unit: 'count' },
      { name: 'time two held the lock', value: 0, unit: 'ms' },
    ]);
  });

  it('fails the zombie: a holder frozen past its session still believes it holds when it thaws', () => {
    const r = checkMutualExclusion(history(zombie, zombieLab));
    expect(r.passed).toBe(false);
    expect(r.summary).toBe(
      '1 overlap(s) of 2 hold(s): c1 (token 0x100) and c2 (token 0x105) both held the lock for 1.42s at +2.6s',
    );
    expect(r.details).toEqual([
      {
        level: 'violation',
        t: 2600,
        message: 'c1 (token 0x100) and c2 (token 0x105) both held the lock for 1.42s (+2.6s..+4.02s)',
      },
    ]);
    expect(r.measurements[2]).toEqual({ name: 'time two held the lock', value: 1420, unit: 'ms' });
  });

  it("ends a hold at the holder's death, or runs it to the end of the history", () => {
    const base = [joined(0, 'c1'), joined(0, 'c2'), acquired(100, 'c1', 1), acquired(3000, 'c2', 2)];
    expect(checkMutualExclusion(history(base, [killed(1000, 'c1')])).passed).toBe(true);
    expect(
      checkMutualExclusion(history([...base, ev(900, 'c1', 'failpoint', { at: 'after-acquire', action: 'crash' })]))
        .passed,
    ).toBe(true);
    const r = checkMutualExclusion(history(base));
    expect(r.passed).toBe(false);
    expect(r.details[0]?.message).toBe('c1 (token 0x1) and c2 (token 0x2) both held the lock for 7s (+3s..+10s)');
  });

  it('fails a hold that begins while another holds: a holder thawed after its session ended acquires anew', () => {
    const r = checkMutualExclusion(
      history(
        [
          joined(0, 'c1'),
          joined(10, 'c2'),
          acquired(100, 'c1', 1),
          released(200, 'c1', 1),
          acquired(2600, 'c2', 2),
          acquired(4100, 'c1', 1),
          released(4500, 'c2', 2),
          released(4600, 'c1', 1, 'lost'),
        ],
        [paused(300, 'c1'), resumed(4000, 'c1')],
      ),
    );
    expect(r.passed).toBe(false);
    expect(r.details.map((d) => d.message)).toEqual([
      'c2 (token 0x2) and c1 (token 0x1) both held the lock for 400ms (+4.1s..+4.5s)',
    ]);
  });

  it('fails an overlap of 5ms: a release is logged before the delete, so no release in flight excuses it', () => {
    const race = [
      joined(0, 'c1'),
      joined(0, 'c2'),
      acquired(100, 'c1', 1),
      acquired(500, 'c2', 2),
      released(505, 'c1', 1),
      released(900, 'c2', 2),
    ];
    const r = checkMutualExclusion(history(race));
    expect(r.passed).toBe(false);
    expect(r.summary).toBe(
      '1 overlap(s) of 2 hold(s): c1 (token 0x1) and c2 (token 0x2) both held the lock for 5ms at +500ms',
    );
    expect(r.details).toEqual([
      {
        level: 'violation',
        t: 500,
        message: 'c1 (token 0x1) and c2 (token 0x2) both held the lock for 5ms (+500ms..+505ms)',
      },
    ]);
    expect(r.measurements.slice(1)).toEqual([
      { name: 'overlapping holds', value: 1, unit: 'count' },
      { name: 'time two held the lock', value: 5, unit: 'ms' },
    ]);
  });

  it('fails a drill in which nobody acquired the lock', () => {
    const r = checkMutualExclusion(history([joined(0, 'c1')]));
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('no contender acquired the lock: nothing to judge');
  });
});

const write = (
  t: number,
  holder: string,
  token: number,
  value: number,
  accepted: boolean,
  lastToken: number,
  previousValue: number,
  fencing: boolean,
) => lab(t, 'resource-write', { resource: '/lock', holder, token, value, accepted, lastToken, previousValue, fencing });

/** c1 writes with 0x100, c2 with 0x105, then the thawed c1 again with 0x100 (it had read 1, so it writes 2). */
const resourceLog = (fencing: boolean) => [
  lab(0, 'resource-configured', { resource: '/lock', fencing }),
  write(150, 'c1', 0x100, 1, true, 0, 0, fencing),
  write(2650, 'c2', 0x105, 2, true, 0x100, 1, fencing),
  write(4010, 'c1', 0x100, 2, !fencing, 0x105, 2, fencing),
];

describe('checkFencedWrites', () => {
  it('passes when the resource refused the stale token', () => {
    const r = checkFencedWrites(history(zombie, resourceLog(true)));
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('3 write(s) to /lock, no stale token accepted (1 refused, 0 lost update(s))');
    expect(r.details).toEqual([
      { level: 'info', t: 4010, message: '/lock refused stale token 0x100 from c1 at +4.01s, highest seen 0x105' },
    ]);
  });

  it('fails when the resource took the stale token, and counts the lost update', () => {
    const r = checkFencedWrites(history(zombie, resourceLog(false)));
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('1 stale write(s) accepted of 3 to /lock (0 refused, 1 lost update(s))');
    expect(r.details.map((d) => [d.level, d.message])).toEqual([
      ['violation', '/lock (fencing off) accepted stale token 0x100 from c1 at +4.01s (value 2), after token 0x105'],
      ['warning', 'lost update on /lock (fencing off): c1 (token 0x100) wrote 2 over 2 at +4.01s'],
    ]);
    expect(r.measurements).toEqual([
      { name: 'writes accepted', value: 3, unit: 'count' },
      { name: 'stale writes refused', value: 0, unit: 'count' },
      { name: 'stale writes accepted', value: 1, unit: 'count' },
      { name: 'lost updates', value: 1, unit: 'count' },
    ]);
  });

  it('fails a stale write that begins after the holder is thawed, whenever the resource took the higher token', () => {
    const late = [write(100, 'c2', 5, 1, true, 0, 0, false), write(6000, 'c1', 3, 2, true, 5, 1, false)];
    const r = checkFencedWrites(history([], [paused(50, 'c1'), resumed(5900, 'c1'), ...late]));
    expect(r.passed).toBe(false);
    expect(r.details[0]?.message).toBe(
      '/lock (fencing off) accepted stale token 0x3 from c1 at +6s (value 2), after token 0x5',
    );
  });

  it('warns of a lost update that fencing let through (a fresh token written after a stale read)', () => {
    const r = checkFencedWrites(
      history([], [write(100, 'c1', 1, 1, true, 0, 0, true), write(200, 'c2', 2, 1, true, 1, 1, true)]),
    );
    expect(r.passed).toBe(true);
    expect(r.details.map((d) => d.level)).toEqual(['warning']);
  });

  it('fails a drill in which no write reached the resource', () => {
    const r = checkFencedWrites(history(zombie, [lab(0, 'resource-configured', { resource: '/lock', fencing: true })]));
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('no writes reached the resource: nothing to judge');
  });
});

describe('checkLockProgress', () => {
  const queue = [
    joined(0, 'c1'),
    joined(0, 'c2'),
    acquired(10, 'c1', 1),
    released(500, 'c1', 1),
    acquired(510, 'c2', 2),
    joined(700, 'c1'),
    released(900, 'c2', 2),
    acquired(910, 'c1', 3),
  ];

  it('passes waits within the bound, and reports the longest and the acquisitions of each', () => {
    const r = checkLockProgress(history(queue, [], 2000));
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('3 acquisition(s), every wait within 10s (longest 510ms)');
    expect(r.details.map((d) => d.message)).toEqual([
      'c1: 2 acquisition(s), longest wait 210ms',
      'c2: 1 acquisition(s), longest wait 510ms',
    ]);
    expect(r.measurements).toContainEqual({ name: 'longest wait', value: 510, unit: 'ms' });
  });

  it('fails a wait longer than the bound', () => {
    const events = [
      joined(0, 'c1'),
      joined(0, 'c2'),
      acquired(10, 'c1', 1),
      released(12_000, 'c1', 1),
      acquired(12_010, 'c2', 2),
    ];
    const r = checkLockProgress(history(events, [], 13_000));
    expect(r.passed).toBe(false);
    expect(r.details[0]).toEqual({
      level: 'violation',
      t: 0,
      message: 'c2 waited 12.01s for the lock from +0ms to +12.01s, over 10s',
    });
    expect(checkLockProgress(history(events, [], 13_000), { within: 15_000 }).passed).toBe(true);
  });

  it('fails a contender that never got the lock once the drill outlasted the bound, not before', () => {
    const events = [joined(0, 'c1'), joined(0, 'c2'), acquired(10, 'c1', 1)];
    const r = checkLockProgress(history(events, [], 20_000));
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('1 wait(s) over 10s (longest 20s); never got the lock: c2');
    expect(r.details[0]?.message).toBe('c2 joined at +0ms and never got the lock (20s to the end, over 10s)');
    expect(checkLockProgress(history(events, [], 5000)).passed).toBe(true);
  });

  it('excuses a waiter that died or lost its session before the bound, not after', () => {
    const events = [joined(0, 'c1'), joined(0, 'c2'), acquired(10, 'c1', 1)];
    expect(checkLockProgress(history(events, [killed(3000, 'c2')], 20_000)).passed).toBe(true);
    expect(
      checkLockProgress(
        history(
          [...events, ev(3000, 'c2', 'expired'), joined(3100, 'c2'), released(4000, 'c1', 1), acquired(4010, 'c2', 2)],
          [],
          20_000,
        ),
      ).passed,
    ).toBe(true);
    const late = checkLockProgress(history(events, [killed(15_000, 'c2')], 20_000));
    expect(late.passed).toBe(false);
    expect(late.details[0]?.message).toBe(
      'c2 waited 15s from +0ms without the lock, over 10s, until it was killed at +15s',
    );
  });

  it('judges a wait that began after the holder froze from its own join', () => {
    const r = checkLockProgress(
      history(
        [joined(0, 'c1'), acquired(10, 'c1', 1), joined(3000, 'c2'), joined(14_000, 'c3')],
        [paused(500, 'c1')],
        20_000,
      ),
    );
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('1 wait(s) over 10s (longest 17s); never got the lock: c2');
  });

  it("leaves the waiter's own frozen time out", () => {
    const events = [
      joined(0, 'c1'),
      joined(0, 'c2'),
      acquired(10, 'c1', 1),
      released(12_990, 'c1', 1),
      acquired(13_000, 'c2', 2),
    ];
    const r = checkLockProgress(history(events, [paused(1000, 'c2'), resumed(12_000, 'c2')], 14_000));
    expect(r.passed).toBe(true);
    expect(r.measurements).toContainEqual({ name: 'longest wait', value: 2000, unit: 'ms' });
  });

  it('fails a drill in which nobody joined the lock queue', () => {
    expect(checkLockProgress(history([ev(0, 'c1', 'started')])).summary).toBe(
      'no contender joined the lock queue: nothing to judge',
    );
  });
});

describe('checkNotificationsPerRelease', () => {
  const ids = ['c1', 'c2', 'c3', 'c4'];
  /** c1, c2 and c3 release in turn; `woken(k)` are notified 2ms after release k. */
  const releases = (woken: (k: number) => readonly string[]) =>
    history(
      [
        ...ids.map((id) => joined(0, id)),
        ...[1, 2, 3].flatMap((k) => [
          acquired(k * 1000 - 500, `c${k}`, k),
          released(k * 1000, `c${k}`, k),
          ...woken(k).map((id) => notified(k * 1000 + 2, id)),
        ]),
      ],
      [],
      4000,
    );
  const queue = releases((k) => [`c${k + 1}`]);
  const herd = releases((k) => ids.slice(k));

  it('counts one contender woken per release for a queue', () => {
    const r = checkNotificationsPerRelease(queue, { max: 1 });
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('3 release(s) woke 1 contender(s) on average, at most 1 (max 1)');
    expect(r.measurements).toEqual([
      { name: 'normal releases', value: 3, unit: 'count' },
      { name: 'mean contenders woken per release', value: 1, unit: 'count' },
      { name: 'max contenders woken per release', value: 1, unit: 'count' },
      { name: 'mean notifications per release', value: 1, unit: 'count' },
    ]);
    expect(checkNotificationsPerRelease(queue, { min: 2 }).passed).toBe(false);
  });

  it('counts everyone still waiting for a herd, and fails it against max 1', () => {
    const r = checkNotificationsPerRelease(herd, { max: 1 });
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('3 release(s) woke 2 contender(s) on average, at most 3 (max 1)');
    expect(r.details).toEqual([
      { level: 'violation', message: 'a release woke 2 contender(s) on average, above the bound 1' },
      {
        level: 'info',
        t: 1000,
        message:
          'most woken by one release: 3 contender(s) (c2, c3, c4), 3 notification(s), after c1 released token 0x1 at +1s',
      },
    ]);
    expect(checkNotificationsPerRelease(herd, { min: 2 }).passed).toBe(true);
  });

  it("counts notifications after the release up to the next one, never one before it nor the releaser's own", () => {
    const h = history(
      [
        joined(0, 'c1'),
        joined(0, 'c2'),
        acquired(10, 'c1', 1),
        notified(995, 'c2'),
        released(1000, 'c1', 1),
        notified(1001, 'c1'),
        notified(1002, 'c2'),
        acquired(1003, 'c2', 2),
      ],
      [],
      2000,
    );
    expect(checkNotificationsPerRelease(h).measurements.slice(1)).toEqual([
      { name: 'mean contenders woken per release', value: 1, unit: 'count' },
      { name: 'max contenders woken per release', value: 1, unit: 'count' },
      { name: 'mean notifications per release', value: 1, unit: 'count' },
    ]);
    const early = history(
      [joined(0, 'c1'), joined(0, 'c2'), acquired(10, 'c1', 1), notified(995, 'c2'), released(1000, 'c1', 1)],
      [],
      2000,
    );
    expect(checkNotificationsPerRelease(early).measurements[1]?.value).toBe(0);
  });

  it('gives each notification to the release just before it, however short the holds', () => {
    // Holds of 10ms: each holder releases, its successor hears of the delete 1ms later and acquires.
    const turns = [1, 2, 3, 4].flatMap((k) => {
      const t = k * 10;
      const [holder, next] = [`c${((k - 1) % 2) + 1}`, `c${(k % 2) + 1}`];
      return [wrote(t - 2, holder, k), released(t, holder, k), notified(t + 1, next), acquired(t + 2, next, k + 1)];
    });
    const r = checkNotificationsPerRelease(
      history([joined(0, 'c1'), joined(0, 'c2'), acquired(2, 'c1', 1), ...turns], [], 100),
      { max: 1, min: 1 },
    );
    expect(r.passed).toBe(true);
    expect(r.measurements).toEqual([
      { name: 'normal releases', value: 4, unit: 'count' },
      { name: 'mean contenders woken per release', value: 1, unit: 'count' },
      { name: 'max contenders woken per release', value: 1, unit: 'count' },
      { name: 'mean notifications per release', value: 1, unit: 'count' },
    ]);
  });

  it('fails when no lock was released normally', () => {
    const h = history([joined(0, 'c1'), acquired(10, 'c1', 1), released(3000, 'c1', 1, 'lost')]);
    const r = checkNotificationsPerRelease(h);
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('no lock was released (reason done): nothing to judge');
  });
});

describe('lock checks in a drill file', () => {
  const drill = (checks: string, contenders = '{ count: 3, workload: lock }') =>
    `name: t\ncontenders: ${contenders}\nsteps:\n  - sleep: 1s\nchecks: ${checks}\n`;

  it('reads the four checks and their options', () => {
    const d = parseDrill(
      drill(
        '[mutualExclusion, fencedWrites, { lockProgress: { within: 5s } }, { notificationsPerRelease: { max: 1, min: 0.5 } }]',
      ),
      'd.yaml',
    );
    expect(d.checks).toEqual({
      mutualExclusion: {},
      fencedWrites: {},
      lockProgress: { within: 5000 },
      notificationsPerRelease: { max: 1, min: 0.5 },
    });
    expect(parseDrill(drill('[lockProgress, notificationsPerRelease]'), 'd.yaml').checks).toEqual({
      lockProgress: {},
      notificationsPerRelease: {},
    });
  });

  it('refuses an unknown or bad option, min above max, and lock checks without lock holders', () => {
    const unknown = drillErrors(drill('[{ lockProgress: { max: 3s } }, { mutualExclusion: { strict: true } }]'));
    expect(unknown[0]).toBe('d.yaml:5: checks[0].lockProgress.max: unknown field (use one of: within)');
    expect(unknown[1]).toMatch(/^d\.yaml:5: checks\[1\]\.mutualExclusion\.strict: unknown field/);
    expect(drillErrors(drill('[{ notificationsPerRelease: { max: -1 } }]'))).toEqual([
      'd.yaml:5: checks[0].notificationsPerRelease.max: -1 is too small (use at least 0)',
    ]);
    expect(drillErrors(drill('[{ lockProgress: { within: soon } }]'))).toEqual([
      'd.yaml:5: checks[0].lockProgress.within: "soon" is not a duration (write a duration such as 500ms, 3s or a number of milliseconds)',
    ]);
    expect(drillErrors(drill('[{ notificationsPerRelease: { max: 1, min: 2 } }]'))).toEqual([
      'd.yaml:5: checks[0].notificationsPerRelease.min: 2 is above max 1 (no mean can pass; lower min or raise max)',
    ]);
    expect(drillErrors(drill('[singleLeader, fencedWrites]', '{ count: 3, recipe: predecessor }'))).toEqual([
      'd.yaml:5: checks[1].fencedWrites: judges the lock workload: it needs lock holders (add workload: lock to contenders)',
    ]);
  });

  it('runs them after the others, in a fixed order', () => {
    const names = runChecks(history(zombie, resourceLog(true)), {
      notificationsPerRelease: {},
      lockProgress: {},
      fencedWrites: {},
      mutualExclusion: {},
      singleLeader: {},
    }).map((r) => r.name);
    expect(names).toEqual([
      'singleLeader',
      'mutualExclusion',
      'fencedWrites',
      'lockProgress',
      'notificationsPerRelease',
    ]);
  });
});
