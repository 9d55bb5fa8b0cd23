import { formatDuration, formatOffset } from '../../duration.js';
import { escapeHtml as esc } from './html-escape.js';
import { checkVerdicts, drillPassed, resultHistory, type DrillResult } from '../judge/result.js';
import { renderTimelineSvg } from './timeline-svg.js';

export const REPORT_STYLE = `
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
.verdict { display: inline-block; padding: .2em .7em; border-radius: 4px; color: #fff; font-weight: bold; }
.passed { background: #2e9d4f; } .failed { background: #d62728; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: .25em .6em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #2e7d32; } .bad { color: #c62828; font-weight: bold; } .broke { white-space: pre-wrap; }
ul.details li.violation { color: #c62828; } ul.details li.warning { color: #a86400; } ul.details li.info { color: #555; }
`;

const cell = (text: string, cls = '') => `<td${cls ? ` class="${cls}"` : ''}>${esc(text)}</td>`;

/** A self-contained HTML page (inline CSS and SVG, no external assets); every piece of text is escaped. */
export function renderHtmlReport(r: DrillResult): string {
  const passed = drillPassed(r);
  const out: string[] = [];
  out.push('<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">');
  out.push(`<title>${esc(`zklab drill ${r.drill.name}: ${passed ? 'PASSED' : 'FAILED'}`)}</title>`);
  out.push(`<style>${REPORT_STYLE}</style></head><body>`);
  out.push(...drillReportBody(r, 1));
  out.push('</body></html>');
  return `${out.join('\n')}\n`;
}

/**
 * A drill run's report as the body of a page: its verdicts, timeline, steps, measurements and check details. `level`
 * is the heading level of its title (the audit's report nests one run per scenario under its card).
 */
export function drillReportBody(r: DrillResult, level: 1 | 2): string[] {
  const h1 = `h${level}`;
  const h2 = `h${level + 1}`;
  const h3 = `h${level + 2}`;
  const passed = drillPassed(r);
  const s = r.startedAt;
  const h = resultHistory(r);
  const verdicts = checkVerdicts(r);
  const out: string[] = [];
  out.push(`<${h1}>zklab drill report: ${esc(r.drill.name)}</${h1}>`);
  out.push(
    `<p><span class="verdict ${passed ? 'passed' : 'failed'}">${passed ? 'PASSED' : 'FAILED'}</span> ` +
      `${esc(r.drill.file)}, started ${esc(new Date(s).toISOString())}, ran ${esc(formatDuration(r.endedAt - s))}` +
      `${r.seed === undefined ? '' : `, seed ${r.seed}`}</p>`,
  );
  if (r.drill.description) out.push(`<p class="description">${esc(r.drill.description)}</p>`);
  // Its own lines kept (a program's last stderr lines): pre-wrap, not collapsed into one.
  if (r.error !== undefined) out.push(`<p class="bad broke">The run broke: ${esc(r.error)}</p>`);

  out.push(`<${h2}>Verdicts</${h2}><ul class="verdicts">`);
  for (const e of r.expectations) {
    out.push(
      `<li class="expectation ${e.passed ? 'ok' : 'bad'}">${e.passed ? 'PASSED' : 'FAILED'}: expect ` +
        `${esc(e.description)} (step ${esc(e.step)}, line ${e.line}): ${esc(e.detail)}</li>`,
    );
  }
  for (const v of verdicts) {
    out.push(
      `<li class="check ${v.ok ? 'ok' : 'bad'}">${esc(v.label)}: check ${esc(v.check.name)}: ${esc(v.check.summary)}</li>`,
    );
  }
  out.push('</ul>');

  out.push(`<${h2}>Timeline</${h2}>`);
  out.push(
    renderTimelineSvg(
      h,
      r.steps.map((st) => ({ t: st.start, label: st.index, title: `${st.index}: ${st.description}` })),
    ),
  );

  out.push(
    `<${h2}>Steps</${h2}><table class="steps"><tr><th>#</th><th>at</th><th>took</th><th>line</th><th>step</th><th>outcome</th></tr>`,
  );
  for (const st of r.steps) {
    out.push(
      `<tr>${cell(st.index)}${cell(formatOffset(st.start, s), 'num')}${cell(formatDuration(st.end - st.start), 'num')}` +
        `${cell(String(st.line), 'num')}${cell(st.description)}` +
        `${cell(st.outcome + (st.detail ? `: ${st.detail}` : ''), st.outcome === 'ok' || st.outcome === 'skipped' ? 'ok' : 'bad')}` +
        '</tr>',
    );
  }
  out.push('</table>');

  out.push(
    `<${h2}>Measurements</${h2}><table class="measurements"><tr><th>check</th><th>measurement</th><th>at</th><th>value</th></tr>`,
  );
  for (const v of verdicts) {
    for (const m of v.check.measurements) {
      const value = m.value === null ? 'never' : m.unit === 'ms' ? formatDuration(m.value) : String(m.value);
      out.push(
        `<tr>${cell(v.check.name)}${cell(m.name)}${cell(m.t === undefined ? '' : formatOffset(m.t, s), 'num')}` +
          `${cell(value, m.value === null ? 'num bad' : 'num')}</tr>`,
      );
    }
  }
  out.push('</table>');

  out.push(`<${h2}>Check details</${h2}>`);
  for (const v of verdicts) {
    out.push(`<${h3}>${esc(v.check.name)}: ${esc(v.label)}</${h3}><ul class="details">`);
    for (const d of v.check.details) out.push(`<li class="${d.level}">${esc(d.level)}: ${esc(d.message)}</li>`);
    out.push('</ul>');
  }
  return out;
}
