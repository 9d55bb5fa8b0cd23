import { describe, expect, it } from 'vitest';
import { joiningSpec, membershipKey, parseDynamicConfig } from '../../../src/ensemble/dynamic-config.js';
import {
  chooseServerId,
  faultRefusal,
  reconfigRefusal,
  removalRefusal,
} from '../../../src/ensemble/membership-rules.js';
import { validateObservers } from '../../../src/ensemble/config.js';
import { planServerPorts } from '../../../src/lab/ports.js';
import { emptyState, type LabState, type ServerRecord } from '../../../src/lab/state.js';
import { UsageError } from '../../../src/errors.js';

const BASE = 20_000;
function servers(ids: number[], observers: number[] = []): ServerRecord[] {
  return ids.map((id) => ({
    ...planServerPorts(BASE, id)[id - 1]!,
    name: `zk${id}`,
    ...(observers.includes(id) ? { role: 'observer' as const } : {}),
  }));
}
const lab = (ids: number[]): LabState => ({ ...emptyState(), basePort: BASE, servers: servers(ids) });

describe('the dynamic configuration as the servers print it', () => {
  it('parses members with roles and client addresses, and the version', () => {
    const c = parseDynamicConfig(
      'server.2=zk2:20011:20021:participant;127.0.0.1:20001\nserver.1=zk1:20010:20020;127.0.0.1:20000\nserver.4=zk4:20013:20023:observer;127.0.0.1:20003\nversion=10000002f\n',
    );
    expect(c.version).toBe('10000002f');
    expect(c.members.map((m) => [m.id, m.host, m.role, m.client])).toEqual([
      [1, 'zk1', 'participant', '127.0.0.1:20000'],
      [2, 'zk2', 'participant', '127.0.0.1:20001'],
      [4, 'zk4', 'observer', '127.0.0.1:20003'],
    ]);
    expect(membershipKey(c)).toBe('1:participant,2:participant,4:observer');
  });

  it('joins a lab server by name and role with its client address (ZooKeeper wants all three ports of a joiner)', () => {
    expect(joiningSpec(servers([4], [4])[0]!)).toBe('server.4=zk4:20013:20023:observer;127.0.0.1:20003');
    expect(joiningSpec(servers([5])[0]!)).toBe('server.5=zk5:20014:20024:participant;127.0.0.1:20004');
  });
});

describe('membership changes the lab refuses', () => {
  it('gives a new server the lowest free id, or checks the one asked for', () => {
    expect(chooseServerId(lab([1, 2, 3]), undefined)).toBe(4);
    expect(chooseServerId(lab([1, 3, 4]), undefined)).toBe(2);
    expect(chooseServerId(lab([1, 2, 3]), '7')).toBe(7);
    expect(() => chooseServerId(lab([1, 2, 3]), '255')).toThrow(
      /server id 255 is beyond ZooKeeper's limit of 254 with TTL nodes/,
    );
    expect(() => chooseServerId(lab([1, 2, 3]), '10')).toThrow(/beyond the 9 servers a lab plans ports for/);
    expect(() => chooseServerId(lab([1, 2, 3]), '2')).toThrow(/zk2 is already a member/);
    expect(() => chooseServerId(lab([1, 2, 3, 4, 5, 6, 7, 8, 9]), undefined)).toThrow(/already runs 9 servers/);
    expect(() => chooseServerId(lab([1]), 'two')).toThrow(UsageError);
    // One range, in the message and its hint alike.
    for (const bad of ['0', '-1', 'two', '2.5']) {
      const e = (() => {
        try {
          chooseServerId(lab([1]), bad);
        } catch (err) {
          return err as UsageError;
        }
      })();
      expect(e?.message).toBe(`--id must be a whole number from 1 to 9, got ${JSON.stringify(bad)}`);
      expect(e?.hint).toBe('choose an id from 1 to 9');
    }
  });

  it('never removes down to one voter, nor to voters without a live majority; observers go freely', () => {
    const three = servers([1, 2, 3]);
    const all = new Set(['zk1', 'zk2', 'zk3']);
    expect(removalRefusal(three, three[0]!, all)).toBeNull();
    expect(removalRefusal(servers([1, 2]), servers([1, 2])[0]!, new Set(['zk1', 'zk2']))).toMatch(
      /would leave 1 voting server/,
    );
    expect(removalRefusal(three, three[1]!, new Set(['zk1', 'zk2']))).toMatch(
      /removing zk2 would leave the voters zk1, zk3 without a live majority \(zk3 is down\)/,
    );
    // 5 voters, zk1 down: removing zk5 leaves 3 of 4 alive, a majority.
    const five = servers([1, 2, 3, 4, 5]);
    expect(removalRefusal(five, five[4]!, new Set(['zk2', 'zk3', 'zk4', 'zk5']))).toBeNull();
    const withObserver = servers([1, 2, 4], [4]);
    expect(removalRefusal(withObserver, withObserver[2]!, new Set(['zk1', 'zk2']))).toBeNull();
    // An observer leaves the voters as they are, but they must still be able to commit its removal.
    expect(removalRefusal(withObserver, withObserver[2]!, new Set(['zk1', 'zk4']))).toMatch(
      /removing zk4 would leave the voters zk1, zk2 without a live majority \(zk2 is down\)/,
    );
  });

  it('keeps a server that a partition, delay or loss names, and names the command that lifts each', () => {
    const state = lab([1, 2, 3]);
    expect(faultRefusal(state, 'zk3')).toBeNull();
    state.net = {
      rules: [{ type: 'split', groups: [['zk3', 'c1']], mode: 'blackhole' }],
      delays: [],
      contenderPorts: {},
    };
    expect(faultRefusal(state, 'zk3')).toEqual({
      message: "zk3 is named by a fault of the lab's network: split zk3,c1 (blackhole)",
      hint: 'lift it first: `zklab heal zk3`',
    });
    state.net = { rules: [], delays: [{ member: 'zk3', delayMs: 50, jitterMs: 0 }], contenderPorts: {} };
    expect(faultRefusal(state, 'zk3')).toEqual({
      message: "zk3 is named by a fault of the lab's network: delay zk3 50ms",
      hint: 'lift it first: `zklab net clear zk3`',
    });
    expect(faultRefusal(state, 'zk2')).toBeNull();
    state.net = {
      rules: [{ type: 'isolate', member: 'zk2', mode: 'blackhole' }],
      delays: [],
      losses: [{ member: 'zk2', percent: 20 }],
      contenderPorts: {},
    };
    expect(faultRefusal(state, 'zk2')).toEqual({
      message: "zk2 is named by faults of the lab's network: isolate zk2 (blackhole); loss zk2 20%",
      hint: 'lift them first: `zklab heal zk2`, then `zklab net clear zk2`',
    });
  });

  it('refuses reconfiguration on a ZooKeeper older than 3.5', () => {
    expect(reconfigRefusal('3.4.14')).toMatch(
      /ZooKeeper 3.4.14 has no dynamic reconfiguration \(it arrived in 3.5.0\)/,
    );
    expect(reconfigRefusal('3.5.4')).toBeNull();
    expect(reconfigRefusal('3.8.0')).toBeNull();
    expect(reconfigRefusal(undefined)).toBeNull();
  });

  it('wants at least two voters beside observers, and at most nine servers in all', () => {
    expect(validateObservers('2', 3)).toBe(2);
    expect(validateObservers('0', 1)).toBe(0);
    expect(() => validateObservers('1', 1)).toThrow(/--observers 1 needs at least 2 voting servers, not 1/);
    expect(() => validateObservers('7', 3)).toThrow(/3 servers and 7 observers make 10; a lab runs at most 9/);
    expect(() => validateObservers('x', 3)).toThrow(UsageError);
    expect(validateObservers('7', undefined)).toBe(7);
  });
});
