import type { DrillContenderState } from '../core/types.js';
import type { WaitCondition } from '../core/wait-condition.js';
import { crashedByFailpoint, intervalAt, isFrozen, silentContenders, type History, zkLeaderAt } from './history.js';
import { doneBy, jobFacts } from './jobs.js';

const STATUS_EVENTS = [
  'started',
  'connected',
  'joined',
  'follower',
  'leader',
  'paused',
  'resumed',
  'expired',
  'resigned',
];

function lastBefore<T extends { t: number }>(xs: readonly T[], t: number): T | undefined {
  let found: T | undefined;
  for (const x of xs) if (x.t <= t) found = x;
  return found;
}

/** Whether the contender's process was gone at t: killed or stopped, and not started again since. */
export function isDead(h: History, contender: string, t: number): boolean {
  const deaths = [
    ...h.lab.filter(
      (e) => (e.event === 'contender-killed' || e.event === 'contender-stopped') && e.contender === contender,
    ),
    ...h.events.filter(
      (e) => e.id === contender && (e.event === 'stopped' || e.event === 'exited' || crashedByFailpoint(e)),
    ),
  ].map((e) => e.t);
  const births = h.events.filter((e) => e.id === contender && e.event === 'started').map((e) => e.t);
  const death = Math.max(-Infinity, ...deaths.filter((d) => d <= t));
  const birth = Math.max(-Infinity, ...births.filter((b) => b <= t));
  return death > -Infinity && death >= birth;
}

/** The contender's state at t, or undefined before it logged anything. Dead > frozen > leader > paused > follower. */
export function stateAt(h: History, contender: string, t: number): DrillContenderState | undefined {
  const own = h.events.filter((e) => e.id === contender);
  const first = own[0];
  if (!first || first.t > t) return isDead(h, contender, t) ? 'dead' : undefined;
  if (isDead(h, contender, t)) return 'dead';
  if (isFrozen(h, contender, t)) return 'frozen';
  if (intervalAt(h, contender, t)) return 'leader';
  const status = lastBefore(
    own.filter((e) => STATUS_EVENTS.includes(e.event)),
    t,
  );
  return status?.event === 'paused' || status?.event === 'expired' ? 'paused' : 'follower';
}

export interface CurrentLeader {
  readonly contender: string;
  readonly token: number | null;
  readonly since: number;
}

/**
 * Who leads at t. Several contenders may believe they lead (a zombie has not heard yet); the highest fencing
 * token is the one ZooKeeper stands behind, the latest claim when tokens are missing.
 */
export function leaderAt(h: History, t: number): CurrentLeader | null {
  const holders = h.contenders
    .filter((c) => !isDead(h, c, t))
    .map((c) => intervalAt(h, c, t))
    .filter((i) => i !== undefined);
  holders.sort((a, b) => (b.token ?? -Infinity) - (a.token ?? -Infinity) || b.start - a.start);
  const best = holders[0];
  return best ? { contender: best.contender, token: best.token, since: best.start } : null;
}

/**
 * Who leads at t, in words for a wait's detail: the contender; or, when none of the drill's contenders leads but
 * ZooKeeper's znodes name another client's session (an ensemble outside the lab, with clients of its own), that
 * session; else nobody.
 */
export function leaderWords(h: History, t: number): string {
  const leader = leaderAt(h, t);
  if (leader !== null) return `${leader.contender} leads`;
  const zk = zkLeaderAt(h, t);
  if (zk?.leader === null && zk.session !== null)
    return (
      `none of the drill's contenders leads: ZooKeeper names session 0x${zk.session}` +
      `${zk.znode === null ? '' : ` (${zk.znode})`}, which is not one of them`
    );
  return 'nobody leads';
}

/** How many contenders are alive at t and have joined (own a znode) since they last started. */
export function joinedCount(h: History, t: number): number {
  const silent = silentContenders(h.events);
  return h.contenders.filter((c) => {
    if (isDead(h, c, t)) return false;
    const own = h.events.filter((e) => e.id === c && e.t <= t);
    const lastStart = lastBefore(
      own.filter((e) => e.event === 'started'),
      t,
    );
    // A silent program has joined once ZooKeeper granted it a session (the link daemon's record).
    const joinedBy = silent.has(c) ? 'session' : 'joined';
    return own.some((e) => e.event === joinedBy && e.t >= (lastStart?.t ?? -Infinity));
  }).length;
}

/**
 * Whether `jobsDone` holds at t: N jobs have their status, or (true) every job submitted so far does, there is at
 * least one, and no stream is still submitting more.
 */
export function jobsDoneHolds(want: true | number, h: History, t: number, streaming = false): boolean {
  const jobs = jobFacts(h).filter((j) => j.submittedAt <= t);
  const done = doneBy(jobs, t);
  return want === true ? !streaming && jobs.length > 0 && done === jobs.length : done >= want;
}

/**
 * Whether the event-based conditions of a wait (leader, leaderIs, joined, jobsDone) hold at t. `serving` and
 * `notServing` are not in the contenders' events: the runner probes the servers for those.
 */
export function waitConditionsHold(
  c: WaitCondition,
  h: History,
  t: number,
  opts: { readonly streaming?: boolean } = {},
): boolean {
  const leader = leaderAt(h, t);
  if (c.leader !== undefined && (leader !== null) !== c.leader) return false;
  if (c.leaderIs !== undefined && leader?.contender !== c.leaderIs) return false;
  if (c.joined !== undefined && joinedCount(h, t) < c.joined) return false;
  if (c.jobsDone !== undefined && !jobsDoneHolds(c.jobsDone, h, t, opts.streaming)) return false;
  return true;
}
