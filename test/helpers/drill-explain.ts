import { checkVerdicts, type DrillResult } from '../../src/drills/judge/result.js';

/** What went wrong in a drill run, one line each: the message an assertion on `drillPassed` fails with. */
export function explainDrill(r: DrillResult): string {
  const bad = [
    r.error ?? '',
    ...r.steps
      .filter((s) => s.outcome === 'failed' || s.outcome === 'timeout')
      .map((s) => `step ${s.index}: ${s.description}: ${s.detail ?? ''}`),
    ...r.expectations.filter((e) => !e.passed).map((e) => `expect ${e.description} (step ${e.step}): ${e.detail}`),
    ...checkVerdicts(r)
      .filter((v) => !v.ok)
      .map((v) => `${v.label} ${v.check.name}: ${v.check.summary}`),
  ];
  return bad.filter(Boolean).join('\n');
}
