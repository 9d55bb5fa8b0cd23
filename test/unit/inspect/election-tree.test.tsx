import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ElectionTree } from '../../../src/inspect/views/ElectionTree.js';
import { large, predecessor, priority, scheduler, seqName, singleFile } from './fixtures.js';
import { lineWith, lines, masked, plain } from './frame.js';

const tree = (nodes = predecessor.nodes, props: { width?: number; height?: number; selected?: number | null } = {}) =>
  render(
    <ElectionTree nodes={nodes} width={props.width ?? 100} height={props.height} selected={props.selected ?? null} />,
  ).lastFrame();

describe('ElectionTree', () => {
  it('marks only the lowest sequence as leader, on c1', () => {
    const frame = tree();
    expect(plain(frame).match(/★ LEADER/g)).toHaveLength(1);
    expect(lineWith(frame, '★ LEADER')).toContain('c1 pid 4001');
    expect(lineWith(frame, '★ LEADER')).toContain('#1');
  });

  it('lists the root first, then the children in sequence order, the last one closing the tree', () => {
    const rows = lines(tree());
    expect(rows[0]).toContain('/election');
    const order = rows.slice(1).map((r) => /#(\d+)/.exec(r)?.[1]);
    expect(order).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(rows[1]).toContain('├─ ');
    expect(rows[6]).toContain('└─ ');
  });

  it('shows each row with owner session, contender, pid, state and age', () => {
    const row = masked(lineWith(tree(), 'c3 pid'));
    expect(row).toMatch(/#3\s+0x1000a3f2c0003\s+c3 pid 4003\s+follower\s+<age>/);
  });

  it('shows the paused contender as paused and the foreign znode without a contender', () => {
    const frame = tree();
    expect(lineWith(frame, 'c4 pid')).toContain('paused');
    const foreign = lineWith(frame, '#6');
    expect(foreign).toContain('foreign');
    expect(foreign).toContain('0x2000b00c0001');
    expect(foreign).not.toMatch(/\bc\d+ pid/);
  });

  it('keeps the znode name readable: head of the GUID and the whole sequence suffix', () => {
    const row = lineWith(tree(), '#2');
    expect(row).toContain(`${seqName(2).slice(0, 4)}…`);
    expect(row).toContain('-n_0000000002 ');
  });

  it('marks the single leader znode of the single-file recipe with its owner', () => {
    const row = lineWith(tree(singleFile.nodes), '★ LEADER');
    expect(row).toContain('leader');
    expect(row).toContain('c2 pid 4002');
    expect(row).toContain('"c2"');
  });

  it('nests the priority recipe and marks leader/current with its READY or PROGRESS data', () => {
    const frame = tree(priority().nodes);
    const current = lineWith(frame, 'current');
    expect(current).toContain('★ LEADER');
    expect(current).toContain('c3 pid 4003');
    expect(current).toContain('"READY"');
    expect(current).toMatch(/│ {2}├─ current/);
    expect(lineWith(frame, 'elected')).toContain('"c3"');
    expect(lineWith(tree(priority('PROGRESS').nodes), 'current')).toContain('"PROGRESS"');
  });

  it('names no type for a znode no session owns, and claims no TTL for it', () => {
    const row = lineWith(tree(priority().nodes), 'c9');
    // ZooKeeper hands a client ephemeralOwner 0 for persistent, TTL and container znodes alike: that is all it knows.
    expect(row).toContain('no session owns');
    expect(row).not.toMatch(/persistent|container/);
    expect(row).not.toContain('ttl');
  });

  it("annotates a scheduler's rows: TTL from status data, outcome, attempt, worker's contender", () => {
    const nodes = scheduler().nodes;
    const frame = tree(nodes, { width: 120 });
    const ok = lineWith(frame, 'job-0000000010');
    expect(ok).toContain('ttl 12.3s');
    expect(ok).toContain('ok = 5 · c1-1 · attempt 1');
    expect(ok).not.toContain('"{'); // the note says what the JSON would
    expect(lineWith(frame, 'job-0000000011')).toContain('ttl due failed: boom · c3-1 · attempt 2');
    const unreadable = lineWith(tree(nodes, { width: 140 }), 'job-0000000009');
    expect(unreadable).not.toContain('ttl');
    expect(unreadable).toContain('not a worker\'s status "left by hand"');
    expect(lineWith(frame, 'job-0000000012')).toContain('attempt 2 · sleep 300ms');
    expect(lineWith(frame, 'job-0000000015')).toContain('queued · attempt 1 · sum 2+3');
    expect(lineWith(frame, '─ c2-1')).toContain('1 job assigned · worker gone');
    const worker = lineWith(frame, '─ c3-1');
    expect(worker).toMatch(/c3 pid 4003\s+alive\s+\S+\s+worker of c3/);
    expect(lineWith(frame, '★ LEADER')).toContain('c1 pid 4001');
  });

  it('shows the session of a scheduler row only on a wide terminal', () => {
    expect(lineWith(tree(scheduler().nodes, { width: 120 }), '─ c3-1')).not.toContain('0x1000a3f2c0003');
    expect(lineWith(tree(scheduler().nodes, { width: 160 }), '─ c3-1')).toContain('0x1000a3f2c0003');
  });

  it('highlights exactly the selected row', () => {
    const frame = tree(predecessor.nodes, { selected: 3 });
    const marked = lines(frame).filter((l) => l.startsWith('›'));
    expect(marked).toHaveLength(1);
    expect(marked[0]).toContain('c3 pid');
  });

  it('drops the session column before the contender when narrow', () => {
    expect(lineWith(tree(predecessor.nodes, { width: 100 }), 'c2')).toContain('0x1000a3f2c0002');
    const narrow = lineWith(tree(predecessor.nodes, { width: 80 }), 'c2');
    expect(narrow).not.toContain('0x1000a3f2c0002');
    expect(narrow).toContain('c2 pid 4002');
  });

  it('renders only the rows that fit a 500-znode election, keeping the selected row visible', () => {
    const big = large(500);
    const frame = tree(big.nodes, { height: 20, selected: 250 });
    const rows = lines(frame);
    expect(rows).toHaveLength(20);
    expect(lineWith(frame, '›')).toContain('c250 pid');
    expect(plain(frame)).not.toContain('★ LEADER');
    expect(rows[19]).toMatch(/rows \d+–\d+ of 501 · ↑\d+ · ↓\d+/);
  });

  it('shows the leader again when the selection returns to the top', () => {
    const frame = tree(large(500).nodes, { height: 20, selected: 0 });
    expect(lines(frame)).toHaveLength(20);
    expect(lineWith(frame, '★ LEADER')).toContain('c1 pid');
  });
});
