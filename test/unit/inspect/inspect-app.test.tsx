import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../src/inspect/snapshot.js';
import { Footer, FOOTER_KEYS } from '../../../src/inspect/views/Footer.js';
import { InspectApp } from '../../../src/inspect/views/InspectApp.js';
import { herd, large, predecessor, priority, scheduler, singleFile } from './fixtures.js';
import { lineWith, lines, masked, plain } from './frame.js';

const app = (snapshot: Snapshot, width: number, height: number, selected: number | null = null) => {
  const node = selected === null ? undefined : snapshot.nodes[selected];
  const row = node ? { kind: 'node' as const, index: selected!, path: node.path, contender: node.contender } : null;
  return render(<InspectApp snapshot={snapshot} width={width} height={height} selected={row} />).lastFrame();
};

describe('InspectApp', () => {
  it('shows header, tree, watches, ensemble, events and keys on a roomy terminal', () => {
    const frame = app(predecessor, 100, 40, 2);
    expect(masked(lines(frame)[0])).toBe(
      'zklab inspect /election · sequential · leader c1 #1 · 7 znodes · --:--:--.---',
    );
    for (const title of ['── watches', '── ensemble', '── events']) expect(lineWith(frame, title)).toMatch(/^── /);
    expect(lineWith(frame, '★ LEADER')).toContain('c1 pid 4001');
    expect(lineWith(frame, '›')).toContain('c2 pid 4002');
    expect(plain(frame)).toContain('c5 → c4 → c3 → c2 → c1★');
    expect(lineWith(frame, 'PARTITIONED')).toMatch(/^zk3/);
    expect(lines(frame).at(-1)).toBe(FOOTER_KEYS);
  });

  it('shows the herd crowd and the priority recipe state', () => {
    expect(plain(app(herd, 100, 30))).toContain('/election ← c2 c3 c4 c5 (4 child watches)');
    expect(lineWith(app(priority('PROGRESS'), 100, 30), '─ current')).toMatch(/★ LEADER.*"PROGRESS"/);
    expect(lines(app(singleFile, 100, 30))[0]).toContain('leader c2');
  });

  it('lists problems under the header and counts them', () => {
    const withProblems = { ...herd, problems: ['c3 believes it leads, but the leader znode … belongs to c1'] };
    const frame = app(withProblems, 100, 30);
    expect(lines(frame)[0]).toContain('· 1 problem ·');
    expect(lines(frame)[1]).toBe('! c3 believes it leads, but the leader znode … belongs to c1');
  });

  it('says "no leader" when ZooKeeper shows none', () => {
    const leaderless = { ...herd, nodes: herd.nodes.map((n) => ({ ...n, leader: false })) };
    expect(lines(app(leaderless, 100, 30))[0]).toContain('no leader');
  });

  it('drops every pane but the tree below 60 columns, keeping the leader visible', () => {
    const frame = app(predecessor, 50, 30);
    expect(plain(frame)).not.toContain('── ');
    expect(lineWith(frame, '★ LEADER')).toContain('c1');
    expect(lines(frame).at(-1)).toBe('↑↓ k t p i s q');
  });

  it('drops every pane but the tree below 15 rows', () => {
    const frame = app(predecessor, 100, 12);
    expect(plain(frame)).not.toContain('── ');
    expect(lines(frame).length).toBeLessThanOrEqual(12);
  });

  it('drops the event log, then the watch graph, before the tree gets too short', () => {
    const servers = ['zk1', 'zk2', 'zk3', 'zk4', 'zk5'].map((name) => ({ ...herd.servers[1]!, name }));
    const snapshot = { ...large(50), servers };
    const at = (height: number) => plain(app(snapshot, 100, height));
    expect(at(18)).toContain('── events');
    expect(at(15)).not.toContain('── events');
    expect(at(15)).toContain('── watches');
    // MIN_TREE_ROWS (5) lines: four rows and the "rows … of …" line.
    expect(at(15)).toContain('rows 1–4 of 51');
  });

  it("shows a scheduler's pane under its tree, and its name in the header", () => {
    const frame = app(scheduler(), 120, 45);
    expect(masked(lines(frame)[0])).toBe(
      'zklab inspect /scheduler · scheduler · leader c1 #1 · 20 znodes · --:--:--.---',
    );
    expect(lineWith(frame, '── scheduler /scheduler')).toMatch(/^── /);
    expect(plain(frame)).toContain(
      '2 workers (+1 gone) · 2 queued · 2 assigned · 3 done (1 ok, 1 failed, 1 unreadable) · leader c1',
    );
    expect(lineWith(frame, 'c1-1   c1')).toContain('1 assigned: job-0000000012 (attempt 2)');
    expect(plain(app(predecessor, 120, 45))).not.toContain('── scheduler');
  });

  it('shows one line when the terminal is too small', () => {
    expect(lines(app(predecessor, 100, 4))).toEqual(['terminal too small (100×4, need 30×5)']);
    expect(lines(app(predecessor, 25, 20))).toEqual(['too small 25×20']);
    expect(lines(app(predecessor, 12, 3))).toEqual(['too small']);
    expect(() => app(predecessor, 0, 0)).not.toThrow();
  });

  it('never renders more lines or wider lines than the terminal has', () => {
    const sizes: [number, number][] = [
      [30, 5],
      [45, 9],
      [59, 40],
      [60, 15],
      [72, 17],
      [80, 24],
      [100, 20],
      [100, 50],
    ];
    for (const snapshot of [predecessor, herd, singleFile, priority(), scheduler(), large(500)]) {
      for (const [w, h] of sizes) {
        const rows = lines(app(snapshot, w, h, 7));
        expect(rows.length, `${w}×${h}`).toBeLessThanOrEqual(h);
        for (const r of rows) expect(r.length, `${w}×${h}: ${r}`).toBeLessThanOrEqual(w);
      }
    }
  });
});

describe('Footer', () => {
  it('puts the last action before the keys', () => {
    const frame = render(<Footer width={120} message="killed c3" />).lastFrame();
    expect(plain(frame)).toBe(`killed c3 · ${FOOTER_KEYS}`);
  });
});
