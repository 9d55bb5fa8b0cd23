import chalk from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInspectFrame, renderSnapshotText } from '../../../src/inspect/render-text.js';
import { large, predecessor, priority, scheduler } from './fixtures.js';
import { lineWith, lines, masked } from './frame.js';

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

describe('renderSnapshotText', () => {
  it('prints the whole tree and the panes, without selection or key help', () => {
    chalk.level = 0;
    const text = renderSnapshotText(predecessor);
    expect(masked(lines(text)[0])).toBe(
      'zklab inspect /election · sequential · leader c1 #1 · 7 znodes · --:--:--.---',
    );
    expect(lineWith(text, '★ LEADER')).toContain('c1 pid 4001');
    expect(text).toContain('c5 → c4 → c3 → c2 → c1★');
    expect(text).toContain('links: zk3 ⇄ zk1 partition · zk3 ⇄ zk2 partition');
    expect(masked(text)).toContain('--:--:--.--- lab  partition          server=zk3');
    expect(text).not.toContain('›');
    expect(text).not.toContain('q quit');
  });

  it("prints a scheduler's every row and its pane, TTLs from status data", () => {
    chalk.level = 0;
    // Wide enough for the whole headline: at the default 100 columns its tail (the next TTL) is cut, as rows are.
    const text = renderSnapshotText(scheduler(), { width: 120 });
    expect(lineWith(text, '─ job-0000000010')).toContain('ttl 12.3s ok = 5');
    expect(lineWith(text, '── scheduler /scheduler')).toMatch(/^── /);
    expect(lineWith(text, 'queue job-0000000014')).toBe('queue job-0000000014 job-0000000015');
    expect(lineWith(text, 'c2-1   c2   gone')).toContain('job-0000000013 (attempt 1)');
    expect(text.split('\n').filter((l) => l.includes('ttl '))).toHaveLength(3); // two status rows and the headline
  });

  it('fits 100 columns unless told otherwise, names whole', () => {
    chalk.level = 0;
    for (const snapshot of [predecessor, priority(), scheduler(), large(120)]) {
      for (const line of lines(renderSnapshotText(snapshot))) expect([...line].length, line).toBeLessThanOrEqual(100);
    }
    expect(lineWith(renderSnapshotText(scheduler()), '─ job-0000000010')).toContain('ttl 12.3s ok = 5');
  });

  it('prints every row of a large tree', () => {
    chalk.level = 0;
    expect(lines(renderSnapshotText(large(120))).filter((l) => / pid \d+/.test(l))).toHaveLength(120);
  });

  it('emits colour codes only when chalk has colours on', () => {
    chalk.level = 0;
    expect(renderSnapshotText(priority())).not.toContain('\u001b[');
    chalk.level = 1;
    expect(renderSnapshotText(priority())).toContain('\u001b[');
  });
});

describe('renderInspectFrame', () => {
  it('renders the live frame of a 500-znode election within the terminal, selection visible', () => {
    const frame = renderInspectFrame(large(500), 120, 40, 420);
    expect(lines(frame).length).toBeLessThanOrEqual(40);
    expect(lineWith(frame, '›')).toContain('c420 pid');
    expect(frame).toContain('of 501');
  });
});
