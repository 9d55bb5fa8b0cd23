import chalk from 'chalk';
import { type AuditCard, auditExitCode, countVerdicts } from '../../audit/card.js';
import type { ScenarioGrade, Verdict } from '../../audit/grade.js';
import { cardFigure, subjectLine } from '../../audit/words.js';
import { formatDuration } from '../../duration.js';
import { table } from './table.js';
import { wrapWords } from '../../text.js';

const VERDICT: Readonly<Record<Verdict, (s: string) => string>> = {
  pass: chalk.green,
  fail: chalk.red.bold,
  skipped: chalk.yellow,
  unknown: chalk.yellow,
};

const word = (v: Verdict) => VERDICT[v](v === 'unknown' ? 'NOT JUDGED' : v.toUpperCase());

/** The line a scenario's grade gets as the audit goes. */
export function renderGradeLine(g: ScenarioGrade): string {
  const failover = g.figures.failoverMs === undefined ? '' : `, failover ${cardFigure(g.figures.failoverMs)}`;
  return `${word(g.verdict)}${failover}${g.why ? `: ${g.why}` : ''}`;
}

const grade = (s: string) => (s === 'fail' ? chalk.red(s) : s === 'unknown' ? chalk.yellow(s) : s);

/** The report card: one row per scenario, then what went wrong in each failed one and its usual remedy. */
export function renderAuditCard(card: AuditCard, width: number): string {
  const rows = card.grades.map((g) => [
    g.scenario,
    word(g.verdict),
    grade(g.safety),
    grade(g.liveness),
    grade(g.churn),
    grade(g.recovery),
    cardFigure(g.figures.failoverMs),
    cardFigure(g.figures.unavailableMs),
    g.figures.leaderChanges === undefined ? '-' : String(g.figures.leaderChanges),
  ]);
  const out = [
    `zklab audit: ${card.subject.program}`,
    `  ${wrapWords(subjectLine(card), width - 2, '  ')}`,
    '',
    table(['scenario', 'verdict', 'safety', 'liveness', 'churn', 'recovery', 'failover', 'no leader', 'changes'], rows),
  ];
  const told = card.grades.filter((g) => g.why !== undefined || g.notes.length > 0);
  if (told.length > 0) out.push('');
  for (const g of told) {
    const lines = [
      ...(g.why ? [`${g.scenario}: ${g.why}`] : [`${g.scenario}:`]),
      ...(g.remedy ? [`  remedy: ${g.remedy}`] : []),
      ...g.notes.map((n) => `  note: ${n}`),
    ];
    for (const l of lines) out.push(wrapWords(l, width, '    '));
  }
  const n = countVerdicts(card);
  out.push(
    '',
    `${n.pass} passed, ${n.fail} failed, ${n.skipped} skipped, ${n.unknown} not judged in ` +
      `${formatDuration(card.endedAt - card.startedAt)} (exit ${auditExitCode(card)})`,
  );
  return out.join('\n');
}
