import { describe, expect, it } from 'vitest';
import { clock } from '../../../../../src/faults/kinds/clock/clock.js';
import { DrillFileError, parseDrill } from '../../../../../src/drills/format/schema.js';
import { labEvent } from '../../../../helpers/events.js';

const line = (t: number, node: string, change: { offsetMs?: number; rate?: number; reset?: boolean }) => ({
  t,
  source: 'lab' as const,
  event: 'clock' as const,
  description: `${node}'s clock`,
  target: node,
  node,
  ...change,
});

/** The problems of a drill with `step` alone, or the step it read. */
function read(step: string): unknown {
  try {
    return parseDrill(`name: t\ncontenders: { count: 3 }\nsteps:\n  - ${step}\n`, 'd.yaml').steps[0];
  } catch (e) {
    if (e instanceof DrillFileError) return e.message;
    throw e;
  }
}

describe('clock faults as a kind', () => {
  const rule = clock.windows[0]!;

  it('opens a window at a skew or a drift, not at a reset, hitting its node', () => {
    expect(rule.opens?.(line(1, 'zk1', { offsetMs: 30_000 }))).toBe(true);
    expect(rule.opens?.(line(1, 'c1', { rate: 2 }))).toBe(true);
    expect(rule.opens?.(line(1, 'c1', { reset: true }))).toBe(false);
    expect(rule.hits(line(1, 'zk1', { offsetMs: 1 }))).toEqual(['zk1']);
    expect(rule.colour).toBe('#e377c2');
  });

  it("ends at the next change of the same node's clock, its restart, or its contender's end", () => {
    const ev = line(1, 'zk1', { offsetMs: 30_000 });
    expect(rule.endedBy?.(ev, line(2, 'zk1', { reset: true }))).toBe(true);
    expect(rule.endedBy?.(ev, line(2, 'zk1', { rate: 2 }))).toBe(true);
    expect(rule.endedBy?.(ev, line(2, 'zk2', { reset: true }))).toBe(false);
    expect(rule.endedBy?.(ev, labEvent(2, 'server-restarted', { servers: ['zk1'] }))).toBe(true);
    const c2 = line(1, 'c2', { rate: 2 });
    expect(rule.endedBy?.(c2, labEvent(2, 'contender-stopped', { contender: 'c2' }))).toBe(true);
    expect(rule.endedBy?.(c2, labEvent(2, 'contender-stopped', { contender: 'c3' }))).toBe(false);
  });

  it('acts on processes: the same hooks on both networks', () => {
    expect(clock.backends.proxy).toBe(clock.backends.ns);
  });

  it('reads its drill steps, and says what to write when one is wrong', () => {
    expect(read('clock: { target: leader, offset: -30s }')).toMatchObject({
      kind: 'clock',
      target: 'leader',
      change: { kind: 'skew', offsetMs: -30_000 },
    });
    expect(read('clock: { target: zk1, rate: 2 }')).toMatchObject({ change: { kind: 'drift', rate: 2 } });
    expect(read('clock: { reset: all }')).toMatchObject({ target: 'all', change: { kind: 'reset' } });
    expect(read('clock: { target: zk1 }')).toMatch(/give one of offset, rate or reset/);
    expect(read('clock: { target: zk1, offset: 1s, rate: 2 }')).toMatch(/give one of offset, rate or reset/);
    expect(read('clock: { offset: 1s }')).toMatch(/target: name the node whose clock changes/);
    expect(read('clock: { target: zk1, reset: zk1 }')).toMatch(/a reset names its node itself/);
    expect(read('clock: { target: zk1, offset: soon }')).toMatch(/offset: "soon" is not an offset \(write/);
    expect(read('clock: { target: zk1, rate: 0 }')).toMatch(/rate: 0 would stop the clock/);
    expect(read('clock: { target: zk9, rate: 2 }')).toMatch(/zk9 does not exist/);
  });
});
