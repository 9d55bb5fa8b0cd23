import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import type { InspectActions } from '../../../src/inspect/live/actions.js';
import { LiveInspect } from '../../../src/inspect/live/LiveInspect.js';
import { moveSelection, NO_SELECTION, selectedRow } from '../../../src/inspect/live/selection.js';
import type { Snapshot } from '../../../src/inspect/snapshot.js';
import type { SnapshotFeed, SnapshotListener } from '../../../src/inspect/source/inspect-source.js';
import { waitFor } from '../../helpers/wait.js';
import { predecessor } from './fixtures.js';
import { lineWith, plain } from './frame.js';

const DOWN = '\u001B[B';
const UP = '\u001B[A';

class FakeFeed implements SnapshotFeed {
  private readonly listeners = new Set<SnapshotListener>();
  refreshes = 0;
  constructor(private snapshot: Snapshot) {}
  current(): Snapshot {
    return this.snapshot;
  }
  subscribe(l: SnapshotListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  refresh(): void {
    this.refreshes++;
  }
  emit(next: Snapshot): void {
    this.snapshot = next;
    for (const l of this.listeners) l(next);
  }
}

function recordingActions(calls: string[], fail = false): InspectActions {
  const act = (what: string) => async () => {
    calls.push(what);
    if (fail) throw new UsageError('contender c2 is not running', 'see `zklab contenders list`');
    return `${what} done`;
  };
  return {
    kill: (id, sig) => act(`kill ${id} ${sig}`)(),
    togglePause: (id) => act(`pause ${id}`)(),
    toggleIsolate: (id) => act(`isolate ${id}`)(),
    spawn: () => act('spawn')(),
  };
}

describe('selection', () => {
  const owner = (view: typeof predecessor, sel: ReturnType<typeof moveSelection>) => selectedRow(view, sel)?.contender;

  it('steps among contender rows, then the contenders without a znode; the foreign znode is no stop', () => {
    let sel = moveSelection(predecessor, NO_SELECTION, 1);
    expect(owner(predecessor, sel)).toBe('c1');
    sel = moveSelection(predecessor, sel, 1);
    sel = moveSelection(predecessor, sel, 1);
    expect(owner(predecessor, sel)).toBe('c3');
    for (let i = 0; i < 10; i++) sel = moveSelection(predecessor, sel, 1);
    expect(owner(predecessor, sel)).toBe('c5');
    const withAbsent = { ...predecessor, absent: [{ id: 'c9', pid: 99, why: 'paused' as const }] };
    expect(owner(withAbsent, moveSelection(withAbsent, sel, 1))).toBe('c9');
    expect(moveSelection({ nodes: [], absent: [] }, sel, -1)).toEqual(NO_SELECTION);
  });

  it('follows a contender whose znode expired to its line below the tree, and never slides to a neighbour', () => {
    let sel = moveSelection(predecessor, NO_SELECTION, 1);
    sel = moveSelection(predecessor, sel, 1);
    sel = moveSelection(predecessor, sel, 1);
    expect(owner(predecessor, sel)).toBe('c3');
    const paused = {
      ...predecessor,
      nodes: predecessor.nodes.filter((n) => n.contender !== 'c3'),
      absent: [{ id: 'c3', pid: 103, why: 'paused' as const }],
    };
    expect(selectedRow(paused, sel)).toEqual({ kind: 'absent', contender: 'c3' });
    // Dead and gone: nothing is selected rather than c4.
    const gone = { ...paused, absent: [] };
    expect(selectedRow(gone, sel)).toBeNull();
    expect(owner(gone, moveSelection(gone, sel, 1))).toBe('c1');
  });
});

describe('LiveInspect', () => {
  it('selects with the arrows and acts on the selected contender, even for keys sent in one burst', async () => {
    const feed = new FakeFeed(predecessor);
    const calls: string[] = [];
    const app = render(<LiveInspect feed={feed} actions={recordingActions(calls)} />);
    app.stdin.write(DOWN);
    app.stdin.write(DOWN);
    app.stdin.write('k');
    await waitFor(() => calls.length === 1, 'the kill');
    expect(calls).toEqual(['kill c2 SIGKILL']);
    await waitFor(() => plain(app.lastFrame()).includes('kill c2 SIGKILL done'), 'the outcome in the footer');
    expect(lineWith(app.lastFrame(), '›')).toContain('c2 pid');
    expect(feed.refreshes).toBe(1);

    app.stdin.write(UP);
    app.stdin.write('t');
    app.stdin.write('p');
    app.stdin.write('i');
    app.stdin.write('s');
    await waitFor(() => calls.length === 5, 'four more actions');
    expect(calls.slice(1)).toEqual(['kill c1 SIGTERM', 'pause c1', 'isolate c1', 'spawn']);
    app.unmount();
  });

  it("shows an action's error in the footer instead of throwing, and asks for a selection first", async () => {
    const feed = new FakeFeed(predecessor);
    const calls: string[] = [];
    const app = render(<LiveInspect feed={feed} actions={recordingActions(calls, true)} />);
    app.stdin.write('k');
    await waitFor(() => plain(app.lastFrame()).includes('select a contender with ↑/↓ first'), 'the hint');
    expect(calls).toEqual([]);
    app.stdin.write(DOWN);
    app.stdin.write('p');
    await waitFor(() => plain(app.lastFrame()).includes('failed: contender c2 is not running'), 'the error');
    app.unmount();
  });

  it('follows the feed and keeps the selection on the same znode as rows move', async () => {
    const feed = new FakeFeed(predecessor);
    const app = render(<LiveInspect feed={feed} actions={recordingActions([])} />);
    app.stdin.write(DOWN);
    app.stdin.write(DOWN);
    await waitFor(() => lineWith(app.lastFrame(), '›').includes('c2 pid'), 'c2 selected');
    feed.emit({
      ...predecessor,
      nodes: predecessor.nodes
        .filter((n) => n.contender !== 'c1')
        .map((n) => (n.contender === 'c2' ? { ...n, leader: true, state: 'leader' } : n)),
    });
    await waitFor(() => lineWith(app.lastFrame(), '★ LEADER').includes('c2 pid'), 'c2 leading');
    expect(lineWith(app.lastFrame(), '›')).toContain('c2 pid');
    app.unmount();
  });
});
