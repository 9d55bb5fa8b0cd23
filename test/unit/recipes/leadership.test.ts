import { describe, expect, it } from 'vitest';
import { electionLayout, formatLeaderRule, parseLeaderRule, pickLeader } from '../../../src/recipes/leadership.js';
import { compareSiblings } from '../../../src/recipes/sequence.js';

/** A path's children and their owners as ZooKeeper would report them: null = listed, but gone by the stat. */
type Tree = Record<string, string | null>;

function leader(tree: Tree, root = '/e'): string | null {
  const children = Object.keys(tree)
    .filter((p) => p.startsWith(`${root}/`) && !p.slice(root.length + 1).includes('/'))
    .map((p) => p.slice(root.length + 1));
  const owner = (p: string) => (p in tree ? tree[p]! : null);
  return pickLeader(root, children, owner)?.znode ?? null;
}

const SEQ = (n: number) => String(n).padStart(10, '0');

describe('who leads (the one rule)', () => {
  it.each<[string, Tree, string | null]>([
    [
      'the lowest sequence, not the first name',
      { [`/e/b-n_${SEQ(2)}`]: 'a2', [`/e/a-n_${SEQ(7)}`]: 'a7' },
      `/e/b-n_${SEQ(2)}`,
    ],
    [
      'a sequential election beside a `leader` znode',
      { '/e/leader': 'a9', [`/e/x-n_${SEQ(4)}`]: 'a4' },
      `/e/x-n_${SEQ(4)}`,
    ],
    ['single-file: the ephemeral `leader`', { '/e/leader': 'a9', '/e/config': '0' }, '/e/leader'],
    ['single-file between leaders: nobody', { '/e/config': '0' }, null],
    ['a persistent `leader` leads nothing', { '/e/leader': '0' }, null],
    ['priority with only nodes/: nobody yet', { '/e/nodes': '0', '/e/nodes/c1': 'a1' }, null],
    [
      'priority: the holder of leader/current (PROGRESS or READY)',
      { '/e/nodes': '0', '/e/election': '0', '/e/leader': '0', '/e/leader/current': 'a3' },
      '/e/leader/current',
    ],
    [
      'a 9-digit suffix is not a sequence',
      { '/e/x-n_000000001': 'a1', [`/e/y-n_${SEQ(5)}`]: 'a5' },
      `/e/y-n_${SEQ(5)}`,
    ],
    [
      "Curator's latch names",
      { [`/e/_c_9f-latch-${SEQ(12)}`]: 'a12', [`/e/_c_01-latch-${SEQ(3)}`]: 'a3' },
      `/e/_c_01-latch-${SEQ(3)}`,
    ],
    [
      "kazoo's lock names",
      { [`/e/4b1e__lock__${SEQ(8)}`]: 'a8', [`/e/0c2d__lock__${SEQ(9)}`]: 'a9' },
      `/e/4b1e__lock__${SEQ(8)}`,
    ],
    [
      "an expired session's znode still listed: the next one",
      { [`/e/x-n_${SEQ(1)}`]: null, [`/e/y-n_${SEQ(2)}`]: 'a2' },
      `/e/y-n_${SEQ(2)}`,
    ],
    [
      'two znodes of one session: the lower',
      { [`/e/x-n_${SEQ(1)}`]: 'a1', [`/e/y-n_${SEQ(3)}`]: 'a1', [`/e/z-n_${SEQ(2)}`]: 'a2' },
      `/e/x-n_${SEQ(1)}`,
    ],
    [
      'a persistent sequential child is no member',
      { [`/e/x-n_${SEQ(1)}`]: '0', [`/e/y-n_${SEQ(2)}`]: 'a2' },
      `/e/y-n_${SEQ(2)}`,
    ],
  ])('%s', (_, tree, expected) => {
    expect(leader(tree)).toBe(expected);
  });

  it('names the owner and the layout', () => {
    expect(pickLeader('/e', ['leader'], () => 'a9')).toEqual({
      znode: '/e/leader',
      owner: 'a9',
      layout: 'single-file',
    });
    expect(pickLeader('/', [`n_${SEQ(1)}`], () => 'b1')).toEqual({
      znode: `/n_${SEQ(1)}`,
      owner: 'b1',
      layout: 'sequential',
    });
  });

  it('reads the layout from the children', () => {
    expect(electionLayout(null)).toBe('empty');
    expect(electionLayout([])).toBe('sequential');
    expect(electionLayout(['leader'])).toBe('single-file');
    expect(electionLayout(['leader', `x-n_${SEQ(1)}`])).toBe('sequential');
    expect(electionLayout(['nodes'])).toBe('priority');
    expect(electionLayout(['election', 'leader'])).toBe('priority');
  });
});

describe('sibling order', () => {
  it('order siblings: names without a sequence first, then by number, not by text', () => {
    expect([`b-n_${SEQ(10)}`, `a-n_${SEQ(9)}`, 'nodes', 'election'].sort(compareSiblings)).toEqual([
      'election',
      'nodes',
      `a-n_${SEQ(9)}`,
      `b-n_${SEQ(10)}`,
    ]);
  });
});

describe('leader rules of programs run as contenders', () => {
  const children = ['leader', `n_${SEQ(4)}`, `n_${SEQ(2)}`, 'config'];
  const owners: Record<string, string> = {
    '/e/leader': 'a9',
    [`/e/n_${SEQ(4)}`]: 'a4',
    [`/e/n_${SEQ(2)}`]: 'a2',
    '/e/config': '0',
  };
  const owner = (p: string) => owners[p] ?? null;

  it('lowest-sequence ignores a `leader` znode; single-node NAME only looks at NAME', () => {
    expect(pickLeader('/e', children, owner, { kind: 'lowest-sequence' })?.owner).toBe('a2');
    expect(pickLeader('/e', children, owner, { kind: 'single-node', name: 'leader' })?.owner).toBe('a9');
    expect(pickLeader('/e', children, owner, { kind: 'single-node', name: 'config' })).toBeNull();
    expect(pickLeader('/e', children, owner, { kind: 'single-node', name: 'absent' })).toBeNull();
  });

  it('reads and writes rules the way --leader-rule takes them', () => {
    expect(parseLeaderRule('lowest-sequence')).toEqual({ kind: 'lowest-sequence' });
    expect(parseLeaderRule('single-node leader')).toEqual({ kind: 'single-node', name: 'leader' });
    expect(parseLeaderRule('single-node=leader')).toEqual({ kind: 'single-node', name: 'leader' });
    expect(formatLeaderRule({ kind: 'single-node', name: 'leader' })).toBe('single-node leader');
    expect(parseLeaderRule(formatLeaderRule({ kind: 'lowest-sequence' }))).toEqual({ kind: 'lowest-sequence' });
    for (const bad of [
      '',
      'highest-sequence',
      'single-node',
      'single-node a/b',
      'lowest-sequence x',
      'single-node a b',
    ])
      expect(parseLeaderRule(bad)).toBeUndefined();
  });
});
