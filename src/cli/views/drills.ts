import chalk from 'chalk';
import type { Drill } from '../../drills/format/drill.js';
import type { StepReference } from '../../drills/format/step-reference.js';
import { drillPassed, type DrillResult, toJsonReport } from '../../drills/judge/result.js';
import { renderTextReport } from '../../drills/report/text.js';
import { renderVariantComparison } from '../../drills/report/variants.js';
import { wrapWords } from '../../text.js';

/** `drill list --json`. */
export function drillListJson(drills: readonly Drill[]): string {
  return JSON.stringify(
    { drills: drills.map((d) => ({ name: d.name, description: d.description ?? '', file: d.file })) },
    null,
    2,
  );
}

/** `drill list`: each name, its description wrapped to `width` under a hanging indent, and how to run one. */
export function renderDrillList(drills: readonly Drill[], width: number): string {
  const pad = Math.max(...drills.map((d) => d.name.length)) + 2;
  const rows = drills.map((d) => `${chalk.bold(d.name.padEnd(pad))}${hanging(d.description ?? '', pad, width)}`);
  return `${rows.join('\n')}\n\nrun one: \`zklab drill run ${drills[0]?.name ?? '<name>'}\` (or give the path of a drill file of your own)`;
}

/** Prose on one line after a column `indent` wide, its continuation lines under that column. */
function hanging(text: string, indent: number, width: number): string {
  const words = text.trim().split(/\s+/).join(' ');
  return wrapWords(words, width - indent).replaceAll('\n', `\n${' '.repeat(indent)}`);
}

/**
 * `drill steps`: each kind, what it does, its fields and its examples (each a list item as a drill's `steps:` holds
 * it), under a hanging indent that keeps the kinds in a column of their own. Examples are never wrapped: YAML cut
 * in two is no example.
 */
export function renderStepReference(steps: readonly StepReference[], width: number): string {
  const pad = Math.max(...steps.map((s) => s.kind.length)) + 2;
  const under = ' '.repeat(pad);
  return steps
    .map((s) =>
      [
        `${chalk.bold(s.kind.padEnd(pad))}${hanging(s.summary, pad, width)}`,
        ...(s.fields.length === 0 ? [] : [`${under}${hanging(`fields: ${s.fields.join(', ')}`, pad, width)}`]),
        ...s.examples.map((e) => `${under}- ${e}`),
      ].join('\n'),
    )
    .join('\n');
}

/** A table cell: its pipes escaped. */
const mdCell = (text: string): string => text.replaceAll('|', '\\|');
const code = (text: string): string => `\`${mdCell(text)}\``;

/** `drill steps --markdown`: the same reference as a Markdown table (the README's *Drill steps* is this). */
export function renderStepReferenceMarkdown(steps: readonly StepReference[]): string {
  const rows = steps.map((s) =>
    [code(s.kind), mdCell(s.summary), s.fields.map(code).join(', '), s.examples.map(code).join('<br>')].join(' | '),
  );
  return ['| step | what it does | fields | examples |', '|---|---|---|---|', ...rows.map((r) => `| ${r} |`)].join(
    '\n',
  );
}

/** `drill steps --json`. */
export const stepReferenceJson = (steps: readonly StepReference[]): string => JSON.stringify({ steps }, null, 2);

/** The text report with its verdict words coloured (chalk leaves them plain without a colour terminal). */
function colourReport(text: string): string {
  return text
    .replace(
      /^(drill \S+: )(PASSED|FAILED)/,
      (_, head: string, v: string) => head + (v === 'PASSED' ? chalk.green.bold(v) : chalk.red.bold(v)),
    )
    .replace(
      /^( {2})(PASSED \(expected to fail\)|FAILED \(expected\)|PASSED|FAILED|NOT JUDGED)/gm,
      (_, pad: string, v: string) =>
        pad +
        (v === 'NOT JUDGED'
          ? chalk.yellow(v)
          : v.startsWith('PASSED (') || v === 'FAILED'
            ? chalk.red(v)
            : chalk.green(v)),
    );
}

/**
 * What `drill run` prints of its runs, one block each: every report, then how the variants compare (`compare`: a
 * drill of several variants) and, for several runs, how many passed.
 */
export function renderDrillRuns(results: readonly DrillResult[], opts: { readonly compare: boolean }): string[] {
  const passed = results.filter(drillPassed).length;
  return [
    ...results.map((r) => colourReport(renderTextReport(r))),
    ...(opts.compare ? [renderVariantComparison(results)] : []),
    ...(results.length > 1 ? [`${passed} of ${results.length} runs passed`] : []),
  ];
}

/** `drill run --json`: the report of a single run, or every run's with a tally. */
export function drillRunsJson(drill: string, results: readonly DrillResult[]): string {
  const reports = results.map(toJsonReport);
  const passed = results.filter(drillPassed).length;
  const runs = results.length;
  return JSON.stringify(runs === 1 ? reports[0] : { drill, runs, passed, reports }, null, 2);
}
