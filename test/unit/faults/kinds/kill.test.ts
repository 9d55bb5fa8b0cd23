import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { kill } from '../../../../src/faults/kinds/kill.js';
import { windowRuleOf } from '../../../../src/faults/kinds/registry.js';
import { labEvent } from '../../../helpers/events.js';

describe('the kill as a kind', () => {
  it('is a window of an instant for a contender, labelled with its signal', () => {
    const rule = windowRuleOf('contender-killed')!;
    const ev = labEvent(1, 'contender-killed', { contender: 'c1', pid: 9, signal: 'SIGKILL', scope: 'node' });
    expect(rule.label(ev)).toBe('kill c1 (SIGKILL)');
    expect(rule.hits(ev)).toEqual(['c1']);
    expect(rule.endedBy).toBeUndefined();
  });

  it("keeps a server's window open until the server is started again", () => {
    const rule = windowRuleOf('server-killed')!;
    const ev = labEvent(1, 'server-killed', { server: 'zk2', signal: 'SIGKILL' });
    expect(rule.hits(ev)).toEqual(['zk2']);
    expect(rule.endedBy?.(ev, labEvent(2, 'server-restarted', { servers: ['zk2'] }))).toBe(true);
    expect(rule.endedBy?.(ev, labEvent(2, 'ensemble-repaired', { servers: ['zk1', 'zk2'] }))).toBe(true);
    expect(rule.endedBy?.(ev, labEvent(2, 'server-restarted', { servers: ['zk3'] }))).toBe(false);
  });

  it('acts on processes: the same hooks on the link proxies and the node network', () => {
    expect(kill.backends.proxy).toBe(kill.backends.ns);
  });

  it('reads a signal in a drill step as KILL, TERM or INT, with or without SIG', () => {
    const { signal } = kill.steps[0]!.fields(z);
    expect(signal.parse('term')).toBe('SIGTERM');
    expect(signal.parse('SIGINT')).toBe('SIGINT');
    expect(signal.safeParse('HUP').error?.issues[0]?.message).toBe('"HUP" is not a signal (use KILL, TERM or INT)');
  });

  it('says how its step differs from a SIGKILL of the whole node', () => {
    const describe = kill.steps[0]!.describe;
    expect(describe({ target: 'c1', signal: 'SIGKILL', scope: 'node' })).toBe('kill c1');
    expect(describe({ target: 'leader', signal: 'SIGTERM', scope: 'process' })).toBe(
      'kill leader (SIGTERM, its program alone)',
    );
  });
});
