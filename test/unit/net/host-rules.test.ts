import { describe, expect, it } from 'vitest';
import { inputStatements } from './helpers.js';
import { type HostNet, hostNodesRuleset, refuseAmbiguous } from '../../../src/net/host-rules.js';

/**
 * Faults on hosts as nftables text, written out by hand from the rule "a cut acts where a packet arrives", a packet
 * told to be a node's by address and port: zk1 on h1 (client 2181, peers 2888/3888), zk2 on h2 (2182, 2889/3889),
 * c1 on h1 beside zk1, c2 on h2 beside zk2.
 */
const H1 = '198.18.0.11';
const H2 = '198.18.0.12';
const endpoints = [
  { name: 'zk1', host: 'h1', addr: H1, server: { client: 2181, peer: [2888, 3888] } },
  { name: 'zk2', host: 'h2', addr: H2, server: { client: 2182, peer: [2889, 3889] } },
  { name: 'c1', host: 'h1', addr: H1 },
  { name: 'c2', host: 'h2', addr: H2 },
];
const net = (over: Partial<HostNet>): HostNet => ({
  table: 'zlabc',
  endpoints,
  rules: [],
  losses: [],
  keep: ['tcp dport 22 accept'],
  ...over,
});

const statements = inputStatements;

describe('fault rules on hosts', () => {
  it('no fault: the table is made and removed, with no chain', () => {
    expect(hostNodesRuleset(net({}), 'h1')).toBe('table inet zlabc {}\ndelete table inet zlabc\n');
  });

  it('isolate a contender: its requests dropped at every server, the answers to it at its host; its server untouched', () => {
    const n = net({ rules: [{ type: 'isolate', member: 'c1', mode: 'blackhole' }] });
    expect(statements(hostNodesRuleset(n, 'h1'))).toEqual([
      'tcp dport 22 accept',
      // zk1 beside it receives nothing from c1 (loopback, from h1's address to zk1's client port)...
      `ip saddr ${H1} tcp dport 2181 drop`,
      // ...and c1 receives no server's answer.
      'tcp sport { 2181, 2182 } drop',
    ]);
    expect(statements(hostNodesRuleset(n, 'h2'))).toEqual([
      'tcp dport 22 accept',
      `ip saddr ${H1} tcp dport 2182 drop`,
    ]);
  });

  it("isolate a server: nothing reaches its ports nor answers its peers; its host's contender keeps its other servers", () => {
    const n = net({ rules: [{ type: 'isolate', member: 'zk1', mode: 'blackhole' }] });
    expect(statements(hostNodesRuleset(n, 'h1'))).toEqual([
      'tcp dport 22 accept',
      'tcp dport { 2181, 2888, 3888 } drop',
      'tcp sport { 2889, 3889 } drop',
      // c1 hears nothing from zk1 (its answers over loopback).
      `ip saddr ${H1} tcp sport 2181 drop`,
    ]);
    expect(statements(hostNodesRuleset(n, 'h2'))).toEqual([
      'tcp dport 22 accept',
      `ip saddr ${H1} tcp dport { 2889, 3889 } drop`,
      `ip saddr ${H1} tcp sport { 2888, 3888 } drop`,
      `ip saddr ${H1} tcp sport 2181 drop`,
    ]);
  });

  it('split {zk1, c1} | {zk2, c2}: each side drops the other side by port; contenders never talk to each other', () => {
    const n = net({ rules: [{ type: 'split', groups: [['zk1', 'c1']], mode: 'blackhole' }] });
    expect(statements(hostNodesRuleset(n, 'h1'))).toEqual([
      'tcp dport 22 accept',
      `ip saddr ${H2} tcp dport { 2888, 3888 } drop`,
      `ip saddr ${H2} tcp sport { 2889, 3889 } drop`,
      `ip saddr ${H2} tcp dport 2181 drop`,
      `ip saddr ${H2} tcp sport 2182 drop`,
    ]);
  });

  it('reject answers with resets, and lets the peer see them; loss drops a share at random', () => {
    const n = net({ rules: [{ type: 'one-way', from: 'c2', to: 'zk1', mode: 'reject' }] });
    expect(statements(hostNodesRuleset(n, 'h1'))).toEqual([
      'tcp dport 22 accept',
      `ip saddr ${H2} tcp dport 2181 tcp flags & rst == rst accept`,
      `ip saddr ${H2} tcp dport 2181 icmp type destination-unreachable accept`,
      `ip saddr ${H2} tcp dport 2181 meta l4proto tcp reject with tcp reset`,
      `ip saddr ${H2} tcp dport 2181 reject`,
    ]);
    expect(statements(hostNodesRuleset(n, 'h2'))).toEqual([]);
    const lossy = net({ losses: [{ member: 'c2', percent: 30 }] });
    expect(statements(hostNodesRuleset(lossy, 'h2'))).toContain(
      'tcp sport { 2181, 2182 } numgen random mod 100 < 30 drop',
    );
  });

  it('two contenders on one host: a fault that treats them apart is refused, one that treats them alike is not', () => {
    const crowded = [...endpoints, { name: 'c3', host: 'h1', addr: H1 }];
    expect(() =>
      refuseAmbiguous({
        endpoints: crowded,
        rules: [{ type: 'isolate', member: 'c1', mode: 'blackhole' }],
        losses: [],
      }),
    ).toThrow(/c1 and c3 share the host h1/);
    expect(() =>
      refuseAmbiguous({
        endpoints: crowded,
        rules: [{ type: 'isolate', member: 'zk1', mode: 'blackhole' }],
        losses: [],
      }),
    ).not.toThrow();
    expect(() =>
      refuseAmbiguous({
        endpoints: crowded,
        rules: [{ type: 'split', groups: [['zk1', 'c1', 'c3']], mode: 'blackhole' }],
        losses: [],
      }),
    ).not.toThrow();
  });
});
