import { formatDuration } from '../duration.js';
import { recoveredAt } from '../drills/judge/check-liveness.js';
import { PROBE_PATIENCE_MS } from '../contenders/fields.js';
import { PROBES_BLIND } from '../drills/judge/check-single-leader.js';
import type { CheckResult } from '../drills/judge/check-types.js';
import { type History, isFrozen, type Span, uncoveredMs, zkLeaderAt } from '../drills/judge/history.js';
import { leaderClaims } from '../drills/judge/leader-hits.js';
import { isDead } from '../drills/judge/queries.js';
import { type DrillResult, resultHistory, type StepResult } from '../drills/judge/result.js';
import { type Scenario, scenarioNamed } from './scenarios.js';
import type { Slo } from './slo.js';

export type Verdict = 'pass' | 'fail' | 'skipped' | 'unknown';
export type Grade = 'pass' | 'fail' | 'unknown' | 'n/a';

/** One line of the card: a scenario's verdict, its four grades and its figures. */
export interface ScenarioGrade {
  readonly scenario: string;
  readonly asks: string;
  readonly verdict: Verdict;
  /** What went wrong, why it was skipped or could not be judged, in one line; absent when it passed cleanly. */
  readonly why?: string;
  /** The usual remedy for what went wrong. */
  readonly remedy?: string;
  /** Notes that do not change the verdict (what safety was judged on, leader changes nobody bounded). */
  readonly notes: readonly string[];
  readonly safety: Grade;
  readonly liveness: Grade;
  readonly churn: Grade;
  readonly recovery: Grade;
  readonly figures: {
    /** From the fault to another member's claim (a scenario that takes the leader down); null: nobody took over. */
    readonly failoverMs?: number | null;
    /** Time after the fault with no member acting as leader. */
    readonly unavailableMs?: number;
    /** Leader changes after the fault, and those beyond the ones the fault forces. */
    readonly leaderChanges?: number;
    readonly churn?: number;
    /** Watch notifications the others got per leader death, at most (the herd scenario). */
    readonly herd?: number;
  };
  /** The drill's run: how long, with which seed (to replay it). */
  readonly durationMs?: number;
  readonly seed?: number;
}

/** What a grade needs to know of the contenders beside the run. */
export interface GradeContext {
  /** A probe asks each node whether it acts. */
  readonly probed: boolean;
  /** The contenders are Curator's LeaderLatch with the session error policy (a remedy of its own). */
  readonly curatorSessionPolicy: boolean;
}

const NOT_FAULTS = new Set(['wait', 'sleep', 'expect', 'log', 'spawn']);
const isFault = (s: StepResult) => !NOT_FAULTS.has(s.kind);

/** A scenario not graded: skipped (it does not apply here), or not judged (the run could not say); `why` says. */
export function notGraded(s: Scenario, verdict: 'skipped' | 'unknown', why: string): ScenarioGrade {
  return {
    scenario: s.name,
    asks: s.asks,
    verdict,
    why,
    notes: [],
    safety: 'n/a',
    liveness: 'n/a',
    churn: 'n/a',
    recovery: 'n/a',
    figures: {},
  };
}

/** The spans in which some member acted as leader: by its probe when there is one, else by its leadership. */
function actingSpans(h: History): readonly Span[] {
  return h.acting.length > 0 ? h.acting : h.intervals;
}

/** Leader changes from t on: claims by a member other than the one that claimed last. */
export function leaderChanges(h: History, t: number): number {
  const claims = leaderClaims(h);
  let last = claims.findLast((c) => c.t < t)?.contender;
  let changes = 0;
  for (const c of claims.filter((x) => x.t >= t)) {
    if (last !== undefined && c.contender !== last) changes++;
    last = c.contender;
  }
  return changes;
}

/** Whether the history ends with one leader as ZooKeeper names it, and (probed) that node alone acting. */
function endsSteady(h: History): string | undefined {
  const t = h.end - 1;
  const zk = zkLeaderAt(h, t);
  if (!zk?.leader) return 'ZooKeeper names no leader at the end';
  if (isFrozen(h, zk.leader, t) || isDead(h, zk.leader, t)) return `${zk.leader}, which ZooKeeper names, cannot act`;
  if (h.acting.length === 0) return undefined;
  const actors = [...new Set(h.acting.filter((a) => a.start <= t && a.end >= t).map((a) => a.contender))];
  if (actors.length === 0) return `no node acts at the end (ZooKeeper names ${zk.leader})`;
  if (actors.length > 1 || actors[0] !== zk.leader)
    return `${actors.join(' and ')} act${actors.length === 1 ? 's' : ''} at the end while ZooKeeper names ${zk.leader}`;
  return undefined;
}

const check = (r: DrillResult, name: string): CheckResult | undefined => r.checks.find((c) => c.name === name);
const firstViolation = (c: CheckResult): string => c.details.find((d) => d.level === 'violation')?.message ?? c.summary;

/** The usual remedy for a safety failure in a scenario. */
function safetyRemedy(s: Scenario, g: GradeContext): string {
  if (g.curatorSessionPolicy && ['cut-off', 'node-isolated', 'one-way-out', 'one-way-in', 'lossy'].includes(s.name))
    return 'Curator: the session error policy keeps leadership through a partition; use the standard policy';
  switch (s.name) {
    case 'program-crash':
      return 'your data plane outlives its agent: fence it, or run a watchdog that stops it with the agent';
    case 'freeze':
      return 'a thawed process acts on an old belief: check the session (or fence with the znode) before acting';
    case 'cut-off':
    case 'node-isolated':
    case 'one-way-out':
    case 'one-way-in':
    case 'lossy':
    case 'zk-leader-lost':
    case 'rolling-restart':
      return 'stop acting on SUSPENDED (connection loss), not only when the session expires';
    case 'quorum-lost':
      return "before leading again, check that the election znode's ephemeralOwner is your session (CURATOR-696)";
    case 'clock-jump':
      return 'time leases and timeouts on the monotonic clock, not the wall clock';
    default:
      return 'act only while your election znode is yours, and fence what you write with its token';
  }
}

/** Grades one scenario's run. */
export function gradeScenario(s: Scenario, r: DrillResult, slo: Slo, g: GradeContext): ScenarioGrade {
  const h = resultHistory(r);
  const base = {
    scenario: s.name,
    asks: s.asks,
    durationMs: r.endedAt - r.startedAt,
    ...(r.seed === undefined ? {} : { seed: r.seed }),
  };
  const faultAt = r.steps.find(isFault);
  const broken = r.steps.find((x) => x.outcome === 'failed' || x.outcome === 'timeout');
  // The steady state never came: the program did not elect (a failure of its own), or the lab broke.
  if (faultAt === undefined || (broken && broken.start < faultAt.start)) {
    const how = broken?.outcome === 'timeout' ? 'timed out' : 'failed';
    const why = broken
      ? `no steady state before the fault: ${broken.description} ${how}${broken.detail ? ` (${broken.detail})` : ''}`
      : `the run stopped before its fault: ${r.error ?? 'no fault step ran'}`;
    const elected = broken?.kind === 'wait' || broken?.kind === 'spawn';
    return {
      ...base,
      verdict: elected ? 'fail' : 'unknown',
      why,
      ...(elected
        ? { remedy: 'every member must join and one lead within the bound: check that your program elects' }
        : {}),
      notes: [],
      safety: 'unknown',
      liveness: elected ? 'fail' : 'unknown',
      churn: 'n/a',
      recovery: 'unknown',
      figures: {},
    };
  }
  // A fault step the lab could not carry out (a clock fault a static binary cannot take): the scenario does not apply.
  if (broken && isFault(broken))
    return { ...notGraded(s, 'skipped', `${broken.description}: ${broken.detail ?? 'failed'}`), ...base };
  if (r.error !== undefined && broken === undefined)
    return { ...notGraded(s, 'unknown', `the run broke: ${r.error}`), ...base };

  const notes: string[] = [];
  const problems: { why: string; remedy: string }[] = [];
  const t0 = faultAt.start;

  // Safety: two acting at once, acting after ZooKeeper chose another, claims from an expired session, stale tokens.
  const single = check(r, 'singleLeader');
  const evidence = h.acting.length > 0 || h.events.some((e) => e.event === 'act');
  const blindMs = single?.measurements.find((m) => m.name === PROBES_BLIND)?.value ?? 0;
  let safety: Grade;
  let unjudged: string | undefined;
  if (single && !single.passed) {
    safety = 'fail';
    problems.push({ why: firstViolation(single), remedy: safetyRemedy(s, g) });
  } else if (!g.probed && !evidence) {
    safety = 'unknown';
    unjudged = 'safety could not be judged: no probe, and the program reports no actions';
    notes.push('no probe: safety judged on what ZooKeeper says each member believes; give --probe to ask the program');
  } else if (blindMs > 0) {
    safety = 'unknown';
    unjudged =
      `safety could not be judged: probes said nothing for ${formatDuration(blindMs)} while ZooKeeper named ` +
      `another leader (the report's singleLeader details say whose)`;
    notes.push(`a probe must answer within ${formatDuration(PROBE_PATIENCE_MS)}, or it is killed and says nothing`);
  } else safety = 'pass';

  // Liveness: another member within the bound when the leader was taken down; one leader again otherwise.
  let liveness: Grade = 'pass';
  let failoverMs: number | null | undefined;
  if (s.expected === 'failover') {
    const m = check(r, 'failoverTime')?.measurements.find((x) => x.name.startsWith('failover after'));
    failoverMs = m === undefined ? null : m.value;
    if (failoverMs === null || failoverMs > slo.failoverMs) {
      liveness = 'fail';
      problems.push({
        why:
          failoverMs === null
            ? `no other member took over within the run (bound ${formatDuration(slo.failoverMs)})`
            : `failover took ${formatDuration(failoverMs)}, over the ${formatDuration(slo.failoverMs)} bound`,
        remedy: 'a member must watch the leader and claim as soon as its znode goes; or a shorter session timeout',
      });
    }
  } else {
    const lastFault = r.steps.findLast(isFault)!;
    const from = s.expected === 'recover' ? lastFault.end : t0;
    const back = recoveredAt(h, from);
    if (back === null || back - from > slo.failoverMs) {
      liveness = 'fail';
      problems.push({
        why:
          back === null
            ? `no leader after ${lastFault.description}`
            : `a leader only ${formatDuration(back - from)} after ${lastFault.description}, ` +
              `over the ${formatDuration(slo.failoverMs)} bound`,
        remedy: 'after reconnecting (or a new session), a member must take part in the election again',
      });
    }
  }

  // Churn: leader changes beyond the one the fault forces.
  const changes = leaderChanges(h, t0);
  const churnCount = Math.max(0, changes - (s.forcedChanges ?? (s.expected === 'failover' ? 1 : 0)));
  let churn: Grade = 'n/a';
  if (slo.churn !== undefined) {
    churn = churnCount > slo.churn ? 'fail' : 'pass';
    if (churn === 'fail')
      problems.push({
        why: `${churnCount} leader change(s) beyond the fault's, over the bound of ${slo.churn}`,
        remedy: 'leadership flaps: a longer session timeout, or wait before claiming again',
      });
  } else if (churnCount > 0)
    notes.push(`${churnCount} leader change(s) beyond the fault's (not bounded: --slo churn=N)`);

  // Recovery: the run's last wait held, and it ended with one leader, the node ZooKeeper names acting alone.
  const last = r.steps.at(-1);
  const unsteady = endsSteady(h);
  let recovery: Grade = 'pass';
  if (last?.outcome !== 'ok' || unsteady) {
    recovery = 'fail';
    problems.push({
      why: unsteady ?? `no leader at the end: ${last?.description ?? 'the run stopped'}`,
      remedy: 'after a session expires, a member must rejoin with a new session and the election go on',
    });
  }

  let herd: number | undefined;
  if (s.name === 'herd') {
    const m = check(r, 'herdSize')?.measurements.find((x) => x.name === 'max notified per death');
    if (h.events.some((e) => e.event === 'notified') && m?.value != null) herd = m.value;
    if (herd === undefined)
      return { ...notGraded(s, 'skipped', 'the program does not report its watch notifications'), ...base };
    if (slo.herd !== undefined && herd > slo.herd)
      problems.push({
        why: `${herd} watch notifications on one leader's death, over the bound of ${slo.herd}`,
        remedy: 'watch your predecessor only, not the leader or the whole election',
      });
  }

  const unavailableMs = uncoveredMs(actingSpans(h), t0, h.end);
  const failed = problems.length > 0;
  const verdict: Verdict = failed ? 'fail' : safety === 'unknown' ? 'unknown' : 'pass';
  return {
    ...base,
    verdict,
    ...(failed ? { why: problems[0]!.why, remedy: problems[0]!.remedy } : {}),
    ...(verdict === 'unknown' ? { why: unjudged } : {}),
    notes,
    safety,
    liveness,
    churn,
    recovery,
    figures: {
      ...(failoverMs === undefined ? {} : { failoverMs }),
      unavailableMs,
      leaderChanges: changes,
      churn: churnCount,
      ...(herd === undefined ? {} : { herd }),
    },
  };
}

/**
 * A scenario whose fault repeats another's (`repeats`: clock-jump cuts the leader off after its clock went back, as
 * cut-off does): a program that fails the other on safety fails this one for the same reason, and what is this
 * one's own (the clock) cannot be told apart. Its failure is then not judged, and says why.
 */
export function attributeRepeats(grades: readonly ScenarioGrade[]): ScenarioGrade[] {
  const unsafe = new Set(grades.filter((g) => g.safety === 'fail').map((g) => g.scenario));
  return grades.map((g) => {
    const repeated = scenarioNamed(g.scenario)?.repeats;
    if (repeated === undefined || !unsafe.has(repeated) || g.verdict !== 'fail' || g.safety !== 'fail') return g;
    return {
      ...g,
      verdict: 'unknown' as const,
      safety: 'unknown' as const,
      why: `it fails ${repeated}, whose cut this scenario repeats after the jump: the clock's part cannot be told (${g.why})`,
      remedy: `mend ${repeated} first, then audit ${g.scenario} again`,
    };
  });
}
