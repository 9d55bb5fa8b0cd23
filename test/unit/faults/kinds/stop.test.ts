import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { windowRuleOf } from '../../../../src/faults/kinds/registry.js';
import { stop } from '../../../../src/faults/kinds/stop.js';
import { labEvent } from '../../../helpers/events.js';

describe('the clean stop as a kind', () => {
  it('is a window of an instant for the contender it stopped', () => {
    const rule = windowRuleOf('contender-stopped')!;
    const ev = labEvent(1, 'contender-stopped', { contender: 'c2' });
    expect([rule.label(ev), rule.hits(ev), rule.endedBy]).toEqual(['stop c2', ['c2'], undefined]);
  });

  it('takes a bare target as its drill step, and acts on processes on every backend', () => {
    const step = stop.steps[0]!;
    expect(step.value(z).safeParse('c2').success).toBe(true);
    expect(step.names({ target: 'zk1' })).toEqual(['zk1']);
    expect(stop.backends.proxy).toBe(stop.backends.ns);
  });
});
