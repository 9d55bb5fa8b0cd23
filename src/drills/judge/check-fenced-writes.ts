import { formatOffset } from '../../duration.js';
import type { LabEventOf } from '../../lab/events.js';
import type { CheckDetail, CheckResult } from './check-types.js';
import type { History } from './history.js';
import { formatToken } from '../../lab/fenced-resource.js';
import { strict } from '../core/zod-helpers.js';
import { type Checker, needsLock } from './checker.js';

type Write = LabEventOf<'resource-write'>;

/** A write the resource took with a token below the highest it had taken: what fencing exists to refuse. */
const isStale = (w: Write) => w.accepted && w.token < w.lastToken;
/** A write the resource took that did not make its register grow: a holder's update overwrote or undid another's. */
const isLostUpdate = (w: Write) => w.accepted && w.value <= w.previousValue;

/**
 * The protected resource's own record of the writes it received, in the order it decided them: it fails when the
 * resource accepted a stale token. Lost updates (accepted, yet the register did not grow) are reported as warnings:
 * fencing on writes alone does not prevent every one (a stale read followed by a fresh token's write). A drill in
 * which no write reached the resource has shown nothing and fails.
 */
export function checkFencedWrites(h: History): CheckResult {
  const writes = h.lab.filter((e): e is Write => e.event === 'resource-write');
  const at = (t: number) => formatOffset(t, h.start);
  const details: CheckDetail[] = [];
  for (const w of writes) {
    const on = `${w.resource}${w.fencing ? '' : ' (fencing off)'}`;
    if (isStale(w)) {
      details.push({
        level: 'violation',
        t: w.t,
        message:
          `${on} accepted stale token ${formatToken(w.token)} from ${w.holder} at ${at(w.t)} (value ${w.value}), ` +
          `after token ${formatToken(w.lastToken)}`,
      });
    }
    if (isLostUpdate(w)) {
      details.push({
        level: 'warning',
        t: w.t,
        message: `lost update on ${on}: ${w.holder} (token ${formatToken(w.token)}) wrote ${w.value} over ${w.previousValue} at ${at(w.t)}`,
      });
    }
    if (!w.accepted) {
      details.push({
        level: 'info',
        t: w.t,
        message:
          `${w.resource} refused stale token ${formatToken(w.token)} from ${w.holder} at ${at(w.t)}, ` +
          `highest seen ${formatToken(w.lastToken)}`,
      });
    }
  }
  const stale = writes.filter(isStale).length;
  const lost = writes.filter(isLostUpdate).length;
  const refused = writes.filter((w) => !w.accepted).length;
  const measurements = [
    { name: 'writes accepted', value: writes.length - refused, unit: 'count' as const },
    { name: 'stale writes refused', value: refused, unit: 'count' as const },
    { name: 'stale writes accepted', value: stale, unit: 'count' as const },
    { name: 'lost updates', value: lost, unit: 'count' as const },
  ];
  if (writes.length === 0) {
    const message = 'no writes reached the resource: nothing to judge';
    return {
      name: 'fencedWrites',
      passed: false,
      summary: message,
      details: [{ level: 'violation', message }],
      measurements,
    };
  }
  const resources = [...new Set(writes.map((w) => w.resource))].join(', ');
  const extras = `${refused} refused, ${lost} lost update(s)`;
  return {
    name: 'fencedWrites',
    passed: stale === 0,
    summary:
      stale === 0
        ? `${writes.length} write(s) to ${resources}, no stale token accepted (${extras})`
        : `${stale} stale write(s) accepted of ${writes.length} to ${resources} (${extras})`,
    details,
    measurements,
  };
}

const options = strict({});

export const fencedWritesChecker: Checker<'fencedWrites', typeof options> = {
  name: 'fencedWrites',
  options,
  needs: needsLock,
  run: (h) => checkFencedWrites(h),
};
