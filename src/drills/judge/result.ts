import type { ContenderEvent } from '../../lab/events.js';
import type { LabLine } from '../../faults/kinds/registry.js';
import type { CheckDetail, CheckResult, Measurement } from './check-types.js';
import { buildHistory, type History } from './history.js';
import type { CheckName } from './checkers.js';

export type StepOutcome = 'ok' | 'failed' | 'timeout' | 'skipped';

/** What the runner records for each step it ran (a repeat's body appears once per iteration). */
export interface StepResult {
  /** Position for people: "3", or "5.2 (2/3)" for the second body step of repeat 5 in its second iteration. */
  readonly index: string;
  readonly line: number;
  readonly kind: string;
  /** describeStep(), plus what the runner resolved (e.g. "kill leader → c1"). */
  readonly description: string;
  /** Wall-clock ms. */
  readonly start: number;
  readonly end: number;
  readonly outcome: StepOutcome;
  readonly detail?: string;
}

export interface ExpectationResult {
  /** The index of the expect step that held it. */
  readonly step: string;
  readonly line: number;
  /** describeExpectation(). */
  readonly description: string;
  readonly passed: boolean;
  readonly detail: string;
  /** When it was decided, wall-clock ms. */
  readonly t: number;
}

/** Everything a report needs; every renderer is a pure function of it. */
export interface DrillResult {
  readonly drill: {
    readonly name: string;
    readonly description?: string;
    readonly file: string;
    readonly expectFailure: readonly CheckName[];
  };
  /** The run's seed (--seed), so that a run can be repeated. */
  readonly seed?: number;
  /** When the drill's own clock started: the ensemble is up, the contenders are about to be spawned. */
  readonly startedAt: number;
  readonly endedAt: number;
  readonly steps: readonly StepResult[];
  readonly expectations: readonly ExpectationResult[];
  readonly checks: readonly CheckResult[];
  readonly contenderEvents: readonly ContenderEvent[];
  readonly labEvents: readonly LabLine[];
  /** The run itself broke (a step could not be carried out): the drill fails whatever the checks say. */
  readonly error?: string;
}

export interface CheckVerdict {
  readonly check: CheckResult;
  readonly expectedToFail: boolean;
  /** Passed, or failed as the drill expected. */
  readonly ok: boolean;
  /** PASSED | FAILED | FAILED (expected) | PASSED (expected to fail) | NOT JUDGED. */
  readonly label: string;
}

export function checkVerdicts(r: DrillResult): CheckVerdict[] {
  return r.checks.map((check) => {
    const expectedToFail = r.drill.expectFailure.some((name) => name === check.name);
    // Not judged is neither outcome, not even an expected failure: the drill fails.
    if (check.notJudged !== undefined) return { check, expectedToFail, ok: false, label: 'NOT JUDGED' };
    const ok = check.passed !== expectedToFail;
    const label = check.passed
      ? expectedToFail
        ? 'PASSED (expected to fail)'
        : 'PASSED'
      : expectedToFail
        ? 'FAILED (expected)'
        : 'FAILED';
    return { check, expectedToFail, ok, label };
  });
}

/** Passed when no step broke or failed, every expectation held and every check came out as the drill expected. */
export function drillPassed(r: DrillResult): boolean {
  return (
    r.error === undefined &&
    r.steps.every((s) => s.outcome === 'ok' || s.outcome === 'skipped') &&
    r.expectations.every((e) => e.passed) &&
    checkVerdicts(r).every((v) => v.ok)
  );
}

const histories = new WeakMap<DrillResult, History>();

/** The run's History, built from its events once per result and then reused by every report. */
export function resultHistory(r: DrillResult): History {
  let h = histories.get(r);
  if (h === undefined) {
    h = buildHistory(r.contenderEvents, r.labEvents, { start: r.startedAt, end: r.endedAt });
    histories.set(r, h);
  }
  return h;
}

/** Hands over the History already built from `r`'s own events and bounds, so that resultHistory need not rebuild it. */
export function rememberHistory(r: DrillResult, h: History): DrillResult {
  histories.set(r, h);
  return r;
}

/** The machine-readable report (`--json`): times are offsets in ms from the drill's start. */
export interface DrillJsonReport {
  readonly version: 1;
  readonly drill: string;
  readonly file: string;
  readonly verdict: 'passed' | 'failed';
  readonly startedAt: string;
  readonly durationMs: number;
  readonly seed?: number;
  readonly error?: string;
  readonly steps: readonly {
    readonly index: string;
    readonly line: number;
    readonly description: string;
    readonly offsetMs: number;
    readonly durationMs: number;
    readonly outcome: StepOutcome;
    readonly detail?: string;
  }[];
  readonly expectations: readonly {
    readonly step: string;
    readonly line: number;
    readonly description: string;
    readonly passed: boolean;
    readonly detail: string;
    readonly offsetMs: number;
  }[];
  readonly checks: readonly {
    readonly name: string;
    /** False when the run stopped before the check could be judged (`summary` says where); `passed` is then false. */
    readonly judged: boolean;
    readonly passed: boolean;
    readonly expectedToFail: boolean;
    readonly ok: boolean;
    readonly summary: string;
    readonly details: readonly (Omit<CheckDetail, 't'> & { readonly offsetMs?: number })[];
    readonly measurements: readonly (Omit<Measurement, 't'> & { readonly offsetMs?: number })[];
  }[];
  readonly leadership: readonly {
    readonly contender: string;
    readonly token: number | null;
    readonly startMs: number;
    readonly endMs: number;
    readonly endReason: string;
  }[];
  readonly faults: readonly {
    readonly kind: string;
    readonly label: string;
    readonly startMs: number;
    readonly endMs: number;
  }[];
}

function withOffset<T extends { readonly t?: number }>(x: T, start: number): Omit<T, 't'> & { offsetMs?: number } {
  const { t, ...rest } = x;
  return t === undefined ? rest : { ...rest, offsetMs: t - start };
}

export function toJsonReport(r: DrillResult): DrillJsonReport {
  const s = r.startedAt;
  const h = resultHistory(r);
  return {
    version: 1,
    drill: r.drill.name,
    file: r.drill.file,
    verdict: drillPassed(r) ? 'passed' : 'failed',
    startedAt: new Date(s).toISOString(),
    durationMs: r.endedAt - s,
    ...(r.seed === undefined ? {} : { seed: r.seed }),
    ...(r.error === undefined ? {} : { error: r.error }),
    steps: r.steps.map((st) => ({
      index: st.index,
      line: st.line,
      description: st.description,
      offsetMs: st.start - s,
      durationMs: st.end - st.start,
      outcome: st.outcome,
      ...(st.detail === undefined ? {} : { detail: st.detail }),
    })),
    expectations: r.expectations.map(({ t, ...e }) => ({ ...e, offsetMs: t - s })),
    checks: checkVerdicts(r).map((v) => ({
      name: v.check.name,
      judged: v.check.notJudged === undefined,
      passed: v.check.passed,
      expectedToFail: v.expectedToFail,
      ok: v.ok,
      summary: v.check.summary,
      details: v.check.details.map((d) => withOffset(d, s)),
      measurements: v.check.measurements.map((m) => withOffset(m, s)),
    })),
    leadership: h.intervals.map((i) => ({
      contender: i.contender,
      token: i.token,
      startMs: i.start - s,
      endMs: i.end - s,
      endReason: i.endReason,
    })),
    faults: h.faults.map((f) => ({ kind: f.kind, label: f.label, startMs: f.start - s, endMs: f.end - s })),
  };
}
