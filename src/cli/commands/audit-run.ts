/** The audit command's work, loaded only when it runs (it pulls in the drill runner). */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type AuditCard, auditExitCode, auditJson } from '../../audit/card.js';
import { renderAuditHtml } from '../../audit/html.js';
import { auditJunit } from '../../audit/junit.js';
import { runAudit } from '../../audit/run.js';
import { QUICK, SCENARIO_NAMES, type Scenario, scenarioNamed } from '../../audit/scenarios.js';
import { parseSlo } from '../../audit/slo.js';
import { scenarioDrillText } from '../../audit/build.js';
import { checkContenderSpec } from '../../contenders/spec.js';
import { formatDuration } from '../../duration.js';
import { UsageError, ZklabError } from '../../errors.js';
import { NET_MODES, type NetMode } from '../../lab/node/net.js';
import { namedLabDir } from '../../lab/paths.js';
import { formatLeaderRule } from '../../recipes/leadership.js';
import { wholeNumber } from '../../validate.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { type SpawnFlags, specInput, spawnUsageError } from '../spawn-spec.js';
import { renderAuditCard, renderGradeLine } from '../views/audit.js';

export type AuditArgs = GlobalArgs &
  SpawnFlags & {
    members?: string;
    servers?: string;
    net?: string;
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
  if (text === undefined || text === 'all') return SCENARIO_NAMES.map((n) => scenarioNamed(n)!);
  if (text === 'quick') return QUICK.map((n) => scenarioNamed(n)!);
  const names = text.split(',').map((n) => n.trim());
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

function netArg(text: string | undefined): NetMode {
  if (text === undefined) return 'proxy';
  if ((NET_MODES as readonly string[]).includes(text)) return text as NetMode;
  throw new UsageError(`--net ${text} is unknown`, `use ${NET_MODES.join(' or ')}`);
}

export async function auditHandler(ctx: CommandContext, a: AuditArgs): Promise<void> {
  const members = a.members === undefined ? 3 : wholeNumber(a.members, '--members', 2, 9, 'e.g. --members 3');
  const servers = a.servers === undefined ? 3 : wholeNumber(a.servers, '--servers', 1, 9, 'e.g. --servers 3');
  const net = netArg(a.net);
  const scenarios = scenariosArg(a.scenarios);
  const seed = a.seed === undefined ? undefined : wholeNumber(a.seed, '--seed', 0, 2 ** 31 - 100, 'e.g. --seed 42');
  const input = { ...specInput(a), count: members };
  const checked = checkContenderSpec(input);
  if (checked.issues) throw spawnUsageError(checked.issues[0]!);
  const spec = checked.spec;
  const slo = parseSlo(a.slo, spec.sessionTimeoutMs);
  const report = outputFile(a.report, '--report', /\.html?$/i, 'audit.html');
  const junit = outputFile(a.junit, '--junit', /\.xml$/i, 'audit.xml');
  const drillDir = resolve(a.drills ?? '.');
  if (a.drills !== undefined) mkdirSync(drillDir, { recursive: true });

  const program = spec.program ? spec.program.join(' ') : `recipe ${spec.recipe}`;
  const subject = {
    program,
    members,
    servers,
    net,
    path: spec.path,
    leaderRule: formatLeaderRule(spec.leaderRule),
    sessionTimeoutMs: spec.sessionTimeoutMs,
    ...(spec.probe ? { probe: spec.probe.argv.join(' ') } : {}),
  };
  ctx.err(
    `audit: ${program}: ${scenarios.length} scenario(s), ${members} members, ${servers} servers; election ${spec.path} ` +
      `(leader by ${subject.leaderRule}${a.path === undefined ? '; --path and --leader-rule to change' : ''})`,
  );
  const labDir = namedLabDir(a.lab);
  const lab = { servers, net };
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
    onScenario: (s, k) => {
      ctx.err(`[${k + 1}/${scenarios.length}] ${s.name}: ${s.asks}`);
      if (a.drills !== undefined) {
        const c = {
          members,
          servers,
          sessionMs: spec.sessionTimeoutMs,
          joinMs: spec.joinTimeoutMs,
          failoverMs: slo.failoverMs,
          probed: spec.probe !== undefined,
        };
        writeFileSync(resolve(drillDir, `audit-${s.name}.yaml`), scenarioDrillText(s, input, lab, c, slo));
      }
    },
    onGrade: (g) => ctx.err(`      ${renderGradeLine(g)}`),
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
