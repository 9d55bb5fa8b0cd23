import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { describeFaults } from '../../../src/inspect/link-state.js';
import type { SnapshotServer } from '../../../src/inspect/snapshot.js';
import { EnsemblePane } from '../../../src/inspect/views/EnsemblePane.js';
import { herd, predecessor } from './fixtures.js';
import { lineStarting, lineWith, lines, plain } from './frame.js';

const pane = (servers: readonly SnapshotServer[], partitions = predecessor.partitions, maxLines?: number) =>
  render(<EnsemblePane servers={servers} partitions={partitions} width={100} maxLines={maxLines} />).lastFrame();

describe('EnsemblePane', () => {
  it("shows each server's mode, zxid and connections", () => {
    const frame = pane(herd.servers, []);
    expect(lineStarting(frame, 'zk1')).toMatch(/zk1\s+leader\s+zxid 0x200000012\s+conns 3\s+child watches 4/);
    expect(lineStarting(frame, 'zk2')).toMatch(/zk2\s+follower\s+zxid 0x200000012\s+conns 2/);
  });

  it('marks the partitioned server only, and lists the link faults', () => {
    const frame = pane(predecessor.servers);
    expect(lineStarting(frame, 'zk3')).toMatch(/zk3\s+not-serving\s+zxid -\s+conns -\s+PARTITIONED/);
    expect(plain(frame).match(/PARTITIONED/g)).toHaveLength(1);
    expect(lineWith(frame, 'links:')).toBe('links: zk3 ⇄ zk1 partition · zk3 ⇄ zk2 partition');
  });

  it("lists faults on nodes (a faked clock) on a line of their own, after the links'", () => {
    const nodeFaults = [
      { node: 'zk1', text: 'clock +30s' },
      { node: 'c2', text: 'clock runs at 1.5×' },
    ];
    const frame = render(
      <EnsemblePane servers={herd.servers} partitions={predecessor.partitions} nodeFaults={nodeFaults} width={100} />,
    ).lastFrame();
    expect(lineWith(frame, 'nodes:')).toBe('nodes: zk1 clock +30s · c2 clock runs at 1.5×');
    expect(lines(frame).findIndex((l) => l.startsWith('nodes:'))).toBe(
      lines(frame).findIndex((l) => l.startsWith('links:')) + 1,
    );
  });

  it('shows paused, down and delayed servers', () => {
    const servers: SnapshotServer[] = [
      {
        name: 'zk1',
        mode: 'paused',
        zxid: null,
        connections: null,
        partitioned: false,
        delayMs: 0,
        childWatches: null,
      },
      {
        name: 'zk2',
        mode: 'down',
        zxid: null,
        connections: null,
        partitioned: false,
        delayMs: 250,
        childWatches: null,
      },
    ];
    const frame = pane(servers, [{ from: 'zk1', to: 'zk2', fault: 'delay', delayMs: 250 }]);
    expect(lineStarting(frame, 'zk1')).toMatch(/^zk1\s+paused/);
    expect(lineStarting(frame, 'zk2')).toMatch(/^zk2\s+down .*delay \+250ms/);
    expect(lineWith(frame, 'links:')).toBe('links: zk1 → zk2 delay 250ms');
  });

  it('keeps the fault line when servers must be cut to fit', () => {
    expect(lines(pane(predecessor.servers, predecessor.partitions, 2)).map((l) => l.slice(0, 6))).toEqual([
      'zk1   ',
      'links:',
    ]);
  });
});

describe('describeFaults', () => {
  it('pairs only faults that are the same both ways', () => {
    expect(
      describeFaults([
        { from: 'a', to: 'b', fault: 'partition' },
        { from: 'b', to: 'a', fault: 'reject' },
        { from: 'a', to: 'c', fault: 'loss', lossPercent: 10 },
        { from: 'c', to: 'a', fault: 'loss', lossPercent: 10 },
      ]),
    ).toEqual(['a → b partition', 'b → a reject', 'a ⇄ c loss 10%']);
  });
});
