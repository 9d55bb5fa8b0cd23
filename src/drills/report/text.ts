import { formatDuration, formatOffset } from '../../duration.js';
import { checkVerdicts, drillPassed, type DrillResult } from '../judge/result.js';

/**
 * The terminal report: a headline, the steps that did not go to plan, then one verdict line per expectation and
 * per check. No colour: the CLI adds it.
 */
export function renderTextReport(r: DrillResult): string {
  const seed = r.seed === undefined ? '' : `, seed ${r.seed}`;
  const lines = [
    `drill ${r.drill.name}: ${drillPassed(r) ? 'PASSED' : 'FAILED'} (${formatDuration(r.endedAt - r.startedAt)}${seed})`,
  ];
  if (r.error !== undefined) lines.push(`  error: ${r.error}`);
  for (const s of r.steps.filter((x) => x.outcome === 'failed' || x.outcome === 'timeout')) {
    lines.push(
      `  step ${s.index} (line ${s.line}) ${s.outcome.toUpperCase()} at ${formatOffset(s.start, r.startedAt)}: ` +
        `${s.description}${s.detail ? ` - ${s.detail}` : ''}`,
    );
  }
  for (const e of r.expectations) {
    lines.push(`  ${e.passed ? 'PASSED' : 'FAILED'}  expect ${e.description} (line ${e.line}): ${e.detail}`);
  }
  for (const v of checkVerdicts(r)) {
    lines.push(`  ${v.label}  check ${v.check.name}: ${v.check.summary}`);
  }
  return `${lines.flatMap(printableLines).join('\n')}\n`;
}

/** How a line's own continuation lines are indented: past the two spaces every line under the headline has. */
const CONTINUED = '      ';

/**
 * A line of the report, which may hold recorded text of several lines (a program's last stderr lines in an error):
 * each of them on a line of its own, indented under the first. Control characters from
 * recorded text (an ANSI escape in an error message) must not drive the terminal: they show as `?`.
 */
function printableLines(text: string): string[] {
  const [first = '', ...rest] = text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ').trimEnd().split('\n');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  const printable = (line: string) => line.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return [printable(first), ...rest.map((line) => `${CONTINUED}${printable(line)}`.trimEnd())];
}
