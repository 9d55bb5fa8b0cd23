import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioDrill, scenarioDrillText } from '../../../src/audit/build.js';
import type { Verdict } from '../../../src/audit/grade.js';
import { SCENARIOS } from '../../../src/audit/scenarios.js';
import { parseSlo } from '../../../src/audit/slo.js';
import { PACKAGE_ROOT } from '../../../src/templates.js';
import { regradeRecorded } from '../../helpers/audit-records.js';

/**
 * The audit's own test suite, judged again from recorded runs: the zoo (test/programs/zoo_service.py) went through the
 * whole battery on a real lab (`zklab audit --drills DIR`, one directory per build), and each build must be graded
 * as its flaw says, by today's judges: the right one passes everything that applies, each wrong one fails exactly the
 * scenarios its flaw shows. test/integration/audit.test.ts runs the quick battery live, and the scenarios whose faults
 * it does not use; a record whose steps are not today's steps of its scenario fails here (record the zoo again).
 */

const RECORDS = join(PACKAGE_ROOT, 'test', 'fixtures', 'audit-zoo');
const SESSION_MS = 2000;

/** What each build must get, scenario by scenario; a scenario not named passes. */
const EXPECTED: Readonly<Record<string, Readonly<Record<string, Verdict>>>> = {
  none: { herd: 'skipped' },
  suspended: {
    'cut-off': 'fail',
    'one-way-out': 'fail',
    'one-way-in': 'fail',
    'clock-jump': 'unknown',
    herd: 'skipped',
  },
  dataplane: { 'program-crash': 'fail', herd: 'skipped' },
  // Once leading it never looks at its session again: every fault that costs it its session shows that, not only
  // a freeze (a kazoo client thawed hears its session is lost within a moment, so a freeze alone shows nothing less).
  thaw: {
    freeze: 'fail',
    'cut-off': 'fail',
    'node-isolated': 'fail',
    'one-way-out': 'fail',
    'one-way-in': 'fail',
    lossy: 'fail',
    'quorum-lost': 'fail',
    'clock-jump': 'unknown',
    herd: 'skipped',
  },
  // Graded with churn bounded at 0: it resigns at every SUSPENDED, so each server its leader loses hands leadership
  // on, where no change was needed. 30 % loss for 15 s did not suspend its session often enough to show it.
  flap: { 'zk-leader-lost': 'fail', 'rolling-restart': 'fail', 'quorum-lost': 'fail', herd: 'skipped' },
  wallclock: { 'clock-jump': 'fail', herd: 'skipped' },
};

const regrade = (build: string, records = RECORDS, sessionMs = SESSION_MS) =>
  regradeRecorded({
    dir: join(records, build),
    sessionMs,
    ...(build === 'flap' ? { slo: 'churn=0' } : {}),
    grade: { probed: true, curatorSessionPolicy: false },
  });

describe('the zoo, graded again from its recorded runs', () => {
  const builds = existsSync(RECORDS) ? readdirSync(RECORDS) : [];

  it('holds a record of every build, and of every scenario of each', () => {
    expect(builds.sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const b of builds)
      expect(readdirSync(join(RECORDS, b)).filter((f) => f.endsWith('.run.json')).length, b).toBe(SCENARIOS.length);
  });

  it.each(Object.keys(EXPECTED))('%s gets the verdicts its flaw calls for', (build) => {
    const got = Object.fromEntries(regrade(build).map((g) => [g.scenario, g.verdict]));
    const want = Object.fromEntries(SCENARIOS.map((s) => [s.name, EXPECTED[build]![s.name] ?? 'pass']));
    expect(got).toEqual(want);
  });
});

describe("the zoo's records are of today's scenarios", () => {
  const ctx = {
    members: 3,
    servers: 3,
    sessionMs: SESSION_MS,
    joinMs: 30_000,
    failoverMs: 3 * SESSION_MS,
    probed: true,
  };
  const zoo = {
    exec: ['python3', 'zoo_service.py', '--flaw', 'none'],
    path: '/election',
    probe: 'python3 probe.py {n}',
  };
  /** The kinds of a scenario's steps as its drill file says them today (the runner's spawn comes before them). */
  const todays = (name: string) => {
    const s = SCENARIOS.find((x) => x.name === name)!;
    const text = scenarioDrillText(s, zoo, { servers: 3, net: 'proxy' }, ctx, parseSlo(undefined, SESSION_MS));
    return ['spawn', ...scenarioDrill(text, name, '/tmp').steps.map((step) => step.kind)];
  };

  it.each(Object.keys(EXPECTED))('%s: every recorded run took the steps its scenario takes today', (build) => {
    for (const s of SCENARIOS) {
      const recorded = JSON.parse(readFileSync(join(RECORDS, build, `audit-${s.name}.run.json`), 'utf8')) as {
        steps: { kind: string }[];
      };
      expect(
        recorded.steps.map((step) => step.kind),
        `${build}/${s.name}`,
      ).toEqual(todays(s.name));
    }
  });
});
