/** Drills: the file format, history, checkers, expectations and reports (pure), and the runner that drives a lab. */
export { listBuiltinDrills, loadDrillFile, resolveDrill, BUILTIN_DRILLS_DIR } from './builtins.js';
export { checkFailoverTime, checkHerdSize, checkLiveness, checkSingleLeader, runChecks } from './checkers.js';
export type { CheckDetail, CheckResult, Measurement } from './check-types.js';
export { herdCounts, type HerdCount } from './check-herd.js';
export { recoveredAt } from './check-liveness.js';
export { describeExpectation, describeStep } from './describe.js';
export { formatDuration, formatOffset, parseDuration } from '../duration.js';
export { evaluateExpectation, type ExpectationContext, type ExpectationVerdict } from './expectations.js';
export { buildHistory, intervalAt, isFrozen, type History, type LeadershipInterval } from './history.js';
export { faultWindows, partitionTargets, type FaultWindow, type FaultKind } from './lab-faults.js';
export { leaderClaims, leaderFaults, type LeaderClaim, type LeaderFault } from './leader-faults.js';
export { isDead, joinedCount, leaderAt, stateAt, waitConditionsHold, type CurrentLeader } from './queries.js';
export { renderHtmlReport, renderTextReport, toJsonReport } from './report.js';
export {
  checkVerdicts,
  drillPassed,
  resultHistory,
  type CheckVerdict,
  type DrillJsonReport,
  type DrillResult,
  type ExpectationResult,
  type StepOutcome,
  type StepResult,
} from './result.js';
export { DrillFileError, formatDrillIssue, parseDrill, type DrillIssue } from './schema.js';
export { laneSegments, type LaneSegment } from './segments.js';
export { checkTarget, contenderIds, serverIds, targetKind, type TargetKind, type TargetScope } from './targets.js';
export { renderTimelineSvg } from './timeline-svg.js';
export * from './types.js';
export { formatProgress, type DrillProgress } from './progress.js';
export { runDrill, runDrillRepeatedly, type RunOptions } from './runner.js';
