import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveDrill } from '../../src/drills/format/builtins.js';
import { expandVariants } from '../../src/drills/format/variants.js';
import { checkVerdicts, type DrillResult, drillPassed } from '../../src/drills/judge/result.js';
import { runDrill } from '../../src/drills/run/runner.js';
import { findMarked } from '../../src/lab/node/procs.js';
import { LabPaths } from '../../src/lab/paths.js';
import { explainDrill } from '../helpers/drill-explain.js';
import { tempDir } from '../helpers/paths.js';

/**
 * The clock lessons (issue 32), each run once with the verdicts its drill file states. The light ones run two at a
 * time; the Curator ones one at a time, after them: six JVMs a lab, and beside another lab's start on two cores a
 * fresh ensemble missed its first session's deadline.
 */

const results = new Map<string, DrillResult>();

async function runLesson(name: string, drill: ReturnType<typeof resolveDrill>): Promise<void> {
  const dir = `${tempDir()}/lab`;
  const r = await runDrill(drill, { labDir: dir, seed: 1 });
  results.set(name, r);
  expect(drillPassed(r), explainDrill(r)).toBe(true);
  expect(r.steps.every((s) => s.outcome === 'ok')).toBe(true);
  // The expected failures really fail: what proves the lesson is shown.
  for (const v of checkVerdicts(r)) expect(v.check.passed, `${name} ${v.check.name}`).toBe(!v.expectedToFail);
  expect(findMarked(new LabPaths(dir).markers)).toEqual([]);
  expect(existsSync(dir)).toBe(false);
}

const runs = (names: string[]) =>
  names.flatMap((n) => expandVariants(resolveDrill(n)).map((d) => [d.name, d] as const));

const ran = (name: string): DrillResult => {
  const r = results.get(name);
  expect(r, `${name} ran above`).toBeDefined();
  return r!;
};
const measured = (r: DrillResult, check: string, name: string) =>
  r.checks.find((c) => c.name === check)?.measurements.find((m) => m.name === name)?.value;

describe('clock lessons on servers, kazoo and a wall-clock lease', () => {
  it.concurrent.for(runs(['clock-server-jump', 'kazoo-clock-jump', 'clock-drift']))(
    '%s passes',
    { timeout: 180_000 },
    async ([name, drill]) => runLesson(name, drill),
  );
});

describe('clock lessons on Curator', () => {
  it.for(runs(['curator-clock-back', 'curator-clock-forward']))(
    '%s passes',
    { timeout: 180_000 },
    async ([name, drill]) => runLesson(name, drill),
  );
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
