import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import {
  checkTarget,
  checkTargetName,
  contenderIds,
  isMember,
  parseGroup,
  resolveTarget,
  serverIds,
  targetKind,
  targetsHint,
} from '../../../src/faults/targets.js';
import { LabPaths } from '../../../src/lab/paths.js';
import type { ContenderRecord, LabState } from '../../../src/lab/state.js';

/**
 * The pure half of fault targets: names, scopes and their messages, against hand-made lab states. `leader` and
 * `zk-leader` resolve by asking a live ensemble: the integration tests cover those.
 */

const contender = (id: string, extra: Partial<ContenderRecord> = {}): ContenderRecord => ({
  id,
  recipe: 'predecessor',
  path: '/election',
  sessionTimeoutMs: 2000,
  startedAt: 1_700_000_000_000,
  ...extra,
});

/** Three servers (the third an observer), two contenders (the second stopped: still a member of the lab). */
const LAB: LabState = {
  version: 1,
  createdAt: '2024-01-01T00:00:00.000Z',
  tickMs: 200,
  basePort: 21_000,
  zkHome: '/opt/zookeeper',
  servers: [
    { id: 1, name: 'zk1', clientPort: 21_001, quorumPort: 21_002, electionPort: 21_003, pid: 101 },
    { id: 2, name: 'zk2', clientPort: 21_011, quorumPort: 21_012, electionPort: 21_013, pid: 102 },
    { id: 3, name: 'zk3', clientPort: 21_021, quorumPort: 21_022, electionPort: 21_023, role: 'observer', pid: 103 },
  ],
  contenders: [contender('c1', { pid: 201 }), contender('c2', { stoppedAt: 1_700_000_001_000 })],
  nextContender: 3,
};

/** Contenders pointed at an ensemble zklab did not start: its servers are x1, x2, not members a fault can hit. */
const OUTSIDE: LabState = {
  ...LAB,
  servers: [],
  contenders: [contender('c1', { pid: 201 })],
  nextContender: 2,
  externalConnect: '10.0.0.5:2181,10.0.0.6:2181',
  external: [
    { name: 'x1', host: '10.0.0.5', port: 2181 },
    { name: 'x2', host: '10.0.0.6', port: 2181 },
  ],
};

/** Never read: resolveTarget is given the state. */
const NO_LAB = new LabPaths('/nonexistent/zklab-unit-targets');

describe('targetKind', () => {
  it('knows leader, zk-leader and all by name, cN as a contender and zkN as a server', () => {
    expect(['leader', 'zk-leader', 'all'].map(targetKind)).toEqual(['leader', 'zk-leader', 'all']);
    expect(['c1', 'c12', 'c100'].map(targetKind)).toEqual(['contender', 'contender', 'contender']);
    expect(['zk1', 'zk9', 'zk10'].map(targetKind)).toEqual(['server', 'server', 'server']);
  });

  it('knows nothing else: no zero, no leading zero, no capitals, no spaces, no outside servers', () => {
    for (const name of ['', 'c', 'zk', 'c0', 'zk0', 'c01', 'zk01', 'C1', 'ZK1', ' c1', 'c1 ', 'x1', 'leaders', 'c-1'])
      expect(targetKind(name), name).toBeUndefined();
  });
});

describe('checkTarget', () => {
  const three = { servers: 3, contenders: 2 };

  it('accepts each kind that is allowed and exists', () => {
    const every = ['leader', 'zk-leader', 'all', 'contender', 'server'] as const;
    for (const name of ['leader', 'zk-leader', 'all', 'c1', 'c2', 'zk1', 'zk3'])
      expect(checkTarget(name, every, three), name).toBeNull();
    expect(checkTarget('zk1', ['server'], { servers: 1, contenders: 0 })).toBeNull();
  });

  it('refuses a name that is no target, listing what is allowed in the order given', () => {
    expect(checkTarget('c01', ['contender', 'server'], three)).toBe('"c01" is not a target (use c1..c2, zk1..zk3)');
    expect(checkTarget('x1', ['leader', 'contender'], three)).toBe('"x1" is not a target (use leader, c1..c2)');
    expect(checkTarget('', ['server', 'zk-leader'], three)).toBe('"" is not a target (use zk1..zk3, zk-leader)');
  });

  it('refuses a kind that is not allowed, naming the kind', () => {
    expect(checkTarget('zk2', ['leader', 'contender'], { servers: 3, contenders: 1 })).toBe(
      'a server is not allowed here (use leader, c1)',
    );
    expect(checkTarget('c1', ['zk-leader', 'server'], three)).toBe(
      'a contender is not allowed here (use zk-leader, zk1..zk3)',
    );
    expect(checkTarget('all', ['leader', 'contender', 'server'], three)).toBe(
      '"all" is not allowed here (use leader, c1..c2, zk1..zk3)',
    );
    expect(checkTarget('leader', ['server'], three)).toBe('"leader" is not allowed here (use zk1..zk3)');
    expect(checkTarget('zk-leader', ['contender'], three)).toBe('"zk-leader" is not allowed here (use c1..c2)');
  });

  it('refuses a contender or server beyond the scope of the step', () => {
    expect(checkTarget('c3', ['contender'], three)).toBe(
      'c3 does not exist: the drill has 2 contender(s) at this step (use c1..c2)',
    );
    expect(checkTarget('c1', ['contender', 'server'], { servers: 1, contenders: 0 })).toBe(
      'c1 does not exist: the drill has 0 contender(s) at this step (use no contenders, zk1)',
    );
    expect(checkTarget('zk4', ['server'], three)).toBe(
      'zk4 does not exist: the ensemble has 3 server(s) (use zk1..zk3)',
    );
    expect(checkTarget('zk2', ['server', 'contender'], { servers: 1, contenders: 1 })).toBe(
      'zk2 does not exist: the ensemble has 1 server(s) (use zk1, c1)',
    );
  });

  it('refuses leader when there are no contenders to lead', () => {
    expect(checkTarget('leader', ['leader', 'server'], { servers: 3, contenders: 0 })).toBe(
      'there are no contenders to lead (use leader, zk1..zk3)',
    );
    expect(checkTarget('leader', ['leader'], { servers: 3, contenders: 1 })).toBeNull();
  });
});

describe('contenderIds and serverIds', () => {
  it('count from 1', () => {
    expect(contenderIds(0)).toEqual([]);
    expect(contenderIds(3)).toEqual(['c1', 'c2', 'c3']);
    expect(serverIds(0)).toEqual([]);
    expect(serverIds(2)).toEqual(['zk1', 'zk2']);
  });
});

describe('parseGroup', () => {
  it('splits on commas and trims each name', () => {
    expect(parseGroup('zk1,c2')).toEqual(['zk1', 'c2']);
    expect(parseGroup('zk1')).toEqual(['zk1']);
    expect(parseGroup(' zk1 , c2 ')).toEqual(['zk1', 'c2']);
  });

  it('refuses an empty name, quoting the group', () => {
    for (const text of ['', 'zk1,', ',zk1', 'zk1,,c2', 'zk1, ,c2']) {
      let thrown: unknown;
      try {
        parseGroup(text);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, text).toBeInstanceOf(UsageError);
      expect(thrown, text).toMatchObject({
        message: `the group "${text}" has an empty name`,
        hint: 'write a group as comma-separated names without spaces, e.g. zk1,c2',
      });
    }
  });
});

describe('targetsHint', () => {
  it('lists the servers, up to three contenders, leader and zk-leader', () => {
    expect(targetsHint(LAB)).toBe(
      'targets: zk1, zk2, zk3, c1, c2, leader (the leading contender), zk-leader (the leading server)',
    );
    const one = { ...LAB, servers: LAB.servers.slice(0, 1), contenders: [contender('c1')] };
    expect(targetsHint(one)).toBe('targets: zk1, c1, leader (the leading contender), zk-leader (the leading server)');
  });

  it('lists three contenders one by one', () => {
    const three = { ...LAB, contenders: ['c1', 'c2', 'c3'].map((id) => contender(id)) };
    expect(targetsHint(three)).toBe(
      'targets: zk1, zk2, zk3, c1, c2, c3, leader (the leading contender), zk-leader (the leading server)',
    );
  });

  it('gives more than three contenders as a range from the first to the last', () => {
    const five = { ...LAB, contenders: ['c1', 'c2', 'c4', 'c5', 'c7'].map((id) => contender(id)) };
    expect(targetsHint(five)).toBe(
      'targets: zk1, zk2, zk3, c1..c7, leader (the leading contender), zk-leader (the leading server)',
    );
  });

  it('names no contenders when there are none', () => {
    expect(targetsHint({ ...LAB, contenders: [] })).toBe(
      'targets: zk1, zk2, zk3, leader (the leading contender), zk-leader (the leading server)',
    );
  });
});

describe('isMember', () => {
  it('is true of every server (observers too) and every contender the lab has had, stopped ones too', () => {
    for (const name of ['zk1', 'zk2', 'zk3', 'c1', 'c2']) expect(isMember(LAB, name), name).toBe(true);
  });

  it('is false of names the lab does not have, and of the targets that are resolved later', () => {
    for (const name of ['zk4', 'c3', 'c0', 'leader', 'zk-leader', 'all', 'x1', ''])
      expect(isMember(LAB, name), name).toBe(false);
  });

  it('counts the servers of an outside ensemble as members of a lab pointed at it', () => {
    expect(['x1', 'x2', 'c1', 'zk1'].map((n) => isMember(OUTSIDE, n))).toEqual([true, true, true, false]);
  });
});

describe('checkTargetName', () => {
  it('accepts members, leader and zk-leader without asking anyone', () => {
    for (const name of ['zk1', 'zk3', 'c1', 'c2', 'leader', 'zk-leader'])
      expect(() => checkTargetName(LAB, name), name).not.toThrow();
  });

  it('refuses an unknown name with the lab’s targets as the hint', () => {
    for (const name of ['zk4', 'c3', 'all', 'x1']) {
      let thrown: unknown;
      try {
        checkTargetName(LAB, name);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, name).toBeInstanceOf(UsageError);
      expect(thrown, name).toMatchObject({
        message: `unknown target "${name}"`,
        hint: 'targets: zk1, zk2, zk3, c1, c2, leader (the leading contender), zk-leader (the leading server)',
      });
    }
  });

  it('refuses a server of an outside ensemble: only its contenders’ links to it can be cut', () => {
    expect(() => checkTargetName(OUTSIDE, 'x2')).toThrow(
      expect.objectContaining({
        message:
          "x2 is a server of an ensemble outside the lab; zklab can only cut or slow its contenders' links to it",
        hint: 'name a contender (cN) or leader',
      }),
    );
    expect(() => checkTargetName(OUTSIDE, 'c1')).not.toThrow();
  });
});

describe('resolveTarget with a member name', () => {
  it('gives a server as a server and a contender as a contender, from the state given', async () => {
    expect(await resolveTarget(NO_LAB, 'zk2', LAB)).toEqual({ name: 'zk2', kind: 'server' });
    expect(await resolveTarget(NO_LAB, 'zk3', LAB)).toEqual({ name: 'zk3', kind: 'server' });
    expect(await resolveTarget(NO_LAB, 'c2', LAB)).toEqual({ name: 'c2', kind: 'contender' });
    expect(await resolveTarget(NO_LAB, 'c1', OUTSIDE)).toEqual({ name: 'c1', kind: 'contender' });
  });

  it('refuses what checkTargetName refuses', async () => {
    await expect(resolveTarget(NO_LAB, 'zk4', LAB)).rejects.toThrow(UsageError);
    await expect(resolveTarget(NO_LAB, 'zk4', LAB)).rejects.toThrow('unknown target "zk4"');
    await expect(resolveTarget(NO_LAB, 'x1', OUTSIDE)).rejects.toThrow(/outside the lab/);
  });
});
