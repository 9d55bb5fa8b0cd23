import { PROBE_PATIENCE_MS } from '../../contenders/fields.js';
import { ACT_INTERVAL_MS } from '../../recipes/base.js';
import type { CheckDetail, CheckResult } from './check-types.js';
import { formatDuration, formatOffset } from '../../duration.js';
import type { LeadershipInterval } from '../../lab/leadership-intervals.js';
import { type ActingInterval, type BlindSpan, probeBlindSpans } from '../../lab/acting-intervals.js';
import {
  type History,
  intervalAt,
  isFrozen,
  meet,
  type Span,
  unfrozenMs,
  type ZkLeaderInterval,
  zkLeaderAt,
} from './history.js';
import { leaderClaims, type LeaderClaim } from './leader-hits.js';
import { strict } from '../core/zod-helpers.js';
import type { Checker } from './checker.js';

/**
 * A probe samples: each end of a span of acting may be one probe interval late (and the run of the probe itself, the
 * prober's tick, the drill's 100 ms samples of ZooKeeper). Acting beyond that bound is what the node did.
 */
const SAMPLING_SLACK_MS = 350;
const actingBound = (...everyMs: number[]) => Math.max(...everyMs) + SAMPLING_SLACK_MS;

/** The measurement of time a probe said nothing while ZooKeeper named another leader: a verdict blind that long. */
export const PROBES_BLIND = 'probe silent while ZooKeeper named another leader';

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

interface ActsAgainstZk {
  readonly contender: string;
  readonly zkLeader: string;
  readonly zkSince: number;
  readonly first: number;
  readonly last: number;
  readonly count: number;
}

/**
 * How late the drill's sample of ZooKeeper may catch up with a new leader's claim: the sampler is a process of its
 * own that looks every 100 ms, and on a busy machine it is seconds late at times.
 */
const CONFIRM_LAG_MS = 2000;

/**
 * Whether a claim or an acting that began at `since`, while ZooKeeper's state named another, was ZooKeeper's new
 * leader, sampled late: its state names `contender` within the lag after `since`. Only such a beginning is excused;
 * a node that begins to act while ZooKeeper names another and is never named (resumed after a freeze, after a heal,
 * after its program restarted) is a second leader, and so is one that acted on across the hand-over.
 */
const confirmedLate = (h: History, contender: string, since: number, zSince: number): boolean =>
  since > zSince &&
  h.zkLeaders.some((z) => z.leader === contender && z.end > since && z.start <= since + CONFIRM_LAG_MS);

/**
 * An action while ZooKeeper's own state named another leader: the evidence that needs no token, so it also judges
 * programs that report none and new leaders that say nothing.
 */
function actsAgainstZooKeeper(h: History, alreadyStale: ReadonlySet<string>): ActsAgainstZk[] {
  const groups = new Map<string, ActsAgainstZk>();
  for (const e of h.events) {
    if (e.event !== 'act' || isFrozen(h, e.id, e.t) || alreadyStale.has(`${e.id}@${e.t}`)) continue;
    const z = zkLeaderAt(h, e.t);
    if (!z || z.leader === null || z.leader === e.id) continue;
    if (confirmedLate(h, e.id, intervalAt(h, e.id, e.t)?.start ?? e.t, z.start)) continue;
    const key = `${e.id}/${z.leader}/${z.start}`;
    const g = groups.get(key);
    groups.set(
      key,
      g
        ? { ...g, last: e.t, count: g.count + 1 }
        : { contender: e.id, zkLeader: z.leader, zkSince: z.start, first: e.t, last: e.t, count: 1 },
    );
  }
  return [...groups.values()];
}

/**
 * How long each leadership belief ran while ZooKeeper named another (frozen time included): one that outlived a
 * hand-over, or one that began while another led. A new leader's belief before the drill's sample caught up with
 * its claim is not counted.
 */
function beliefsBehindZooKeeper(h: History): { contender: string; zkLeader: string; start: number; ms: number }[] {
  const out: { contender: string; zkLeader: string; start: number; ms: number }[] = [];
  for (const i of h.intervals.filter((x) => !x.byZooKeeper)) {
    for (const z of h.zkLeaders) {
      if (z.leader === null || z.leader === i.contender) continue;
      const both = meet(i, z);
      if (!both || confirmedLate(h, i.contender, i.start, z.start)) continue;
      out.push({ contender: i.contender, zkLeader: z.leader, start: both.start, ms: both.end - both.start });
    }
  }
  return out;
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

function beliefOverlaps(h: History) {
  const out: { a: LeadershipInterval; b: LeadershipInterval; start: number; end: number; capable: number }[] = [];
  // Beliefs only: a silent program's leadership is ZooKeeper's word, judged by actsAgainstZooKeeper instead.
  const beliefs = h.intervals.filter((i) => !i.byZooKeeper);
  beliefs.forEach((a, i) => {
    for (const b of beliefs.slice(i + 1)) {
      if (a.contender === b.contender) continue;
      const both = meet(a, b);
      if (both) out.push({ a, b, ...both, capable: unfrozenMs(h, [a.contender, b.contender], both.start, both.end) });
    }
  });
  return out;
}

interface ActingOverlap {
  readonly a: ActingInterval;
  readonly b: ActingInterval;
  readonly start: number;
  readonly ms: number;
}

/** Two nodes acting as the leader at once by their probes, for longer than sampling can explain (frozen time out). */
function actingOverlaps(h: History): ActingOverlap[] {
  const out: ActingOverlap[] = [];
  h.acting.forEach((a, i) => {
    for (const b of h.acting.slice(i + 1)) {
      if (a.contender === b.contender) continue;
      const both = meet(a, b);
      if (!both) continue;
      const ms = unfrozenMs(h, [a.contender, b.contender], both.start, both.end);
      if (ms > actingBound(a.everyMs, b.everyMs)) out.push({ a, b, start: both.start, ms });
    }
  });
  return out;
}

/** Where a span of a node's met ZooKeeper naming another leader for longer than its bound, frozen time out. */
interface AgainstZk<S> {
  readonly span: S;
  readonly zkLeader: string;
  readonly zkSince: number;
  readonly start: number;
  readonly ms: number;
}

function whileAnotherLed<S extends Span & { readonly contender: string }>(
  h: History,
  spans: readonly S[],
  bound: (s: S) => number,
  excused: (s: S, z: ZkLeaderInterval) => boolean = () => false,
): AgainstZk<S>[] {
  const out: AgainstZk<S>[] = [];
  for (const span of spans) {
    for (const z of h.zkLeaders) {
      if (z.leader === null || z.leader === span.contender) continue;
      const both = meet(span, z);
      if (!both || excused(span, z)) continue;
      const ms = unfrozenMs(h, [span.contender], both.start, both.end);
      if (ms > bound(span)) out.push({ span, zkLeader: z.leader, zkSince: z.start, start: both.start, ms });
    }
  }
  return out;
}

/**
 * A node acting as the leader by its probe while ZooKeeper named another, for longer than sampling can explain
 * (frozen time out), whenever its acting began: on across a hand-over, or anew after a freeze, a heal or a restart.
 */
const actingAgainstZooKeeper = (h: History): AgainstZk<ActingInterval>[] =>
  whileAnotherLed(
    h,
    h.acting,
    (a) => actingBound(a.everyMs),
    (a, z) => confirmedLate(h, a.contender, a.start, z.start),
  );

/**
 * A node whose probe said nothing while ZooKeeper named another, for longer than sampling can explain (one run killed
 * as hung is a late sample; frozen time out: a frozen node acts on nothing): whether it acted then is not known, so
 * no verdict can say it did not.
 */
const blindAgainstZooKeeper = (h: History): AgainstZk<BlindSpan>[] =>
  whileAnotherLed(h, probeBlindSpans(h.events, h.end), (b) => actingBound(b.everyMs) + PROBE_PATIENCE_MS);

/** How long nodes acted as the leader by their probes while ZooKeeper's state named no leader (a measurement). */
function actingWithoutZkLeader(h: History): number {
  let ms = 0;
  for (const a of h.acting) {
    for (const z of h.zkLeaders) {
      const both = z.leader === null && !z.unknown ? meet(a, z) : undefined;
      if (both) ms += unfrozenMs(h, [a.contender], both.start, both.end);
    }
  }
  return ms;
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
  const staleKeys = new Set(
    h.events
      .filter((e) => e.event === 'act' && stale.some((s) => s.contender === e.id && s.first <= e.t && e.t <= s.last))
      .map((e) => `${e.id}@${e.t}`),
  );
  const againstZk = actsAgainstZooKeeper(h, staleKeys);
  const behind = beliefsBehindZooKeeper(h);
  const bothActing = actingOverlaps(h);
  const actingAgainstZk = actingAgainstZooKeeper(h);
  const blind = blindAgainstZooKeeper(h);
  const since = (a: ActingInterval) => `${a.contender} acting since ${formatOffset(a.start, h.start)}`;
  const details: CheckDetail[] = [
    ...bothActing.map((o) => ({
      level: 'violation' as const,
      t: o.start,
      message:
        `${o.a.contender} and ${o.b.contender} both acted as leader by their probes for ${formatDuration(o.ms)} ` +
        `${at(o.start)} (${since(o.a)}, ${since(o.b)})`,
    })),
    ...actingAgainstZk.map((x) => ({
      level: 'violation' as const,
      t: x.start,
      message:
        `${x.span.contender} acted as leader by its probe for ${formatDuration(x.ms)} ` +
        (x.span.start < x.zkSince
          ? `after ZooKeeper gave leadership to ${x.zkLeader} ${at(x.zkSince)}`
          : `while ZooKeeper named ${x.zkLeader} leader (since ${formatOffset(x.zkSince, h.start)})`) +
        ` (${since(x.span)})`,
    })),
    ...blind.map((b) => ({
      level: 'warning' as const,
      t: b.start,
      message:
        `${b.span.contender}'s probe said nothing for ${formatDuration(b.ms)} ${at(b.start)} while ZooKeeper named ` +
        `${b.zkLeader} leader (${b.span.why}): whether it acted then is not known`,
    })),
    ...againstZk.map((a) => ({
      level: 'violation' as const,
      t: a.first,
      message:
        `${a.contender} acted ${a.count}× ${at(a.first)}` +
        (a.count > 1 ? `..${formatOffset(a.last, h.start)}` : '') +
        ` while ZooKeeper's state named ${a.zkLeader} leader (since ${formatOffset(a.zkSince, h.start)})`,
    })),
    ...behind.map((b) => ({
      level: isRisky(b.ms) ? ('warning' as const) : ('info' as const),
      t: b.start,
      message: `${b.contender} believed it led for ${formatDuration(b.ms)} while ZooKeeper named ${b.zkLeader} leader ${at(b.start)}`,
    })),
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
  const violations = stale.length + expired.length + againstZk.length + bothActing.length + actingAgainstZk.length;
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
            againstZk.length > 0 ? `${againstZk.length} time(s) a contender acted while ZooKeeper named another` : '',
            expired.length > 0 ? `${expired.length} claim(s) from an expired session` : '',
            bothActing.length > 0 ? `${bothActing.length} time(s) two nodes acted as leader at once (probes)` : '',
            actingAgainstZk.length > 0
              ? `${actingAgainstZk.length} time(s) a node acted as leader while ZooKeeper named another (probes)`
              : '',
          ]
            .filter(Boolean)
            .join(', '),
    details,
    measurements: [
      { name: 'stale actions', value: stale.reduce((n, s) => n + s.count, 0), unit: 'count' },
      { name: 'claims from an expired session', value: expired.length, unit: 'count' },
      { name: 'belief overlap (unfrozen)', value: overlaps.reduce((n, o) => n + o.capable, 0), unit: 'ms' },
      {
        name: 'acts while ZooKeeper named another leader',
        value: againstZk.reduce((n, a) => n + a.count, 0),
        unit: 'count',
      },
      { name: 'belief behind ZooKeeper', value: behind.reduce((n, b) => n + b.ms, 0), unit: 'ms' },
      { name: 'two nodes acting (probes)', value: bothActing.reduce((n, o) => n + o.ms, 0), unit: 'ms' },
      {
        name: 'acting while ZooKeeper named another leader (probes)',
        value: actingAgainstZk.reduce((n, x) => n + x.ms, 0),
        unit: 'ms',
      },
      { name: 'acting while ZooKeeper named no leader (probes)', value: actingWithoutZkLeader(h), unit: 'ms' },
      { name: PROBES_BLIND, value: blind.reduce((n, b) => n + b.ms, 0), unit: 'ms' },
    ],
  };
}

const options = strict({});

export const singleLeaderChecker: Checker<'singleLeader', typeof options> = {
  name: 'singleLeader',
  options,
  byDefault: true,
  run: (h) => checkSingleLeader(h),
};
