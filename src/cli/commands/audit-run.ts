/** The audit command's work, loaded only when it runs (it pulls in the drill runner). */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type AuditCard, auditExitCode, auditJson } from '../../audit/card.js';
import { renderAuditHtml } from '../../audit/html.js';
import { auditJunit } from '../../audit/junit.js';
import { runAudit } from '../../audit/run.js';
import { QUICK, SCENARIO_NAMES, type Scenario, scenarioNamed } from '../../audit/scenarios.js';
import { parseSlo } from '../../audit/slo.js';
import type { ContenderSpecInput } from '../../contenders/fields.js';
import { programFor } from '../../contenders/program.js';
import { resolveProbe } from '../../contenders/probing.js';
import { discoverElections, type Election } from '../../audit/discover.js';
import { formatDuration } from '../../duration.js';
import { UsageError, ZklabError } from '../../errors.js';
import { netModeArg } from '../../lab/node/net.js';
import { hostsArg } from '../hosts-option.js';
import { namedLabDir } from '../../lab/paths.js';
import { formatLeaderRule } from '../../recipes/leadership.js';
import { wholeNumber } from '../../validate.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { checkedSpec, type SpawnFlags, specInput } from '../spawn-spec.js';
import { renderAuditCard, renderGradeLine } from '../views/audit.js';

export type AuditArgs = GlobalArgs &
  SpawnFlags & {
    members?: string;
    servers?: string;
    net?: string;
    hosts?: string;
    place?: string;
    scenarios?: string;
    slo?: string;
    report?: string;
    junit?: string;
    drills?: string;
    seed?: string;
    json?: boolean;
  };

/** The audit's verdict as an exit code of its own (see the command's epilog). */
class AuditVerdict extends ZklabError {
  constructor(
    readonly exitCode: number,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

function scenariosArg(text: string | undefined): Scenario[] {
  const groups: Readonly<Record<string, readonly string[]>> = { all: SCENARIO_NAMES, quick: QUICK };
  const names = (text ?? 'all').split(',').flatMap((n) => groups[n.trim()] ?? [n.trim()]);
  const unknown = names.filter((n) => scenarioNamed(n) === undefined);
  if (unknown.length > 0 || names.length === 0)
    throw new UsageError(
      `--scenarios ${text}: ${unknown.map((n) => `"${n}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a scenario of the audit`,
      `use all, quick, or names among ${SCENARIO_NAMES.join(', ')}`,
    );
  return [...new Set(names)].map((n) => scenarioNamed(n)!);
}

/** An output file's directory must exist and its name say what it holds; checked before anything starts. */
function outputFile(given: string | undefined, flag: string, ext: RegExp, example: string): string | undefined {
  if (given === undefined) return undefined;
  const file = resolve(given);
  const dir = dirname(file);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`cannot write ${flag} ${given}: ${dir} is not a directory`, `e.g. ${flag} ${example}`);
  if (!ext.test(file))
    throw new UsageError(`${flag} ${given}: the name says it holds something else`, `e.g. ${flag} ${example}`);
  return file;
}

/** The one election discovery found; none or several is for the user to settle. */
function chosenElection(found: readonly Election[]): Election {
  const words = (e: Election) => `--path ${e.path} --leader-rule ${formatLeaderRule(e.rule)}`;
  if (found.length === 1) return found[0]!;
  if (found.length === 0)
    throw new UsageError(
      'the members keep no election zklab can find: no sequential znodes of two members below one parent, and no ' +
        'znode one member alone owns',
      'say where it is: --path PATH --leader-rule lowest-sequence, or --leader-rule single-node NAME',
    );
  throw new UsageError(
    `the members keep ${found.length} elections: ${found.map((e) => `${e.path} (${e.why})`).join('; ')}`,
    `choose one: ${found.map(words).join(', or ')}`,
  );
}

export async function auditHandler(ctx: CommandContext, a: AuditArgs): Promise<void> {
  const members = a.members === undefined ? 3 : wholeNumber(a.members, '--members', 2, 9, 'e.g. --members 3');
  const servers = a.servers === undefined ? 3 : wholeNumber(a.servers, '--servers', 1, 9, 'e.g. --servers 3');
  const net = a.net === undefined ? 'proxy' : netModeArg(a.net);
  const scenarios = scenariosArg(a.scenarios);
  const seed = a.seed === undefined ? undefined : wholeNumber(a.seed, '--seed', 0, 2 ** 31 - 100, 'e.g. --seed 42');
  let input: ContenderSpecInput = { ...specInput(a), count: members };
  let spec = checkedSpec(input);
  const slo = parseSlo(a.slo, spec.sessionTimeoutMs);
  const report = outputFile(a.report, '--report', /\.html?$/i, 'audit.html');
  const junit = outputFile(a.junit, '--junit', /\.xml$/i, 'audit.xml');
  const drillDir = resolve(a.drills ?? '.');
  if (a.drills !== undefined) mkdirSync(drillDir, { recursive: true });

  const hosts = await hostsArg(a);
  if (hosts !== undefined && a.net !== undefined)
    throw new UsageError('--hosts and --net: a lab on hosts has its own network', 'drop one of them');
  const labDir = namedLabDir(a.lab);
  const lab = { servers, net, ...(hosts ? { hosts } : {}) };
  // A program or probe that cannot be run is bad input, told before any lab starts (not fourteen failed scenarios).
  await programFor(spec);
  await resolveProbe(spec);
  if (spec.recipe === 'exec' && a.path === undefined) {
    ctx.err('audit: finding where the members keep their election (--path and --leader-rule say it instead)');
    const found = await discoverElections(spec, members, lab, {
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(labDir === undefined ? {} : { labDir }),
      ...(a['zk-home'] === undefined ? {} : { zkHome: a['zk-home'] }),
    });
    const e = chosenElection(found);
    ctx.err(`audit: election ${e.path}, leader by ${formatLeaderRule(e.rule)} (${e.why})`);
    input = { ...input, path: e.path, leaderRule: formatLeaderRule(e.rule) };
    spec = checkedSpec(input);
  }
  const program = spec.program ? spec.program.join(' ') : `recipe ${spec.recipe}`;
  const subject = {
    program,
    members,
    servers,
    net: hosts ? `hosts (${hosts.file.file})` : net,
    path: spec.path,
    // A built-in recipe's own znodes say who leads it: only a program's rule is the user's to change.
    leaderRule: spec.leaderRule.kind === 'auto' ? "the recipe's own" : formatLeaderRule(spec.leaderRule),
    sessionTimeoutMs: spec.sessionTimeoutMs,
    ...(spec.probe ? { probe: spec.probe.argv.join(' ') } : {}),
  };
  const change = spec.recipe === 'exec' ? '--path and --leader-rule to change' : '--path to change';
  ctx.err(
    `audit: ${program}: ${scenarios.length} scenario(s), ${members} members, ${servers} servers; election ${spec.path} ` +
      `(leader by ${subject.leaderRule}${a.path === undefined ? `; ${change}` : ''})`,
  );
  const card: AuditCard = await runAudit({
    input,
    spec,
    subject,
    members,
    lab,
    scenarios,
    slo,
    drillDir,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(labDir === undefined ? {} : { labDir }),
    ...(a['zk-home'] === undefined ? {} : { zkHome: a['zk-home'] }),
    ...(seed === undefined ? {} : { seed }),
    onScenario: (s, k, drill) => {
      ctx.err(`[${k + 1}/${scenarios.length}] ${s.name}: ${s.asks}`);
      if (a.drills !== undefined) writeFileSync(resolve(drillDir, `audit-${s.name}.yaml`), drill);
    },
    onGrade: (g, _k, run) => {
      ctx.err(`      ${renderGradeLine(g)}`);
      // The run itself beside its drill: what it was graded from, to look at again or attach to a report.
      if (a.drills !== undefined && run)
        writeFileSync(resolve(drillDir, `audit-${g.scenario}.run.json`), JSON.stringify(run));
    },
  });
  if (report) {
    writeFileSync(report, renderAuditHtml(card));
    ctx.err(`report: ${report}`);
  }
  if (junit) {
    writeFileSync(junit, auditJunit(card));
    ctx.err(`junit: ${junit}`);
  }
  ctx.out(a.json ? auditJson(card) : renderAuditCard(card, process.stdout.columns || 110));
  const code = auditExitCode(card);
  const took = formatDuration(card.endedAt - card.startedAt);
  if (code === 1)
    throw new AuditVerdict(
      1,
      `audit failed (${took})`,
      'see the card above: each failed scenario says what went wrong',
    );
  if (code === 4)
    throw new AuditVerdict(4, `zklab itself failed in the audit: ${card.broke}`, 'run again with --verbose');
  if (code === 3)
    throw new AuditVerdict(3, `audit: some scenarios could not be judged (${took})`, 'see the card above for why');
}
