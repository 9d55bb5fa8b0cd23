import { describe, expect, it } from 'vitest';
import { electionsIn } from '../../../src/audit/discover.js';

const own = (member: string, znode: string) => ({ member, znode });

describe('electionsIn: where members keep their election, from the ephemeral znodes they own', () => {
  it("finds tooz's leader lock below its member list", () => {
    const owned = [
      own('c1', '/tooz/grp/c1'),
      own('c2', '/tooz/grp/c2'),
      own('c3', '/tooz/grp/c3'),
      own('c1', '/tooz/grp/leader/6b1c__lock__0000000000'),
      own('c2', '/tooz/grp/leader/9e0a__lock__0000000001'),
      own('c3', '/tooz/grp/leader/1f2d__lock__0000000002'),
    ];
    expect(electionsIn(owned)).toEqual([
      {
        path: '/tooz/grp/leader',
        rule: { kind: 'lowest-sequence' },
        why: 'sequential znodes of 3 members below /tooz/grp/leader',
      },
    ]);
  });

  it("finds tooz's leader lock when only its holder keeps a znode in it (the others try without waiting)", () => {
    const owned = [
      own('c1', '/tooz/service/c1'),
      own('c2', '/tooz/service/c2'),
      own('c3', '/tooz/service/c3'),
      own('c2', '/tooz/service/leader/5e2f__lock__0000000001'),
    ];
    expect(electionsIn(owned)).toEqual([
      {
        path: '/tooz/service/leader',
        rule: { kind: 'lowest-sequence' },
        why: '/tooz/service/leader/5e2f__lock__0000000001, a lock held by c2',
      },
    ]);
  });

  it("finds Patroni's leader key beside its members", () => {
    const owned = [
      own('c1', '/service/pg/members/pg1'),
      own('c2', '/service/pg/members/pg2'),
      own('c3', '/service/pg/members/pg3'),
      own('c1', '/service/pg/leader'),
    ];
    expect(electionsIn(owned)).toEqual([
      {
        path: '/service/pg',
        rule: { kind: 'single-node', name: 'leader' },
        why: '/service/pg/leader, owned by c1 alone',
      },
    ]);
  });

  it('finds nothing in a membership list alone, and every election when there are several', () => {
    expect(electionsIn([own('c1', '/m/c1'), own('c2', '/m/c2')])).toEqual([]);
    const two = electionsIn([
      own('c1', '/a/n_0000000001'),
      own('c2', '/a/n_0000000002'),
      own('c1', '/b/x_0000000007'),
      own('c2', '/b/x_0000000008'),
    ]);
    expect(two.map((e) => e.path)).toEqual(['/a', '/b']);
  });
});
