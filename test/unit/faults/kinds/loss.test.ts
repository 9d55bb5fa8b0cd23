import { describe, expect, it } from 'vitest';
import { loss } from '../../../../src/faults/kinds/loss.js';
import { kindLinks, kindLinkText } from '../../../../src/faults/kinds/registry.js';
import { emptyState, type LabState } from '../../../../src/lab/state.js';
import { labEvent } from '../../../helpers/events.js';

const line = (t: number, target: string, percent: number) => ({
  t,
  source: 'lab' as const,
  event: 'loss' as const,
  description: `loss ${target} ${percent}%`,
  target,
  percent,
});

describe('packet loss as a kind', () => {
  const rule = loss.windows[0]!;

  it('opens a window for a share above 0, hitting its member', () => {
    expect(rule.opens?.(line(1, 'c1', 30))).toBe(true);
    expect(rule.opens?.(line(1, 'c1', 0))).toBe(false);
    expect(rule.hits(line(1, 'c1', 30))).toEqual(['c1']);
    expect(rule.label(line(1, 'c1', 30))).toBe('loss c1 30%');
  });

  it("ends at another loss of the same member, or at a clearing of its delays (net clear), not at a partition's heal", () => {
    const ev = line(1, 'c1', 30);
    expect(rule.endedBy?.(ev, line(2, 'c1', 0))).toBe(true);
    expect(rule.endedBy?.(ev, line(2, 'c2', 0))).toBe(false);
    expect(
      rule.endedBy?.(ev, labEvent(2, 'heal', { kind: 'delay', description: 'clear delay c1', target: 'c1' })),
    ).toBe(true);
    expect(rule.endedBy?.(ev, labEvent(2, 'heal', { kind: 'delay', description: 'clear delay all' }))).toBe(true);
    expect(rule.endedBy?.(ev, labEvent(2, 'heal', { kind: 'partition', description: 'heal c1', target: 'c1' }))).toBe(
      false,
    );
  });

  it("shows on inspect's links as the lab's state holds it", () => {
    const state: LabState = {
      ...emptyState(),
      net: { rules: [], delays: [], contenderPorts: {}, losses: [{ member: 'c1', percent: 10 }] },
    };
    const links = kindLinks(state);
    expect(links).toEqual([{ from: 'c1', to: 'all', fault: 'loss', lossPercent: 10 }]);
    expect(kindLinkText(links[0]!)).toBe('loss 10%');
  });

  it('has no hooks on the link proxies: they carry whole connections', () => {
    expect(loss.backends).not.toHaveProperty('proxy');
    expect(loss.backends.ns).toBeDefined();
  });
});
