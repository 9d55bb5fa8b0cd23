import type { CheckDetail, CheckResult, Measurement } from './check-types.js';
import { formatDuration, formatOffset } from '../../duration.js';
import { covers, type LeadershipInterval } from '../../lab/leadership-intervals.js';
import type { FaultWindow } from './fault-windows.js';
import { isFrozen, type History } from './history.js';
import { leaderFaults, type LeaderFault } from './leader-hits.js';
import { isDead } from './queries.js';
import { duration, strict } from '../core/zod-helpers.js';
import type { Checker } from './checker.js';

export const DEFAULT_LIVENESS_MS = 30_000;

/**
 * The first time at or after t when some contender leads and can act (not frozen, not dead), not counting the
 * leadership the fault took away: a partitioned leader that keeps believing does not make the system live.
 */
export function recoveredAt(h: History, t: number, lost?: LeadershipInterval): number | null {
  const usable = h.intervals.filter((i) => i !== lost);
  const candidates = [t, ...usable.map((i) => i.start), ...h.frozen.map((w) => w.end)]
    .filter((x) => x >= t && x <= h.end)
    .sort((a, b) => a - b);
  for (const x of candidates) {
    const leads = usable.some((i) => covers(i, x) && !isFrozen(h, i.contender, x) && !isDead(h, i.contender, x));
    if (leads) return x;
  }
  return null;
}

/** After each fault a leader exists again within the bound. */
export function checkLiveness(
  h: History,
  options: { readonly within?: number } = {},
  leaderHits: readonly LeaderFault[] = leaderFaults(h),
): CheckResult {
  const within = options.within ?? DEFAULT_LIVENESS_MS;
  const hits = leaderHits.filter((f) => !f.survived);
  // A leadership that ended while a server was down (its clients lost their connection: the leader paused itself)
  // ended by that server fault: it is measured from the fault, not counted as a fault of its own.
  const serverFaultAt = (t: number) => h.faults.find((f) => f.servers.length > 0 && f.start <= t && t <= f.end);
  const own = hits.filter((x) => !x.fault);
  const lostTo = (f: FaultWindow) =>
    hits.find((x) => x.fault === f)?.interval ?? own.find((x) => serverFaultAt(x.t) === f)?.interval;
  const faults = [
    ...h.faults.map((f) => ({ t: f.start, label: f.label, lost: lostTo(f) })),
    ...own
      .filter((x) => serverFaultAt(x.t) === undefined)
      .map((x) => ({ t: x.t, label: x.description, lost: x.interval })),
  ].sort((a, b) => a.t - b.t);
  const details: CheckDetail[] = [];
  const measurements: Measurement[] = [];
  for (const f of faults) {
    const r = recoveredAt(h, f.t, f.lost);
    const ms = r === null ? null : r - f.t;
    measurements.push({ name: `leader again after ${f.label}`, value: ms, unit: 'ms', t: f.t });
    const when = `${f.label} at ${formatOffset(f.t, h.start)}`;
    if (ms === null) {
      const waited = h.end - f.t;
      const message = `no leader after ${when} (history ends ${formatDuration(waited)} later)`;
      details.push({ level: 'violation', t: f.t, message });
    } else if (ms > within) {
      const message = `a leader only ${formatDuration(ms)} after ${when}, over ${formatDuration(within)}`;
      details.push({ level: 'violation', t: f.t, message });
    } else {
      details.push({ level: 'info', t: f.t, message: `a leader ${formatDuration(ms)} after ${when}` });
    }
  }
  const failed = details.filter((d) => d.level === 'violation').length;
  return {
    name: 'liveness',
    passed: failed === 0,
    summary:
      faults.length === 0
        ? 'no faults to recover from'
        : failed === 0
          ? `a leader within ${formatDuration(within)} after each of ${faults.length} fault(s)`
          : `${failed} of ${faults.length} fault(s) left no leader within ${formatDuration(within)}`,
    details,
    measurements,
  };
}

const options = strict({ within: duration().optional() });

export const livenessChecker: Checker<'liveness', typeof options> = {
  name: 'liveness',
  options,
  byDefault: true,
  run: (h, opts, ctx) => checkLiveness(h, opts, ctx.faults),
};
