import { describe, expect, it } from 'vitest';
import { zklab } from '../helpers/cli.js';

/**
 * Races of real clients no one here wrote (Curator, kazoo), reproduced as they happen in the wild by the built-in
 * isolation drills, each drill on a lab of its own. This file starts last (test/helpers/sequencer.ts): the races'
 * timing must be the machine's, not a neighbour's (curator-696's session variant did not reproduce beside another
 * lab file).
 */

describe('the isolation drills report what the real clients do', () => {
  interface Report {
    drill: string;
    passed: boolean;
    checks: {
      name: string;
      passed: boolean;
      expectedToFail: boolean;
      measurements: { name: string; value: number }[];
    }[];
  }
  const measured = (r: Report, name: string) =>
    r.checks.find((c) => c.name === 'singleLeader')!.measurements.find((m) => m.name === name)!.value;

  // The two drills run side by side: each has a lab of its own, and mostly waits on sessions.
  it.concurrent('curator-leader-isolated: the standard policy never lets two lead; the session policy lets the old leader act on', async () => {
    const r = await zklab(['drill', 'run', 'curator-leader-isolated', '--json'], { timeoutMs: 240_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const { reports } = JSON.parse(r.stdout) as { reports: Report[] };
    const [standard, session] = reports;
    expect(standard!.drill).toBe('curator-leader-isolated:standard');
    expect(standard!.checks.find((c) => c.name === 'singleLeader')).toMatchObject({
      passed: true,
      expectedToFail: false,
    });
    expect(measured(standard!, 'belief overlap (unfrozen)')).toBe(0);
    expect(session!.checks.find((c) => c.name === 'singleLeader')).toMatchObject({
      passed: false,
      expectedToFail: true,
    });
    expect(measured(session!, 'belief overlap (unfrozen)')).toBeGreaterThan(0);
  }, 240_000);

  it.concurrent('curator-696: after every server was down past the session, the old leader leads again beside the next, under both policies', async () => {
    const r = await zklab(['drill', 'run', 'curator-696', '--json'], { timeoutMs: 240_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const { reports } = JSON.parse(r.stdout) as { reports: Report[] };
    expect(reports.map((x) => x.drill)).toEqual(['curator-696:standard', 'curator-696:session']);
    for (const report of reports) {
      expect(report.checks.find((c) => c.name === 'singleLeader')).toMatchObject({
        passed: false,
        expectedToFail: true,
      });
      // It acts with the token of the znode it took back, after the next latch claimed with a higher one.
      expect(measured(report, 'stale actions'), report.drill).toBeGreaterThan(0);
    }
  }, 240_000);

  it.concurrent('kazoo-leader-isolated: the old leader goes on working after ZooKeeper chose another', async () => {
    const r = await zklab(['drill', 'run', 'kazoo-leader-isolated', '--json'], { timeoutMs: 120_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.checks.find((c) => c.name === 'singleLeader')).toMatchObject({ passed: false, expectedToFail: true });
    expect(
      measured(report, 'acts while ZooKeeper named another leader') + measured(report, 'stale actions'),
    ).toBeGreaterThan(0);
  }, 120_000);
});
