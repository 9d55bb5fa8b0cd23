import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { scenarioDrill, scenarioDrillText } from '../../../src/audit/build.js';
import { type AuditCard, auditExitCode, auditJson } from '../../../src/audit/card.js';
import type { ScenarioGrade } from '../../../src/audit/grade.js';
import { auditJunit } from '../../../src/audit/junit.js';
import { SCENARIOS } from '../../../src/audit/scenarios.js';
import { parseSlo } from '../../../src/audit/slo.js';
import { UsageError } from '../../../src/errors.js';

const grade = (scenario: string, verdict: ScenarioGrade['verdict'], why?: string): ScenarioGrade => ({
  scenario,
  asks: `what ${scenario} asks & <why>`,
  verdict,
  ...(why ? { why, remedy: 'stop acting on SUSPENDED' } : {}),
  notes: [],
  safety: verdict === 'fail' ? 'fail' : 'pass',
  liveness: 'pass',
  churn: 'n/a',
  recovery: 'pass',
  figures: { failoverMs: 2100 },
  durationMs: 12_345,
});

const card = (grades: ScenarioGrade[], broke?: string): AuditCard => ({
  subject: {
    program: 'python3 svc.py "{connect}"',
    members: 3,
    servers: 3,
    net: 'proxy',
    path: '/election',
    leaderRule: 'lowest-sequence',
    sessionTimeoutMs: 2000,
  },
  slo: parseSlo(undefined, 2000),
  startedAt: Date.UTC(2026, 11, 2),
  endedAt: Date.UTC(2026, 11, 2) + 60_000,
  grades,
  runs: new Map(),
  ...(broke ? { broke } : {}),
});

describe('the SLO', () => {
  it('defaults failover to three session timeouts and takes bounds by name', () => {
    expect(parseSlo(undefined, 2000)).toMatchObject({ failoverMs: 6000, failoverFrom: '3 × session timeout (2s)' });
    expect(parseSlo('failover=10s,churn=0,herd=1', 2000)).toMatchObject({ failoverMs: 10_000, churn: 0, herd: 1 });
  });

  it.each([
    ['failover', /"failover" is not KEY=VALUE/],
    ['failover=soon', /--slo failover=soon: /],
    ['churn=-1', /a count is a whole number/],
    ['speed=1', /"speed" is not a bound the audit knows/],
  ])('refuses %s in one line', (text, message) => {
    expect(() => parseSlo(text, 2000)).toThrow(UsageError);
    expect(() => parseSlo(text, 2000)).toThrow(message);
  });
});

describe('exit codes', () => {
  it('tells a failing program from a run that could not judge it and from zklab failing', () => {
    expect(auditExitCode(card([grade('a', 'pass'), grade('b', 'skipped', 'no node network')]))).toBe(0);
    expect(auditExitCode(card([grade('a', 'fail', 'x'), grade('b', 'unknown', 'y')], 'boom'))).toBe(1);
    expect(auditExitCode(card([grade('a', 'pass'), grade('b', 'unknown', 'y')], 'boom'))).toBe(4);
    expect(auditExitCode(card([grade('a', 'pass'), grade('b', 'unknown', 'y')]))).toBe(3);
  });
});

describe('JUnit and JSON', () => {
  const c = card([
    grade('leader-crash', 'pass'),
    grade('freeze', 'fail', 'c1 acted 3× while ZooKeeper named c2 <since +4s>'),
    grade('lossy', 'skipped', 'needs the node network'),
    grade('herd', 'unknown', 'no probe'),
  ]);

  it('writes XML a real parser reads: one test case per scenario, each outcome in its element', () => {
    const xml = auditJunit(c);
    // Python's own XML parser, not ours: the report must be XML to anyone.
    const read = execFileSync(
      'python3',
      [
        '-c',
        `import sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.read())
suite = root.find('testsuite')
print(root.tag, suite.get('tests'), suite.get('failures'), suite.get('errors'), suite.get('skipped'))
for case in suite.findall('testcase'):
    kids = [k.tag for k in case if k.tag != 'system-out']
    print(case.get('name'), case.get('time'), ','.join(kids), (case.find('failure') if case.find('failure') is not None else case).get('message', ''))`,
      ],
      { input: xml, encoding: 'utf8' },
    );
    expect(read.trim().split('\n')).toEqual([
      'testsuites 4 1 1 1',
      'leader-crash 12.345  ',
      'freeze 12.345 failure c1 acted 3× while ZooKeeper named c2 <since +4s>',
      'lossy 12.345 skipped ',
      'herd 12.345 error',
    ]);
  });

  it('carries every grade and figure in JSON', () => {
    const json = JSON.parse(auditJson(c));
    expect(json.exitCode).toBe(1);
    expect(json.verdicts).toEqual({ pass: 1, fail: 1, skipped: 1, unknown: 1 });
    expect(json.scenarios[1]).toMatchObject({ scenario: 'freeze', verdict: 'fail', figures: { failoverMs: 2100 } });
  });
});

describe("the scenarios' drills", () => {
  const ctx = { members: 3, servers: 3, sessionMs: 2000, joinMs: 30_000, failoverMs: 6000, probed: true };
  const exec = {
    exec: ['python3', 'svc.py', '{connect}'],
    leaderRule: ['single-node', 'leader'],
    path: '/svc',
    probe: 'python3 probe.py {n}',
    count: 3,
  };

  it.each(SCENARIOS.map((s) => [s.name, s]))("%s reads as a drill file, with the user's contenders", (_, s) => {
    const drill = scenarioDrill(
      scenarioDrillText(s, exec, { servers: 3, net: 'proxy' }, ctx, parseSlo(undefined, 2000)),
      s.name,
      '/tmp',
    );
    expect(drill.contenders).toMatchObject({ count: 3, recipe: 'exec', path: '/svc', program: exec.exec });
    expect(drill.ensemble.net).toBe(s.net ?? 'proxy');
    expect(drill.steps.length).toBeGreaterThan(3);
  });
});
