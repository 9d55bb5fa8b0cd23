import { formatDuration } from '../duration.js';
import { escapeHtml as esc } from '../drills/report/html-escape.js';
import { drillReportBody, REPORT_STYLE } from '../drills/report/html.js';
import { type AuditCard, auditExitCode, countVerdicts } from './card.js';
import { cardFigure, subjectLine } from './words.js';

const CARD_STYLE = `
.pass { color: #2e7d32; font-weight: bold; } .fail { color: #c62828; font-weight: bold; }
.skipped, .unknown { color: #a86400; font-weight: bold; } section.run { border-top: 2px solid #ccc; margin-top: 2em; }
td.why { max-width: 34em; } table.card td:first-child { white-space: nowrap; }
`;

/** The audit's HTML report: the card on top, then each scenario's run as the drill report draws it. */
export function renderAuditHtml(card: AuditCard): string {
  const n = countVerdicts(card);
  const code = auditExitCode(card);
  const out: string[] = [];
  out.push('<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">');
  out.push(`<title>${esc(`zklab audit: ${card.subject.program}`)}</title>`);
  out.push(`<style>${REPORT_STYLE}${CARD_STYLE}</style></head><body>`);
  out.push(`<h1>zklab audit: ${esc(card.subject.program)}</h1>`);
  out.push(`<p>${esc(subjectLine(card))}</p>`);
  out.push(
    `<p>${n.pass} passed, ${n.fail} failed, ${n.skipped} skipped, ${n.unknown} not judged; exit ${code}; ` +
      `ran ${esc(formatDuration(card.endedAt - card.startedAt))} from ${esc(new Date(card.startedAt).toISOString())}</p>`,
  );
  if (card.broke !== undefined) out.push(`<p class="bad">zklab itself failed: ${esc(card.broke)}</p>`);
  out.push(
    '<table class="card"><tr><th>scenario</th><th>verdict</th><th>safety</th><th>liveness</th><th>churn</th>' +
      '<th>recovery</th><th>failover</th><th>no leader acting</th><th>what went wrong, and the usual remedy</th></tr>',
  );
  for (const g of card.grades) {
    const run = card.runs.has(g.scenario) ? `<a href="#${esc(g.scenario)}">${esc(g.scenario)}</a>` : esc(g.scenario);
    const why = [g.why, g.remedy ? `remedy: ${g.remedy}` : undefined, ...g.notes].filter((x) => x !== undefined);
    out.push(
      `<tr><td title="${esc(g.asks)}">${run}</td><td class="${g.verdict}">${esc(g.verdict.toUpperCase())}</td>` +
        (['safety', 'liveness', 'churn', 'recovery'] as const)
          .map((k) => `<td class="${g[k] === 'n/a' ? '' : g[k]}">${esc(g[k])}</td>`)
          .join('') +
        `<td class="num">${esc(cardFigure(g.figures.failoverMs))}</td>` +
        `<td class="num">${esc(cardFigure(g.figures.unavailableMs))}</td>` +
        `<td class="why">${why.map((w) => esc(w)).join('<br>')}</td></tr>`,
    );
  }
  out.push('</table>');
  for (const g of card.grades) {
    const r = card.runs.get(g.scenario);
    if (r === undefined) continue;
    out.push(`<section class="run" id="${esc(g.scenario)}">`, ...drillReportBody(r, 2), '</section>');
  }
  out.push('</body></html>');
  return `${out.join('\n')}\n`;
}
