/** The drill commands' work, loaded only when a drill command runs (the drill modules pull in yaml and zod). */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { listBuiltinDrills, resolveDrill } from '../../drills/format/builtins.js';
import type { Drill } from '../../drills/format/drill.js';
import { formatProgress } from '../../drills/run/progress.js';
import { renderHtmlReport } from '../../drills/report/html.js';
import { drillPassed } from '../../drills/judge/result.js';
import { runDrillVariants } from '../../drills/run/runner.js';
import { CheckFailedError, UsageError } from '../../errors.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { MAX_REPEAT } from '../../drills/core/limits.js';
import { wholeNumber } from '../../validate.js';
import { serverStep } from '../../drills/format/outside-ensemble.js';
import { connectArg } from '../../validate.js';
import { netModeArg } from '../../lab/node/net.js';
import { hostsArg } from '../hosts-option.js';
import { namedLabDir } from '../../lab/paths.js';
import { stepReference } from '../../drills/format/step-reference.js';
import {
  drillListJson,
  drillRunsJson,
  renderDrillList,
  renderDrillRuns,
  renderStepReference,
  renderStepReferenceMarkdown,
  stepReferenceJson,
} from '../views/drills.js';
import { renderDrillPlan } from '../views/drill-plan.js';
import { TEXT_COLUMNS } from '../../text.js';

export interface RunArgs extends GlobalArgs {
  drill: string;
  repeat?: string;
  seed?: string;
  json?: boolean;
  report?: string;
  connect?: string;
  net?: string;
  hosts?: string;
  place?: string;
  variant?: string;
}

/** The drill with only the variant asked for, or as it is when none was. */
function onlyVariant(drill: Drill, name: string | undefined): Drill {
  if (name === undefined) return drill;
  const names = drill.variants?.map((v) => v.name) ?? [];
  const variant = drill.variants?.find((v) => v.name === name);
  if (variant === undefined) {
    throw new UsageError(
      names.length === 0
        ? `--variant ${name}: drill ${drill.name} has no variants`
        : `--variant ${name}: drill ${drill.name} has no such variant`,
      names.length === 0 ? 'drop --variant' : `give one of: ${names.join(', ')}`,
    );
  }
  return { ...drill, variants: [variant] };
}

/**
 * The report files: FILE for one run, FILE-1.html, FILE-2.html… for several (FILE-<variant>[-k].html for a drill's
 * variants). Checked before anything starts.
 */
function reportFiles(report: string | undefined, runs: number, variants: readonly string[] = []): string[] {
  if (report === undefined) return [];
  const file = resolve(report);
  const dir = dirname(file);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(
      `cannot write the report to ${report}: ${dir} is not a directory`,
      'give --report a path in an existing directory, e.g. --report drill.html',
    );
  }
  if (!/\.html?$/i.test(file)) {
    throw new UsageError(
      `--report ${report}: the report is an HTML page, and this name says otherwise`,
      `name it .html, e.g. --report ${basename(file).replace(/\.[^.]*$/, '')}.html`,
    );
  }
  const base = file.replace(/\.html?$/i, '');
  if (variants.length > 0)
    return variants.flatMap((v) =>
      runs === 1 ? [`${base}-${v}.html`] : Array.from({ length: runs }, (_, k) => `${base}-${v}-${k + 1}.html`),
    );
  if (runs === 1) return [file];
  return Array.from({ length: runs }, (_, k) => `${base}-${k + 1}.html`);
}

/** `drill steps`: the reference of every step kind, from the step registry. */
export function stepsHandler(ctx: CommandContext, form: 'text' | 'json' | 'markdown'): void {
  const steps = stepReference();
  if (form === 'json') ctx.out(stepReferenceJson(steps));
  else if (form === 'markdown') ctx.out(renderStepReferenceMarkdown(steps));
  else ctx.out(renderStepReference(steps, Math.max(60, Math.min(100, process.stdout.columns || 100))));
}

export function listHandler(ctx: CommandContext, json: boolean): void {
  const drills = listBuiltinDrills().map((name) => resolveDrill(name));
  const width = Math.max(60, Math.min(110, process.stdout.columns || 100));
  ctx.out(json ? drillListJson(drills) : renderDrillList(drills, width));
}

/** `drill check`: the drill read and checked as `run` reads it (a bad file fails here, at its line), and its plan. */
export function checkHandler(ctx: CommandContext, given: string): void {
  const drill = resolveDrill(given);
  ctx.out(renderDrillPlan(drill, given, Math.max(60, Math.min(TEXT_COLUMNS, process.stdout.columns || TEXT_COLUMNS))));
}

export async function runHandler(ctx: CommandContext, a: RunArgs): Promise<void> {
  const repeat = a.repeat === undefined ? 1 : wholeNumber(a.repeat, '--repeat', 1, MAX_REPEAT, 'e.g. --repeat 5');
  const seed =
    a.seed === undefined ? undefined : wholeNumber(a.seed, '--seed', 0, 2 ** 31 - 1 - MAX_REPEAT, 'e.g. --seed 42');
  // A bad drill file fails here, before anything is started.
  const drill = onlyVariant(resolveDrill(a.drill), a.variant);
  const connect = a.connect === undefined ? undefined : connectArg(a.connect);
  const net = a.net === undefined ? undefined : netModeArg(a.net);
  if (net !== undefined && connect !== undefined) {
    throw new UsageError(
      '--net and --connect: a drill against an ensemble outside the lab makes no network',
      'drop one of them',
    );
  }
  const hosts = await hostsArg(a);
  if (hosts !== undefined && (net !== undefined || connect !== undefined)) {
    throw new UsageError(
      `--hosts and ${net !== undefined ? '--net' : '--connect'}: a lab on hosts has its own ensemble and network`,
      'drop one of them',
    );
  }
  const onServer = connect === undefined ? undefined : serverStep(drill);
  if (onServer !== undefined) {
    throw new UsageError(
      `drill ${drill.name} acts on a server (${onServer}); with --connect only contenders can be killed, paused, partitioned or delayed`,
      'run it without --connect on a lab of its own, or drop its server steps',
    );
  }
  const files = reportFiles(
    a.report,
    repeat,
    drill.variants?.map((v) => v.name),
  );
  const variants = drill.variants
    ? ` (${drill.variants.length} variants: ${drill.variants.map((v) => v.name).join(', ')})`
    : '';
  ctx.err(`drill ${drill.name}${variants}${repeat > 1 ? ` × ${repeat}` : ''}: ${drill.file}`);
  const labDir = namedLabDir(a.lab);
  const results = await runDrillVariants(drill, repeat, {
    signal: ctx.signal,
    ...(labDir === undefined ? {} : { labDir }),
    ...(seed === undefined ? {} : { seed }),
    ...(a['zk-home'] === undefined ? {} : { zkHome: a['zk-home'] }),
    ...(connect === undefined ? {} : { connect }),
    ...(net === undefined ? {} : { net }),
    ...(hosts === undefined ? {} : { hosts }),
    onProgress: (p) => ctx.err(formatProgress(p)),
    onVariant: (name) => ctx.err(`variant ${name}`),
  });
  results.forEach((r, k) => {
    const file = files[k];
    if (file === undefined) return;
    writeFileSync(file, renderHtmlReport(r));
    ctx.err(`report: ${file}`);
  });
  const total = results.length;
  const passed = results.filter(drillPassed).length;
  if (a.json) ctx.out(drillRunsJson(drill.name, results));
  else for (const block of renderDrillRuns(results, { compare: (drill.variants?.length ?? 0) > 1 })) ctx.out(block);
  if (passed < total) {
    throw new CheckFailedError(
      total === 1 ? `drill ${drill.name} failed` : `drill ${drill.name} failed in ${total - passed} of ${total} runs`,
      files.length > 0
        ? `see the verdicts above and the report ${files[0]}`
        : 'see the verdicts above; --report FILE.html draws the timeline',
    );
  }
}
