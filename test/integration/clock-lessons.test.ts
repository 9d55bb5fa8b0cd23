import { describe, expect, it } from 'vitest';
import { zklab } from '../helpers/cli.js';

/**
 * The clock lessons (issue 32), each run once through the CLI, as a user runs them, with the verdicts its drill file
 * states (`drill run` exits 0 only then). Two at a time, the longest first; curator-clock-back's variants each on its
 * own (`--variant`): most of each is a 34 s wait on Curator.
 */

interface Report {
  readonly drill: string;
  readonly checks: readonly {
    readonly name: string;
    readonly passed: boolean;
    readonly expectedToFail: boolean;
    readonly details: readonly { readonly level: string; readonly message: string }[];
    readonly measurements: readonly { readonly name: string; readonly value: number }[];
  }[];
}

const results = new Map<string, Report>();

/** `drill[:variant]`, run as `drill run DRILL [--variant VARIANT]`. */
async function runLesson(lesson: string): Promise<void> {
  const [name, variant] = lesson.split(':');
  const r = await zklab(['drill', 'run', name!, ...(variant ? ['--variant', variant] : []), '--json'], {
    timeoutMs: 240_000,
  });
  const out = JSON.parse(r.stdout) as Report | { reports: Report[] };
  const reports = 'reports' in out ? out.reports : [out];
  for (const report of reports) results.set(report.drill, report);
  expect(
    r.exitCode,
    `${name}: ${r.stderr}\n${reports.map((x) => x.checks.map((c) => `${x.drill} ${c.name} passed=${c.passed}`).join('\n')).join('\n')}`,
  ).toBe(0);
  // The expected failures really fail: what proves the lesson is shown.
  for (const report of reports)
    for (const c of report.checks) expect(c.passed, `${report.drill} ${c.name}`).toBe(!c.expectedToFail);
}

const ran = (name: string): Report => {
  const r = results.get(name);
  expect(r, `${name} ran above`).toBeDefined();
  return r!;
};
const measured = (r: Report, check: string, name: string) =>
  r.checks.find((c) => c.name === check)?.measurements.find((m) => m.name === name)?.value;

describe('clock lessons on servers, kazoo, Curator and a wall-clock lease', () => {
  it.concurrent.for([
    'curator-clock-back:session',
    'curator-clock-back:standard',
    'clock-drift',
    'curator-clock-forward',
    'clock-server-jump',
    'kazoo-clock-jump',
  ])('%s', { timeout: 240_000 }, async (lesson) => runLesson(lesson));
});

describe('what the clock lessons show, from the runs above', () => {
  it("a leading server's clock jumped forward reaps TTL znodes early; jumped back, it stops reaping them", () => {
    const ttl = ran('clock-server-jump').checks.find((c) => c.name === 'statusTtl');
    const early = ttl?.details.filter((d) => d.level === 'warning' && /before its TTL 3s was up/.test(d.message));
    const late = ttl?.details.filter((d) => d.level === 'violation' && /still there at the end/.test(d.message));
    expect(early).toHaveLength(3);
    expect(late).toHaveLength(3);
  });

  it("Curator's session policy leads on about 30 s longer when the clock jumps back 30 s while SUSPENDED", () => {
    // Without the jump (curator-leader-isolated) the overlap is a few seconds.
    const behind = (name: string) => measured(ran(name), 'singleLeader', 'belief behind ZooKeeper');
    expect(behind('curator-clock-back:session')).toBeGreaterThan(25_000);
    expect(behind('curator-clock-back:standard')).toBe(0);
    expect(behind('curator-clock-forward:session')).toBeLessThan(15_000);
  });
});
