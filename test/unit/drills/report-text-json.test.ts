import { describe, expect, it } from 'vitest';
import { renderTextReport } from '../../../src/drills/report/text.js';
import { checksNotJudged } from '../../../src/drills/judge/checkers.js';
import { checkVerdicts, type DrillResult, drillPassed, toJsonReport } from '../../../src/drills/judge/result.js';
import { renderHtmlReport } from '../../../src/drills/report/html.js';
import { sampleResult } from './sample-result.js';

describe('renderTextReport', () => {
  it('prints a headline and one verdict line per expectation and check', () => {
    const lines = renderTextReport(sampleResult()).trimEnd().split('\n');
    expect(lines[0]).toBe('drill zombie-leader: PASSED (12s)');
    expect(lines.slice(1).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual([
      'PASSED',
      'FAILED (expected)',
      'PASSED',
      'PASSED',
    ]);
    expect(lines[2]).toBe('  FAILED (expected)  check singleLeader: 1 violation(s): 1 stale leader(s) acted');
  });

  it('reports failed steps and a broken run', () => {
    const r = sampleResult();
    const text = renderTextReport({
      ...r,
      error: 'ensemble went away',
      steps: [
        ...r.steps,
        {
          index: '5',
          line: 20,
          kind: 'wait',
          description: 'wait for a leader (up to 10s)',
          start: r.startedAt + 9000,
          end: r.startedAt + 19_000,
          outcome: 'timeout',
        },
      ],
    });
    expect(text).toMatch(/^drill zombie-leader: FAILED/);
    expect(text).toContain('  error: ensemble went away\n');
    expect(text).toContain('  step 5 (line 20) TIMEOUT at +9s: wait for a leader (up to 10s)\n');
  });

  it('fails the drill when a check expected to fail passes', () => {
    const r = sampleResult();
    const checks = r.checks.map((c) =>
      c.name === 'singleLeader' ? { ...c, passed: true, summary: 'no stale leader acted' } : c,
    );
    const text = renderTextReport({ ...r, checks });
    expect(text).toMatch(/^drill zombie-leader: FAILED/);
    expect(text).toContain('  PASSED (expected to fail)  check singleLeader: no stale leader acted');
  });

  it("shows a program's stderr lines each on a line of its own, indented under the error", () => {
    const r = sampleResult();
    const error =
      "step 0 (line 3) spawn 3 contenders: c1's program exited with code 1 before it joined; its last stderr lines:\n" +
      '  Traceback (most recent call last):\r\n\t  File "svc.py", line 3\n  ValueError: no\n';
    const lines = renderTextReport({ ...r, error }).split('\n');
    const at = lines.findIndex((l) => l.startsWith('  error: '));
    expect(lines.slice(at, at + 4)).toEqual([
      "  error: step 0 (line 3) spawn 3 contenders: c1's program exited with code 1 before it joined; its last stderr lines:",
      '        Traceback (most recent call last):',
      '          File "svc.py", line 3',
      '        ValueError: no',
    ]);
    expect(lines[at + 4]).toMatch(/^ {2}(PASSED|FAILED)/);
    expect(renderTextReport({ ...r, error })).not.toContain('?');
  });

  it('does not pass terminal control sequences through', () => {
    const r = sampleResult();
    const text = renderTextReport({ ...r, error: 'bad \u001b[2Jthing' });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('bad ?[2Jthing');
  });
});

describe('toJsonReport', () => {
  it('is plain JSON with offsets from the start', () => {
    const json = toJsonReport(sampleResult());
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(json.verdict).toBe('passed');
    expect(json.durationMs).toBe(12_000);
    expect(json.steps[1]).toMatchObject({ index: '2', offsetMs: 1000, durationMs: 0, outcome: 'ok' });
    expect(json.expectations[0]).toMatchObject({ passed: true, offsetMs: 3000 });
  });

  it('carries the check verdicts, measurements, leadership and faults', () => {
    const json = toJsonReport(sampleResult());
    expect(json.checks.map((c) => [c.name, c.passed, c.expectedToFail, c.ok])).toEqual([
      ['singleLeader', false, true, true],
      ['failoverTime', true, false, true],
      ['herdSize', true, false, true],
    ]);
    expect(json.checks[1]?.measurements[0]).toEqual({
      name: 'failover after pause c1',
      value: 2000,
      unit: 'ms',
      offsetMs: 1000,
    });
    expect(json.leadership.map((l) => [l.contender, l.token, l.startMs, l.endReason])).toEqual([
      ['c1', 10, 200, 'expired'],
      ['c2', 11, 3000, 'killed'],
      ['c3', 12, 8500, 'end-of-history'],
    ]);
    expect(json.faults.map((f) => [f.kind, f.startMs, f.endMs])).toEqual([
      ['contender-paused', 1000, 6000],
      ['partition', 4000, 5000],
      ['contender-killed', 7000, 7000],
    ]);
  });
});

describe('a run that stopped part-way', () => {
  const stopped = (): DrillResult => {
    const r = sampleResult();
    const why = 'the drill stopped at step 2 (line 6): wait for c2 to lead (up to 1s) timed out';
    return { ...r, checks: checksNotJudged({ singleLeader: {}, liveness: {} }, why) };
  };

  it('says of every check that it was not judged, and why, in text, JSON and HTML; the drill fails', () => {
    const r = stopped();
    const text = renderTextReport(r);
    expect(text).toMatch(/^drill zombie-leader: FAILED/);
    expect(text).toContain(
      '  NOT JUDGED  check singleLeader: the drill stopped at step 2 (line 6): wait for c2 to lead (up to 1s) timed out\n',
    );
    expect(text).toContain('  NOT JUDGED  check liveness: the drill stopped at step 2');
    expect(text).not.toMatch(/PASSED +check/);
    const json = toJsonReport(r);
    expect(json.verdict).toBe('failed');
    expect(json.checks.map((c) => [c.name, c.judged, c.passed, c.ok])).toEqual([
      ['singleLeader', false, false, false],
      ['liveness', false, false, false],
    ]);
    expect(renderHtmlReport(r)).toContain('NOT JUDGED: check singleLeader: the drill stopped at step 2');
  });

  it('is not judged even for a check the drill expects to fail', () => {
    const r = stopped();
    expect(r.drill.expectFailure).toContain('singleLeader');
    expect(checkVerdicts(r).map((v) => [v.label, v.ok])).toEqual([
      ['NOT JUDGED', false],
      ['NOT JUDGED', false],
    ]);
    expect(drillPassed(r)).toBe(false);
  });
});
