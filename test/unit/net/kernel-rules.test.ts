import { describe, expect, it } from 'vitest';
import { inputStatements } from './helpers.js';
import {
  hostRuleset,
  isEmptyRuleset,
  type KernelNet,
  nodeRuleset,
  removeHostRuleset,
} from '../../../src/net/kernel-rules.js';

/**
 * The node network's faults as nftables text. Each expectation is written out by hand from the rule "a cut acts where
 * a packet arrives": what a node must not receive, and (bridge table) what the lab's commands must not receive.
 */

const addrs = { zk1: '198.18.3.11', zk2: '198.18.3.12', c1: '198.18.3.32', c2: '198.18.3.33' };
const net = (over: Partial<KernelNet>): KernelNet => ({ table: 'zlabc', addrs, rules: [], losses: [], ...over });

const statements = inputStatements;

describe('kernel rules of the node network', () => {
  it('no fault: every table is made then removed in one script (idempotent), with no chain', () => {
    const script = nodeRuleset(net({}), 'c1');
    expect(script).toBe('table inet zlabc {}\ndelete table inet zlabc\n');
    expect(hostRuleset(net({}))).toBe('table bridge zlabc {}\ndelete table bridge zlabc\n');
    expect(removeHostRuleset('zlabc')).toBe('table bridge zlabc {}\ndelete table bridge zlabc\n');
    expect(isEmptyRuleset(script)).toBe(true);
    const cut = net({ rules: [{ type: 'isolate', member: 'c1', mode: 'blackhole' }] });
    expect(isEmptyRuleset(nodeRuleset(cut, 'c1'))).toBe(false);
  });

  it('isolate c1: c1 receives nothing from its link, the others nothing from c1, the host nothing from c1', () => {
    const n = net({ rules: [{ type: 'isolate', member: 'c1', mode: 'blackhole' }] });
    expect(statements(nodeRuleset(n, 'c1'))).toEqual(['iifname "eth0" drop']);
    for (const other of ['zk1', 'zk2', 'c2'])
      expect(statements(nodeRuleset(n, other))).toEqual(['ip saddr 198.18.3.32 drop']);
    expect(statements(hostRuleset(n))).toEqual(['ip saddr 198.18.3.32 drop']);
  });

  it('reject mode lets the peer hear the refusal: resets and unreachables from the cut node pass, the rest is rejected', () => {
    const n = net({ rules: [{ type: 'isolate', member: 'c1', mode: 'reject' }] });
    expect(statements(nodeRuleset(n, 'c2'))).toEqual([
      'ip saddr 198.18.3.32 tcp flags & rst == rst accept',
      'ip saddr 198.18.3.32 icmp type destination-unreachable accept',
      'ip saddr 198.18.3.32 meta l4proto tcp reject with tcp reset',
      'ip saddr 198.18.3.32 reject',
    ]);
    // The bridge family has no reject here: the host's table drops.
    expect(statements(hostRuleset(n))).toEqual(['ip saddr 198.18.3.32 drop']);
  });

  it('one-way c1 → c2 is a rule in c2 alone; c1 and the host receive everything', () => {
    const n = net({ rules: [{ type: 'one-way', from: 'c1', to: 'c2', mode: 'blackhole' }] });
    expect(statements(nodeRuleset(n, 'c2'))).toEqual(['ip saddr 198.18.3.32 drop']);
    expect(statements(nodeRuleset(n, 'c1'))).toEqual([]);
    expect(statements(hostRuleset(n))).toEqual([]);
  });

  it('split: members not named form a group of their own, and each group receives nothing from the others', () => {
    const n = net({ rules: [{ type: 'split', groups: [['zk1'], ['zk2', 'c1']], mode: 'blackhole' }] });
    expect(statements(nodeRuleset(n, 'zk1'))).toEqual(['ip saddr { 198.18.3.12, 198.18.3.32, 198.18.3.33 } drop']);
    expect(statements(nodeRuleset(n, 'c1'))).toEqual(['ip saddr { 198.18.3.11, 198.18.3.33 } drop']);
    expect(statements(nodeRuleset(n, 'c2'))).toEqual(['ip saddr { 198.18.3.11, 198.18.3.12, 198.18.3.32 } drop']);
    // The lab's commands are in no group: a split never cuts them off.
    expect(statements(hostRuleset(n))).toEqual([]);
  });

  it('loss drops that share at random both ways, and the host sees it too; a share above 100 is 100', () => {
    const n = net({ losses: [{ member: 'c1', percent: 30 }] });
    expect(statements(nodeRuleset(n, 'c1'))).toEqual(['iifname "eth0" numgen random mod 100 < 30 drop']);
    expect(statements(nodeRuleset(n, 'c2'))).toEqual(['ip saddr 198.18.3.32 numgen random mod 100 < 30 drop']);
    expect(statements(hostRuleset(n))).toEqual(['ip saddr 198.18.3.32 numgen random mod 100 < 30 drop']);
    expect(statements(nodeRuleset(net({ losses: [{ member: 'c1', percent: 150 }] }), 'c1'))).toEqual([
      'iifname "eth0" numgen random mod 100 < 100 drop',
    ]);
    expect(statements(nodeRuleset(net({ losses: [{ member: 'c1', percent: 0 }] }), 'c1'))).toEqual([]);
  });

  it('a member without an address (a contender on another net, one that ended) makes no rule', () => {
    const n = net({ rules: [{ type: 'isolate', member: 'c9', mode: 'blackhole' }] });
    expect(statements(nodeRuleset(n, 'c1'))).toEqual([]);
    expect(statements(nodeRuleset(n, 'c9'))).toEqual([]);
  });
});
