import { describe, expect, it } from 'vitest';
import { describeStep } from '../../../src/drills/steps/registry.js';
import { describeExpectation } from '../../../src/drills/steps/expectations/registry.js';
import { parseDrill } from '../../../src/drills/format/schema.js';
import type { Expectation } from '../../../src/drills/steps/expectations/registry.js';
import { evaluateExpectation } from '../../../src/drills/steps/expectations/registry.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import type { ContenderEvent, LabEvent } from '../../../src/lab/events.js';
import { drillErrors } from './drill-errors.js';
import { ev, lab } from './fixtures.js';

const joined = (t: number, id: string) => ev(t, id, 'joined', { znode: `/lock/${id}-${t}` });
const acquired = (t: number, id: string, token: number) => ev(t, id, 'lock-acquired', { token, waitedMs: 0 });
const released = (t: number, id: string, token: number) =>
  ev(t, id, 'lock-released', { token, heldMs: 200, reason: 'done' });
const killed = (t: number, contender: string) => lab(t, 'contender-killed', { contender, pid: 1, signal: 'SIGKILL' });

const STEP = 1000;
const WITHIN: Expectation = { kind: 'everyoneAcquiresWithin', ms: 2000 };

/** c1, c2, c3 join at 0; the expect step starts at 1s; they take turns: c1 at 1.1s, c2 at 1.4s, c3 at 2.5s. */
const turns: ContenderEvent[] = [
  joined(0, 'c1'),
  joined(0, 'c2'),
  joined(0, 'c3'),
  acquired(100, 'c1', 1),
  released(300, 'c1', 1),
  acquired(1100, 'c1', 4),
  released(1300, 'c1', 4),
  acquired(1400, 'c2', 5),
  released(1600, 'c2', 5),
  acquired(2500, 'c3', 6),
  released(2700, 'c3', 6),
];

/** The verdict at `now`, on the history recorded up to then. */
function judge(
  now: number,
  events: readonly ContenderEvent[] = turns,
  labEvents: readonly LabEvent[] = [],
  e: Expectation = WITHIN,
  stepStart = STEP,
) {
  const history = buildHistory(
    events.filter((x) => x.t <= now),
    labEvents.filter((x) => x.t <= now),
    { start: 0, end: now },
  );
  return evaluateExpectation(e, { history, stepStart, now });
}

describe('everyoneAcquiresWithin', () => {
  it('passes once every live contender got the lock after the step started', () => {
    expect(judge(2600)).toEqual({ status: 'passed', detail: 'c1, c2, c3 held the lock' });
    // Decided at once: no need to wait for the deadline.
    expect(judge(2500)).toEqual({ status: 'passed', detail: 'c1, c2, c3 held the lock' });
  });

  it('is pending before the deadline, naming who it waits for', () => {
    expect(judge(1200)).toEqual({ status: 'pending', detail: 'waiting for c2, c3' });
    expect(judge(2000)).toEqual({ status: 'pending', detail: 'waiting for c3' });
    // Just before the deadline (1s + 2s) still pending.
    expect(
      judge(
        2999,
        turns.filter((e) => e.id !== 'c3' || e.event === 'joined'),
      ),
    ).toEqual({ status: 'pending', detail: 'waiting for c3' });
  });

  it('fails after the deadline, naming who is missing', () => {
    const c3Late = [...turns.filter((e) => e.id !== 'c3' || e.event === 'joined'), acquired(3200, 'c3', 6)];
    expect(judge(3000, c3Late)).toEqual({ status: 'failed', detail: 'c3 did not get the lock within 2s' });
    // An acquisition after the deadline does not count.
    expect(judge(3300, c3Late)).toEqual({ status: 'failed', detail: 'c3 did not get the lock within 2s' });
    const nobody = turns.filter((e) => e.event === 'joined');
    expect(judge(3500, nobody)).toEqual({ status: 'failed', detail: 'c1, c2, c3 did not get the lock within 2s' });
  });

  it('counts only acquisitions from the step start on: a hold before the step does not count', () => {
    // c1 held only before the step (at 0.1s).
    const before = turns.filter((e) => !(e.id === 'c1' && e.t >= 1000));
    expect(judge(2600, before)).toEqual({ status: 'pending', detail: 'waiting for c1' });
    expect(judge(3000, before)).toEqual({ status: 'failed', detail: 'c1 did not get the lock within 2s' });
    // An acquisition exactly at the step start and exactly at the deadline both count.
    const edges = [joined(0, 'c1'), joined(0, 'c2'), acquired(1000, 'c1', 1), acquired(3000, 'c2', 2)];
    expect(judge(3000, edges)).toEqual({ status: 'passed', detail: 'c1, c2 held the lock' });
  });

  it('measures the window from the step start', () => {
    expect(judge(2600, turns, [], WITHIN, 400)).toEqual({
      status: 'failed',
      detail: 'c3 did not get the lock within 2s',
    });
    expect(judge(2600, turns, [], { kind: 'everyoneAcquiresWithin', ms: 1500 }, 1000)).toEqual({
      status: 'passed',
      detail: 'c1, c2, c3 held the lock',
    });
  });

  it('does not wait for a contender that was killed', () => {
    const c3Dead = turns.filter((e) => e.id !== 'c3' || e.event === 'joined');
    expect(judge(2000, c3Dead, [killed(1500, 'c3')])).toEqual({ status: 'passed', detail: 'c1, c2 held the lock' });
    // Killed before the step began: likewise.
    expect(judge(1300, c3Dead, [killed(500, 'c3')])).toEqual({ status: 'pending', detail: 'waiting for c2' });
    // Alive it would have been waited for.
    expect(judge(2000, c3Dead)).toEqual({ status: 'pending', detail: 'waiting for c3' });
  });

  it('counts a contender that got the lock and died afterwards among the holders', () => {
    expect(judge(2600, turns, [killed(2000, 'c2')])).toEqual({ status: 'passed', detail: 'c1, c2, c3 held the lock' });
  });

  it('a contender stopped by the lab is not waited for either', () => {
    const c3Gone = turns.filter((e) => e.id !== 'c3' || e.event === 'joined');
    expect(judge(2000, c3Gone, [lab(1500, 'contender-stopped', { contender: 'c3' })])).toEqual({
      status: 'passed',
      detail: 'c1, c2 held the lock',
    });
  });

  it('fails when nobody is alive to get the lock', () => {
    const joins = turns.filter((e) => e.event === 'joined');
    const all = [killed(900, 'c1'), killed(900, 'c2'), killed(900, 'c3')];
    expect(judge(1100, joins, all)).toEqual({ status: 'failed', detail: 'no contender is alive to hold the lock' });
    expect(judge(1100, [], [])).toEqual({ status: 'failed', detail: 'no contender is alive to hold the lock' });
  });

  it('reads holds from lock-acquired only, not leadership claims', () => {
    const claims = [joined(0, 'c1'), ev(1100, 'c1', 'leader', { token: 1 })];
    expect(judge(1200, claims)).toEqual({ status: 'pending', detail: 'waiting for c1' });
  });
});

describe('everyoneAcquiresWithin in a drill file', () => {
  const drill = (expect: string) => `name: t
contenders: { count: 3, workload: lock }
steps:
  - wait: { joined: 3, timeout: 10s }
  - expect: ${expect}
checks: [mutualExclusion]
`;

  it('reads the duration, and describes the step', () => {
    const d = parseDrill(drill('{ everyoneAcquiresWithin: 10s }'), 'd.yaml');
    expect(d.steps[1]).toEqual({
      kind: 'expect',
      line: 5,
      expectations: [{ kind: 'everyoneAcquiresWithin', ms: 10_000 }],
    });
    expect(describeStep(d.steps[1]!)).toBe('expect every live contender holds the lock within 10s');
    expect(describeExpectation({ kind: 'everyoneAcquiresWithin', ms: 1500 })).toBe(
      'every live contender holds the lock within 1.5s',
    );
  });

  it('reads it beside other expectations, and milliseconds as a number', () => {
    const d = parseDrill(drill('{ everyoneAcquiresWithin: 750, noLeaderChange: 1s }'), 'd.yaml');
    expect(d.steps[1]).toEqual({
      kind: 'expect',
      line: 5,
      // In the schema's order of fields, whatever the file's.
      expectations: [
        { kind: 'noLeaderChange', ms: 1000 },
        { kind: 'everyoneAcquiresWithin', ms: 750 },
      ],
    });
    expect(describeStep(d.steps[1]!)).toBe(
      'expect no leader change for 1s; every live contender holds the lock within 750ms',
    );
  });

  it('refuses what is not a duration', () => {
    expect(drillErrors(drill('{ everyoneAcquiresWithin: soon }'))).toEqual([
      'd.yaml:5: steps[1].expect.everyoneAcquiresWithin: "soon" is not a duration (write a duration such as 500ms, 3s or a number of milliseconds)',
    ]);
    expect(drillErrors(drill('{ everyoneAcquiresWithin: -1 }'))).toEqual([
      'd.yaml:5: steps[1].expect.everyoneAcquiresWithin: -1 is negative (write a duration such as 500ms, 3s or a number of milliseconds)',
    ]);
  });

  it('names everyoneAcquiresWithin among the expectations of an empty expect', () => {
    expect(drillErrors(drill('{}'))).toEqual([
      'd.yaml:5: steps[1].expect: expects nothing (add newLeaderWithin, noLeaderChange, leaderIs, leaderIsNot, notificationsPerDeath, state, allJobsDoneWithin or everyoneAcquiresWithin)',
    ]);
  });

  it('is refused for contenders that hold no lock', () => {
    const election = `name: t
contenders: { count: 3, recipe: predecessor }
steps:
  - wait: { joined: 3, timeout: 10s }
  - expect: { everyoneAcquiresWithin: 5s }
`;
    expect(drillErrors(election)).toEqual([
      'd.yaml:5: steps[1].expect.everyoneAcquiresWithin: needs lock holders (add workload: lock to contenders)',
    ]);
  });
});
