import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attributeRepeats, type GradeContext, gradeScenario, type ScenarioGrade } from '../../src/audit/grade.js';
import { SCENARIOS, scenarioNamed } from '../../src/audit/scenarios.js';
import { parseSlo } from '../../src/audit/slo.js';
import { runChecks } from '../../src/drills/judge/checkers.js';
import { buildHistory } from '../../src/drills/judge/history.js';
import type { DrillResult } from '../../src/drills/judge/result.js';

export interface Recorded {
  /** The directory `zklab audit --drills DIR` wrote: `audit-<scenario>.run.json` for each scenario that ran. */
  readonly dir: string;
  /** The session timeout the members ran with (the default failover bound is three of them). */
  readonly sessionMs: number;
  /** `--slo` as given then, if it was. */
  readonly slo?: string;
  readonly grade: GradeContext;
}

/**
 * A recorded battery graded again by today's judges: each run's history rebuilt from its recorded events and judged
 * with the checks its scenario's drill asks for, then graded as the audit grades it.
 */
export function regradeRecorded(r: Recorded): ScenarioGrade[] {
  const slo = parseSlo(r.slo, r.sessionMs);
  const grades = SCENARIOS.filter((s) => existsSync(join(r.dir, `audit-${s.name}.run.json`))).map((s) => {
    const recorded = JSON.parse(readFileSync(join(r.dir, `audit-${s.name}.run.json`), 'utf8')) as DrillResult;
    const h = buildHistory(recorded.contenderEvents, recorded.labEvents, {
      start: recorded.startedAt,
      end: recorded.endedAt,
    });
    const checks = runChecks(h, {
      singleLeader: {},
      ...(s.expected === 'failover' ? { failoverTime: { max: slo.failoverMs } } : {}),
      ...(s.name === 'herd' ? { herdSize: {} } : {}),
    });
    return gradeScenario(scenarioNamed(s.name)!, { ...recorded, checks }, slo, r.grade);
  });
  return attributeRepeats(grades);
}
