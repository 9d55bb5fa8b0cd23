import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { describeWatchGraph, watchGraphLines } from '../../../src/inspect/watch-graph.js';
import { WatchGraph } from '../../../src/inspect/views/WatchGraph.js';
import { herd, node, predecessor, priority, singleFile } from './fixtures.js';
import { lines, plain } from './frame.js';

const graph = (nodes = predecessor.nodes, maxLines?: number) =>
  render(<WatchGraph nodes={nodes} width={100} maxLines={maxLines} />).lastFrame();

describe('WatchGraph', () => {
  it('draws the predecessor chain from the last contender to the leader', () => {
    expect(lines(graph())).toEqual(['c5 → c4 → c3 → c2 → c1★']);
  });

  it('shows a herd as a crowd of child watches on the parent', () => {
    expect(lines(graph(herd.nodes))).toEqual(['/election ← c2 c3 c4 c5 (4 child watches)']);
  });

  it('shows exists watches on the single leader znode as a crowd on its owner', () => {
    expect(lines(graph(singleFile.nodes))).toEqual(['(c1 c3) → leader[c2]★  2 watchers']);
  });

  it('names role znodes of the priority recipe by path and owner', () => {
    expect(lines(graph(priority().nodes))).toEqual([
      'c1 → leader/current[c3]★',
      '(c2 c3) → leader/elected[c1]  2 watchers',
      '/election/nodes ← c1 (1 child watch)',
    ]);
  });

  it('says so when nothing watches', () => {
    expect(plain(graph([node({ path: '/election' })]))).toBe('no watches on the election znodes');
  });

  it('cuts to maxLines with a count of what is left', () => {
    expect(lines(graph(priority().nodes, 2))).toEqual(['c1 → leader/current[c3]★', '… 2 more']);
  });
});

describe('describeWatchGraph', () => {
  const seq = (i: number, watchers: string[], leader = false) =>
    node({ path: `/election/n_${i}`, contender: `c${i}`, sessionId: `0x${i}`, ephemeral: true, leader, watchers });

  it('continues a chain through a crowd member that is itself watched', () => {
    // c2 and c3 both watch c1 (a broken predecessor chain), and c4 watches c3.
    const model = describeWatchGraph([
      node({ path: '/election' }),
      seq(1, ['c2', 'c3'], true),
      seq(2, []),
      seq(3, ['c4']),
    ]);
    expect(watchGraphLines(model)).toEqual(['(c2 c3) → c1★  2 watchers', 'c4 → c3']);
  });

  it('shows every edge of a watch cycle instead of dropping it', () => {
    const model = describeWatchGraph([node({ path: '/election' }), seq(1, ['c2']), seq(2, ['c1'])]);
    expect(watchGraphLines(model).sort()).toEqual(['c1 → c2', 'c2 → c1']);
  });

  it('ignores a contender watching its own znode', () => {
    const model = describeWatchGraph([node({ path: '/election' }), seq(1, ['c1', 'c2'], true)]);
    expect(watchGraphLines(model)).toEqual(['c2 → c1★']);
  });
});
