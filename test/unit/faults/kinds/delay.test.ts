import { describe, expect, it } from 'vitest';
import { delay } from '../../../../src/faults/kinds/delay.js';
import { lossesOf, withoutLosses } from '../../../../src/faults/kinds/loss.js';
import { kindLinkText, windowRuleOf } from '../../../../src/faults/kinds/registry.js';
import type { LabNetState } from '../../../../src/lab/state.js';
import { labEvent } from '../../../helpers/events.js';

describe('the delay as a kind', () => {
  const line = labEvent(1, 'delay', { description: 'delay c1 300ms', target: 'c1', ms: 300, jitter: 0 });

  it('lasts until its delays are cleared, not when partitions are healed', () => {
    const rule = windowRuleOf('delay')!;
    expect([rule.label(line), rule.hits(line)]).toEqual(['delay c1 300ms', ['c1']]);
    const heal = (kind: 'partition' | 'delay', target?: string) =>
      labEvent(2, 'heal', { kind, description: `x ${target ?? 'all'}`, ...(target ? { target } : {}) });
    expect(rule.endedBy?.(line, heal('delay', 'c1'))).toBe(true);
    expect(rule.endedBy?.(line, heal('delay'))).toBe(true);
    expect(rule.endedBy?.(line, heal('delay', 'c2'))).toBe(false);
    expect(rule.endedBy?.(line, heal('partition', 'c1'))).toBe(false);
  });

  it("shows on inspect's links in its own words", () => {
    expect(kindLinkText({ from: 'c1', to: 'zk1', fault: 'delay', delayMs: 300 })).toBe('delay 300ms');
  });

  it('is applied on the link proxies and the node network alike, and says how to lift it', () => {
    expect(delay.backends.proxy).toBe(delay.backends.ns);
    expect(delay.liftDescription).toMatch(/every delay and loss/);
  });

  it("clears a member's loss with its delay, or every one", () => {
    const net: LabNetState = {
      rules: [],
      delays: [],
      contenderPorts: {},
      losses: [
        { member: 'c1', percent: 10 },
        { member: 'c2', percent: 20 },
      ],
    };
    expect(lossesOf(net, 'c1')).toEqual(['loss c1 10%']);
    expect(lossesOf(net)).toEqual(['loss c1 10%', 'loss c2 20%']);
    expect(withoutLosses(net, 'c1').losses).toEqual([{ member: 'c2', percent: 20 }]);
    expect(withoutLosses(net).losses).toEqual([]);
  });
});
