import type { ContenderSpecInput } from '../contenders/fields.js';
import type { ContenderSpec } from '../contenders/spec.js';
import type { DrillResult } from '../drills/judge/result.js';
import type { DrillProgress } from '../drills/run/progress.js';
import { runDrill } from '../drills/run/runner.js';
import { nodeNetProblem } from '../lab/node/net.js';
import { type AuditLab, scenarioDrill, scenarioDrillText } from './build.js';
import type { AuditCard, AuditSubject } from './card.js';
import { attributeRepeats, gradeScenario, notGraded, type ScenarioGrade } from './grade.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import type { Slo } from './slo.js';

export interface AuditOptions {
  /** The contenders as given (drill keys), and as checked. */
  readonly input: ContenderSpecInput;
  readonly spec: ContenderSpec;
  readonly subject: AuditSubject;
  readonly members: number;
  readonly lab: AuditLab;
  readonly scenarios: readonly Scenario[];
  readonly slo: Slo;
  readonly signal?: AbortSignal;
  /** Where the scenarios' labs go (a new one under it per scenario); default: the drills' own temporary labs. */
  readonly labDir?: string;
  readonly zkHome?: string;
  readonly seed?: number;
  /** Where each scenario's drill file is written, to replay it with `zklab drill run`. */
  readonly drillDir: string;
  /** `drill`: the scenario's drill file, as `drill run` reads it. */
  readonly onScenario?: (s: Scenario, k: number, drill: string) => void;
  /** `run`: the scenario's drill result, when it ran. */
  readonly onGrade?: (g: ScenarioGrade, k: number, run?: DrillResult) => void;
  readonly onProgress?: (p: DrillProgress) => void;
}

/** Why a scenario cannot run here, before anything starts; undefined: it can. */
function cannotRun(s: Scenario, lab: AuditLab): string | undefined {
  if (lab.hosts) {
    if (s.needs === 'node-net' || s.net === 'ns')
      return "on hosts a cut acts on the members' ZooKeeper links alone, not on every packet of their node";
    if (s.notOnHosts) return s.notOnHosts;
    return undefined;
  }
  if (s.needs === 'node-net' || s.net === 'ns') {
    const problem = nodeNetProblem();
    if (problem) return `it needs the lab's node network, which cannot be made here: ${problem}`;
  }
  if (s.net === undefined && lab.net === 'ns') {
    const problem = nodeNetProblem();
    if (problem) return `--net ns cannot be made here: ${problem}`;
  }
  return undefined;
}

/** Runs the battery, one scenario after another, each on a fresh lab, and grades each as it ends. */
export async function runAudit(o: AuditOptions): Promise<AuditCard> {
  const startedAt = Date.now();
  const c: ScenarioContext = {
    members: o.members,
    servers: o.lab.servers,
    sessionMs: o.spec.sessionTimeoutMs,
    joinMs: o.spec.joinTimeoutMs,
    failoverMs: o.slo.failoverMs,
    probed: o.spec.probe !== undefined,
  };
  const g = {
    probed: o.spec.probe !== undefined,
    curatorSessionPolicy: o.spec.recipe === 'curator-latch' && o.spec.curatorErrorPolicy === 'session',
  };
  const grades: ScenarioGrade[] = [];
  const runs = new Map<string, DrillResult>();
  let broke: string | undefined;
  for (const [k, s] of o.scenarios.entries()) {
    o.signal?.throwIfAborted();
    const text = scenarioDrillText(s, o.input, o.lab, c, o.slo);
    o.onScenario?.(s, k, text);
    const why = cannotRun(s, o.lab);
    let grade: ScenarioGrade;
    if (why !== undefined) grade = notGraded(s, 'skipped', why);
    else {
      const drill = scenarioDrill(text, s.name, o.drillDir);
      try {
        const r = await runDrill(drill, {
          ...(o.signal ? { signal: o.signal } : {}),
          ...(o.labDir ? { labDir: o.labDir } : {}),
          ...(o.zkHome ? { zkHome: o.zkHome } : {}),
          ...(o.seed === undefined ? {} : { seed: o.seed + k }),
          ...(o.onProgress ? { onProgress: o.onProgress } : {}),
          ...(o.lab.hosts ? { hosts: o.lab.hosts } : {}),
        });
        runs.set(s.name, r);
        grade = gradeScenario(s, r, o.slo, g);
      } catch (e) {
        if (o.signal?.aborted) throw e;
        const message = e instanceof Error ? e.message : String(e);
        broke ??= `${s.name}: ${message}`;
        grade = notGraded(s, 'unknown', `zklab failed: ${message}`);
      }
    }
    grades.push(grade);
    o.onGrade?.(grade, k, runs.get(s.name));
  }
  return {
    subject: o.subject,
    slo: o.slo,
    startedAt,
    endedAt: Date.now(),
    grades: attributeRepeats(grades),
    runs,
    ...(broke === undefined ? {} : { broke }),
  };
}
