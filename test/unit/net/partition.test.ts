import { describe, expect, it } from 'vitest';
import { linkId, type LinkKind, type LinkRef } from '../../../src/net/link-types.js';
import {
  clearDelays,
  computeLinkFaults,
  delay,
  describeRule,
  healRules,
  isolate,
  ruleCuts,
  setDelay,
  split,
  splitGroups,
  validateDelay,
  validateNetRules,
  validateRule,
} from '../../../src/net/partition.js';

const SERVERS = ['zk1', 'zk2', 'zk3'];
const MEMBERS = [...SERVERS, 'c1', 'c2'];

function link(from: string, to: string, kind: LinkKind): LinkRef {
  return { id: linkId({ from, to, kind }), from, to, kind };
}

/** Every server pair both ways on quorum and election, and each client to each server. */
const LINKS: LinkRef[] = [
  ...SERVERS.flatMap((a) =>
    SERVERS.filter((b) => b !== a).flatMap((b) => [link(a, b, 'quorum'), link(a, b, 'election')]),
  ),
  ...['c1', 'c2'].flatMap((c) => SERVERS.map((s) => link(c, s, 'client'))),
];

/** The links a rule set cuts, as `from->to` pairs (kinds collapsed), sorted. */
function cutPairs(faults: Map<string, { mode: string }>): string[] {
  const pairs = new Set<string>();
  for (const l of LINKS) if (faults.get(l.id)?.mode !== 'pass') pairs.add(`${l.from}->${l.to}`);
  return [...pairs].sort();
}

describe('ruleCuts', () => {
  it('isolate cuts exactly the links touching the member', () => {
    const r = isolate('zk1');
    expect(ruleCuts(r, 'zk1', 'zk2')).toBe(true);
    expect(ruleCuts(r, 'c1', 'zk1')).toBe(true);
    expect(ruleCuts(r, 'zk2', 'zk3')).toBe(false);
    expect(ruleCuts(r, 'zk1', 'zk1')).toBe(false);
  });

  it('split puts members not named into one more group', () => {
    const r = split([['zk1'], ['zk2']]);
    expect(splitGroups(r, MEMBERS)).toEqual([['zk1'], ['zk2'], ['zk3', 'c1', 'c2']]);
    expect(ruleCuts(r, 'zk1', 'zk2')).toBe(true);
    expect(ruleCuts(r, 'zk1', 'c1')).toBe(true);
    expect(ruleCuts(r, 'zk3', 'c1')).toBe(false);
  });
});

describe('computeLinkFaults', () => {
  it('gives every link pass with no delay when nothing applies', () => {
    const faults = computeLinkFaults(LINKS, [], []);
    expect(faults.size).toBe(LINKS.length);
    for (const f of faults.values()) expect(f).toEqual({ mode: 'pass', delayMs: 0, jitterMs: 0 });
  });

  it('isolating a server cuts both directions of every kind, clients included', () => {
    const faults = computeLinkFaults(LINKS, [isolate('zk1')], []);
    expect(cutPairs(faults)).toEqual(['c1->zk1', 'c2->zk1', 'zk1->zk2', 'zk1->zk3', 'zk2->zk1', 'zk3->zk1']);
    expect(faults.get('election:zk2->zk1')).toEqual({ mode: 'blackhole', delayMs: 0, jitterMs: 0 });
    expect(faults.get('quorum:zk2->zk3')?.mode).toBe('pass');
  });

  it('a split with a client in a minority cuts it from the others', () => {
    const faults = computeLinkFaults(LINKS, [split([['zk1', 'c1']], 'reject')], []);
    expect(cutPairs(faults)).toEqual(['c1->zk2', 'c1->zk3', 'c2->zk1', 'zk1->zk2', 'zk1->zk3', 'zk2->zk1', 'zk3->zk1']);
    expect(faults.get('client:c1->zk2')?.mode).toBe('reject');
    expect(faults.get('client:c2->zk2')?.mode).toBe('pass'); // c2 is in the implicit group with zk2, zk3
  });

  it('members not named in a split form a group of their own, cut from every named group', () => {
    const faults = computeLinkFaults(
      LINKS,
      [
        split([
          ['zk1', 'c1'],
          ['zk2', 'zk3'],
        ]),
      ],
      [],
    );
    expect(cutPairs(faults)).toEqual([
      'c1->zk2',
      'c1->zk3',
      'c2->zk1',
      'c2->zk2',
      'c2->zk3',
      'zk1->zk2',
      'zk1->zk3',
      'zk2->zk1',
      'zk3->zk1',
    ]);
  });

  it('the last rule that cuts a link decides its mode', () => {
    const faults = computeLinkFaults(LINKS, [isolate('zk1', 'blackhole'), split([['zk1', 'zk2']], 'reject')], []);
    expect(faults.get('quorum:zk1->zk3')?.mode).toBe('reject'); // both cut it: split is later
    expect(faults.get('quorum:zk1->zk2')?.mode).toBe('blackhole'); // only isolate cuts it
    expect(faults.get('quorum:zk2->zk3')?.mode).toBe('reject');
  });

  it('adds the delays of both ends, and keeps delays on cut links', () => {
    const delays = [delay('zk1', 50, 10), delay('zk2', 30)];
    const faults = computeLinkFaults(LINKS, [isolate('zk3')], delays);
    expect(faults.get('quorum:zk1->zk2')).toEqual({ mode: 'pass', delayMs: 80, jitterMs: 10 });
    expect(faults.get('client:c1->zk1')).toEqual({ mode: 'pass', delayMs: 50, jitterMs: 10 });
    expect(faults.get('election:zk3->zk1')).toEqual({ mode: 'blackhole', delayMs: 50, jitterMs: 10 });
    expect(faults.get('client:c2->zk3')).toEqual({ mode: 'blackhole', delayMs: 0, jitterMs: 0 });
  });

  it('uses the ids the links carry', () => {
    const faults = computeLinkFaults(
      [{ id: 'custom', from: 'zk1', to: 'zk2', kind: 'quorum' }],
      [isolate('zk2', 'reject')],
      [],
    );
    expect([...faults.keys()]).toEqual(['custom']);
    expect(faults.get('custom')?.mode).toBe('reject');
  });
});

describe('validation', () => {
  it('accepts well-formed rules and delays', () => {
    expect(
      validateNetRules(
        MEMBERS,
        [isolate('zk1'), split([['zk1'], ['zk2', 'c1']], 'reject')],
        [delay('c2', 0), delay('zk1', 60_000, 60_000)],
      ),
    ).toEqual([]);
  });

  it('names unknown members', () => {
    expect(validateRule(isolate('zk9'), MEMBERS)).toEqual([expect.stringContaining("unknown member 'zk9'")]);
    expect(validateRule(split([['zk1', 'nope']]), MEMBERS)).toEqual([expect.stringContaining("unknown member 'nope'")]);
    expect(validateDelay(delay('ghost', 10), MEMBERS)).toEqual([expect.stringContaining("unknown member 'ghost'")]);
  });

  it('refuses a member in two groups', () => {
    expect(validateRule(split([['zk1', 'zk2'], ['zk2']]), MEMBERS)).toEqual([
      "member 'zk2' is in two groups (1 and 2)",
    ]);
    expect(validateRule(split([['zk1', 'zk1']]), MEMBERS)).toEqual(["member 'zk1' is listed twice in group 1"]);
  });

  it('refuses fewer than two groups, counting the implicit one', () => {
    expect(validateRule(split([MEMBERS]), MEMBERS)).toEqual([expect.stringContaining('at least two groups, got 1')]);
    expect(validateRule(split([]), MEMBERS)).toEqual([expect.stringContaining('at least two groups, got 1')]);
    expect(validateRule(split([['zk1']]), MEMBERS)).toEqual([]);
    expect(validateRule(split([['zk1'], []]), MEMBERS)).toEqual(['group 2 is empty']);
  });

  it('refuses delays and jitters outside 0..60000 ms', () => {
    expect(validateDelay(delay('zk1', -1), MEMBERS)).toEqual([expect.stringContaining('delay -1 ms')]);
    expect(validateDelay(delay('zk1', 60_001), MEMBERS)).toEqual([expect.stringContaining('delay 60001 ms')]);
    expect(validateDelay(delay('zk1', 10, -5), MEMBERS)).toEqual([expect.stringContaining('jitter -5 ms')]);
    expect(validateDelay(delay('zk1', Number.NaN), MEMBERS)).toHaveLength(1);
  });

  it('refuses an unknown mode (input from JSON)', () => {
    const bad = { type: 'isolate', member: 'zk1', mode: 'drop' } as unknown as Parameters<typeof validateRule>[0];
    expect(validateRule(bad, MEMBERS)).toEqual([expect.stringContaining("unknown mode 'drop'")]);
  });

  it('collects every problem of a rule set', () => {
    expect(validateNetRules(MEMBERS, [isolate('x'), split([['zk1'], ['zk1']])], [delay('zk1', -3)])).toHaveLength(3);
  });
});

describe('heal and delays', () => {
  const rules = [isolate('zk1'), split([['zk2'], ['zk3']]), isolate('c1', 'reject')];

  it("heal(target) lifts its isolation and the splits that cut it off, and keeps other members' isolations", () => {
    expect(healRules(rules, MEMBERS, 'zk3')).toEqual([isolate('zk1'), isolate('c1', 'reject')]);
    expect(healRules(rules, MEMBERS, 'zk1')).toEqual([isolate('c1', 'reject')]); // zk1 is in the split's implicit group
    expect(healRules(rules, MEMBERS, 'c2')).toEqual([isolate('zk1'), isolate('c1', 'reject')]);
    expect(
      healRules(
        [
          split([
            ['zk1', 'zk2'],
            ['zk3', 'c1', 'c2'],
          ]),
        ],
        MEMBERS,
        'zk2',
      ),
    ).toEqual([]);
  });

  it('heal() removes every rule', () => {
    expect(healRules(rules, MEMBERS)).toEqual([]);
  });

  it('setDelay replaces a member delay and a zero delay removes it', () => {
    let d = setDelay([], delay('zk1', 10));
    d = setDelay(d, delay('zk2', 20, 5));
    d = setDelay(d, delay('zk1', 40));
    expect(d).toEqual([delay('zk2', 20, 5), delay('zk1', 40)]);
    expect(setDelay(d, delay('zk2', 0))).toEqual([delay('zk1', 40)]);
    expect(clearDelays(d, 'zk1')).toEqual([delay('zk2', 20, 5)]);
    expect(clearDelays(d)).toEqual([]);
  });

  it('describes rules for humans', () => {
    expect(describeRule(isolate('zk1'))).toBe('isolate zk1 (blackhole)');
    expect(describeRule(split([['zk1', 'zk2'], ['zk3']], 'reject'))).toBe('split zk1,zk2 | zk3 (reject)');
  });
});
