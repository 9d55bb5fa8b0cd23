import type { DrillResult } from '../drills/judge/result.js';
import type { ScenarioGrade, Verdict } from './grade.js';
import type { Slo } from './slo.js';

/** What was audited: the contenders as the audit ran them, and the lab's shape. */
export interface AuditSubject {
  /** The program (or recipe) in words: `python3 svc.py {connect}`, `recipe curator-latch`. */
  readonly program: string;
  readonly members: number;
  readonly servers: number;
  readonly net: string;
  readonly path: string;
  readonly leaderRule: string;
  readonly sessionTimeoutMs: number;
  readonly probe?: string;
}

/** The report card: every scenario's grade, and the runs they were graded from. */
export interface AuditCard {
  readonly subject: AuditSubject;
  readonly slo: Slo;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly grades: readonly ScenarioGrade[];
  /** Each run scenario's drill result (the HTML report draws their timelines), by scenario. */
  readonly runs: ReadonlyMap<string, DrillResult>;
  /** zklab itself failed in a scenario (not the program): the card cannot be trusted as a whole. */
  readonly broke?: string;
}

/** The audit's exit codes: CI tells a failing program from a run that could not judge it, or zklab's own failure. */
export const AUDIT_EXIT = {
  passed: 0,
  failed: 1,
  usage: 2,
  /** Some scenarios could not be judged (no probe, no steady state the lab could reach); none failed. */
  unjudged: 3,
  /** zklab itself failed in a scenario; none failed. */
  broke: 4,
} as const;

export function auditExitCode(card: AuditCard): number {
  if (card.grades.some((g) => g.verdict === 'fail')) return AUDIT_EXIT.failed;
  if (card.broke !== undefined) return AUDIT_EXIT.broke;
  if (card.grades.some((g) => g.verdict === 'unknown')) return AUDIT_EXIT.unjudged;
  return AUDIT_EXIT.passed;
}

export function countVerdicts(card: AuditCard): Record<Verdict, number> {
  const n: Record<Verdict, number> = { pass: 0, fail: 0, skipped: 0, unknown: 0 };
  for (const g of card.grades) n[g.verdict]++;
  return n;
}

/** `--json`: every grade and figure, times in ms. */
export function auditJson(card: AuditCard): string {
  return JSON.stringify(
    {
      version: 1,
      subject: card.subject,
      slo: card.slo,
      startedAt: new Date(card.startedAt).toISOString(),
      durationMs: card.endedAt - card.startedAt,
      exitCode: auditExitCode(card),
      verdicts: countVerdicts(card),
      ...(card.broke === undefined ? {} : { broke: card.broke }),
      scenarios: card.grades,
    },
    null,
    2,
  );
}
