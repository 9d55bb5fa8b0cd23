import { formatDuration } from '../../duration.js';
import type { ContenderSpec } from '../../contenders/spec.js';
import type { Drill } from '../../drills/format/drill.js';
import { CHECKERS } from '../../drills/judge/checkers.js';
import { describeStep, type Step } from '../../drills/steps/registry.js';
import { wrapWords } from '../../text.js';

/** The contenders in a few words: how many, what runs (a recipe, a workload, a program), its session and path. */
function contenderWords(c: ContenderSpec): string {
  const what = c.program
    ? `the program ${c.program.join(' ')}`
    : c.scheduler
      ? 'scheduler workers'
      : c.lock
        ? `lock holders (${c.recipe}, fencing ${c.lock.fencing ? 'on' : 'off'})`
        : `${c.recipe} recipe`;
  return `${c.count} × ${what}, session timeout ${formatDuration(c.sessionTimeoutMs)}, path ${c.path}`;
}

const stepLine = (at: string, step: Step) =>
  `  ${at.padStart(4)}  line ${String(step.line).padEnd(4)} ${describeStep(step)}`;

/** Each step on a line of its own, numbered as a run numbers it (a repeat's body as 5.1, 5.2), with its line. */
function stepLines(steps: readonly Step[], path: readonly number[] = []): string[] {
  return steps.flatMap((step, i) => {
    const line = stepLine([...path, i + 1].join('.'), step);
    return step.kind === 'repeat' ? [line, ...stepLines(step.steps, [...path, i + 1])] : [line];
  });
}

/** "lockProgress {"within":15000}": a check with the options the drill gives it. */
function checkLines(drill: Drill): string[] {
  const config: Readonly<Record<string, unknown>> = drill.checks;
  return CHECKERS.filter((c) => config[c.name] !== undefined).map((c) => {
    const options = config[c.name] as Readonly<Record<string, unknown>>;
    const given = Object.keys(options).length > 0 ? ` ${JSON.stringify(options)}` : '';
    const expected = drill.expectFailure.includes(c.name) ? ' (expected to fail)' : '';
    return `  ${c.name}${given}${expected}`;
  });
}

/**
 * `zklab drill check`: what a valid drill would do, without a lab: the ensemble, the contenders, each step as the
 * run describes it (with the file's line), its variants and the checks it is judged by. `given`: the drill as the
 * user named it (a built-in's name, a file's path), for the command that runs it.
 */
export function renderDrillPlan(drill: Drill, given: string, width: number): string {
  const e = drill.ensemble;
  const observers = e.observers > 0 ? ` and ${e.observers} observer(s)` : '';
  /** Prose under a two-column indent, its continuation lines under a deeper one. */
  const prose = (text: string, hang = '') =>
    wrapWords(text.trim().split(/\s+/).join(' '), width - 2, hang)
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n');
  const variants = (drill.variants ?? []).map((v) => {
    const expected = v.expectFailure.length > 0 ? `; expected to fail: ${v.expectFailure.join(', ')}` : '';
    return prose(`${v.name}: ${contenderWords(v.contenders)}${expected}`, '  ');
  });
  return [
    `drill ${drill.name}: valid`,
    `file: ${drill.file}`,
    ...(drill.description ? [prose(drill.description)] : []),
    `ensemble: ${e.servers} server(s)${observers}, tick ${formatDuration(e.tick)}, net ${e.net}`,
    wrapWords(`contenders: ${contenderWords(drill.contenders)}`, width, '  '),
    'steps:',
    // Step 0, as a run numbers it: the contenders' arrival, from the contenders section.
    stepLine('0', { kind: 'spawn', line: drill.contendersLine ?? 1, count: drill.contenders.count }),
    ...stepLines(drill.steps),
    ...(variants.length > 0 ? ['variants (each on a fresh lab of its own):', ...variants] : []),
    'checks:',
    ...checkLines(drill),
    `run it: \`zklab drill run ${given}\``,
  ].join('\n');
}
