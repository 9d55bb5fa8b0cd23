import { ACT_INTERVAL_MS } from '../../recipes/base.js';
import type { CheckDetail, CheckResult } from './check-types.js';
import { formatDuration, formatOffset } from '../../duration.js';
import { type LeadershipInterval } from '../../lab/leadership-intervals.js';
import { intervalAt, isFrozen, type History } from './history.js';
import { leaderClaims, type LeaderClaim } from './leader-hits.js';

interface StaleActs {
  readonly contender: string;
  readonly token: number;
  readonly supersededBy: LeaderClaim;
  readonly first: number;
  readonly last: number;
  readonly count: number;
  readonly outsideInterval: boolean;
}

/**
 * A stale action: `act` with token k at t while another contender had claimed with a higher token before t. That is
 * what fencing exists to reject, so it is the decisive evidence of two leaders. An `act` logged inside a lab freeze
 * is ignored (a frozen process cannot act; the timestamps only disagree by the time the lab took to log it). An act
 * after the actor's own leadership ended is counted too: it is no less stale.
 */
function staleActs(h: History): StaleActs[] {
  const claims = leaderClaims(h);
  const groups = new Map<string, StaleActs>();
  for (const e of h.events) {
    if (e.event !== 'act' || isFrozen(h, e.id, e.t)) continue;
    const own = intervalAt(h, e.id, e.t);
    const token = typeof e.token === 'number' ? e.token : own?.token;
    if (token === undefined || token === null) continue;
    const higher = claims.find((c) => c.contender !== e.id && c.t < e.t && c.token !== null && c.token > token);
    if (!higher) continue;
    const key = `${e.id}/${token}/${higher.contender}/${higher.t}`;
    const g = groups.get(key);
    groups.set(
      key,
      g
        ? { ...g, last: e.t, count: g.count + 1, outsideInterval: g.outsideInterval || !own }
        : { contender: e.id, token, supersededBy: higher, first: e.t, last: e.t, count: 1, outsideInterval: !own },
    );
  }
  return [...groups.values()];
}

/** Leadership claimed under a session an earlier `expired` event of the same contender had ended. */
function expiredSessionClaims(h: History) {
  return h.events.filter(
    (e) =>
      e.event === 'leader' &&
      e.session !== null &&
      h.events.some((x) => x.id === e.id && x.event === 'expired' && x.session === e.session && x.t < e.t),
  );
}

/** Milliseconds in [start, end) during which neither contender was frozen. */
function capableMs(h: History, a: string, b: string, start: number, end: number): number {
  const cuts = h.frozen
    .filter((w) => (w.contender === a || w.contender === b) && w.end > start && w.start < end)
    .map((w) => [Math.max(w.start, start), Math.min(w.end, end)] as const)
    .sort((x, y) => x[0] - y[0]);
  let frozen = 0;
  let cursor = start;
  for (const [s, e] of cuts) {
    if (e <= cursor) continue;
    frozen += e - Math.max(s, cursor);
    cursor = e;
  }
  return end - start - frozen;
}

function beliefOverlaps(h: History) {
  const out: { a: LeadershipInterval; b: LeadershipInterval; start: number; end: number; capable: number }[] = [];
  h.intervals.forEach((a, i) => {
    for (const b of h.intervals.slice(i + 1)) {
      if (a.contender === b.contender) continue;
      const start = Math.max(a.start, b.start);
      const end = Math.min(a.end, b.end);
      if (end > start) out.push({ a, b, start, end, capable: capableMs(h, a.contender, b.contender, start, end) });
    }
  });
  return out;
}

/**
 * A deposed leader always believes a little longer than it leads (it hears of its loss late); an overlap it could
 * not have acted in (shorter than one act interval, once frozen time is taken out) is only informational.
 */
const isRisky = (capable: number) => capable >= ACT_INTERVAL_MS;

export function checkSingleLeader(h: History): CheckResult {
  const at = (t: number) => `at ${formatOffset(t, h.start)}`;
  const stale = staleActs(h);
  const expired = expiredSessionClaims(h);
  const overlaps = beliefOverlaps(h);
  const details: CheckDetail[] = [
    ...stale.map((s) => ({
      level: 'violation' as const,
      t: s.first,
      message:
        `stale leader acted: ${s.contender} acted ${s.count}× with token ${s.token} ${at(s.first)}` +
        (s.count > 1 ? `..${formatOffset(s.last, h.start)}` : '') +
        ` after ${s.supersededBy.contender} claimed with token ${s.supersededBy.token} ${at(s.supersededBy.t)}` +
        (s.outsideInterval ? ' (and after its own leadership had ended)' : ''),
    })),
    ...expired.map((e) => ({
      level: 'violation' as const,
      t: e.t,
      message: `${e.id} claimed leadership ${at(e.t)} under session ${e.session}, which had already expired`,
    })),
    ...overlaps.map((o) => ({
      level: isRisky(o.capable) ? ('warning' as const) : ('info' as const),
      t: o.start,
      message:
        `${o.a.contender} (token ${o.a.token}) and ${o.b.contender} (token ${o.b.token}) both believed they led ` +
        `for ${formatDuration(o.end - o.start)} ${at(o.start)}` +
        (o.capable === o.end - o.start
          ? ''
          : o.capable > 0
            ? `, ${formatDuration(o.capable)} of it unfrozen`
            : ', all of it while one was frozen') +
        '; no stale action came of it unless listed above',
    })),
  ].sort((x, y) => x.t - y.t);
  const violations = stale.length + expired.length;
  const warnings = overlaps.filter((o) => isRisky(o.capable)).length;
  return {
    name: 'singleLeader',
    passed: violations === 0,
    summary:
      violations === 0
        ? `no stale leader acted${warnings ? ` (${warnings} belief overlap(s), see details)` : ''}`
        : `${violations} violation(s): ` +
          [
            stale.length > 0 ? `${stale.length} stale leader(s) acted` : '',
            expired.length > 0 ? `${expired.length} claim(s) from an expired session` : '',
          ]
            .filter(Boolean)
            .join(', '),
    details,
    measurements: [
      { name: 'stale actions', value: stale.reduce((n, s) => n + s.count, 0), unit: 'count' },
      { name: 'claims from an expired session', value: expired.length, unit: 'count' },
      { name: 'belief overlap (unfrozen)', value: overlaps.reduce((n, o) => n + o.capable, 0), unit: 'ms' },
    ],
  };
}
