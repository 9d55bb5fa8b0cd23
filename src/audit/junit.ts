import type { AuditCard } from './card.js';
import { countVerdicts } from './card.js';
import { escapeHtml } from '../drills/report/html-escape.js';

/** Text as XML character data or an attribute value: HTML's escapes (XML's own), without the characters XML 1.0 forbids. */
export function xmlText(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 does not allow
  return escapeHtml(s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''));
}

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);

/**
 * JUnit XML as CI systems read it (Jenkins, GitLab, GitHub's test reporters): one suite, one test case per scenario;
 * a failed scenario is a <failure>, a skipped one <skipped>, one that could not be judged an <error>.
 */
export function auditJunit(card: AuditCard): string {
  const n = countVerdicts(card);
  const name = `zklab audit: ${card.subject.program}`;
  const cases = card.grades.map((g) => {
    const open = `    <testcase classname="zklab.audit" name="${xmlText(g.scenario)}" time="${seconds(g.durationMs)}"`;
    const out = [g.asks, ...(g.remedy ? [`remedy: ${g.remedy}`] : []), ...g.notes].join('\n');
    const system = `      <system-out>${xmlText(out)}</system-out>`;
    const why = xmlText(g.why ?? '');
    switch (g.verdict) {
      case 'pass':
        return `${open}>\n${system}\n    </testcase>`;
      case 'skipped':
        return `${open}>\n      <skipped message="${why}"/>\n${system}\n    </testcase>`;
      case 'unknown':
        return `${open}>\n      <error type="not judged" message="${why}"/>\n${system}\n    </testcase>`;
      default:
        return `${open}>\n      <failure type="${xmlText(failedGrades(g).join(', '))}" message="${why}">${xmlText(
          g.remedy ?? '',
        )}</failure>\n${system}\n    </testcase>`;
    }
  });
  const total = card.grades.length;
  const time = seconds(card.endedAt - card.startedAt);
  const counts = `tests="${total}" failures="${n.fail}" errors="${n.unknown}" skipped="${n.skipped}" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlText(name)}" ${counts}>`,
    `  <testsuite name="${xmlText(name)}" ${counts} timestamp="${new Date(card.startedAt).toISOString().slice(0, 19)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function failedGrades(g: AuditCard['grades'][number]): string[] {
  const out = (['safety', 'liveness', 'churn', 'recovery'] as const).filter((k) => g[k] === 'fail');
  return out.length > 0 ? out : ['failed'];
}
