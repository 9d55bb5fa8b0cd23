import { normalizeSessionId } from '../zk/session-id.js';
import type { ContenderEvent } from '../lab/events.js';
import { leadershipEndOf } from '../lab/leadership-intervals.js';
import { runsProgram } from './spec.js';

/**
 * A contender's state. running: a program that has not said what it believes (ZooKeeper's view still tells whether
 * it leads); paused: its own pause on a disconnect; frozen: the lab stopped its process (a SIGSTOP), which a summary
 * shows as paused (withProcessFacts) and a drill tells apart.
 */
export type ContenderState =
  | 'starting'
  | 'running'
  | 'joining'
  | 'leader'
  | 'follower'
  | 'paused'
  | 'frozen'
  | 'expired'
  | 'stopped'
  | 'dead';

export interface ContenderSummary {
  readonly state: ContenderState;
  /** When its log last changed its state (its `leader` line for a leader); null before any. */
  readonly stateSince: number | null;
  readonly session: string | null;
  /** Every session this contender has had, oldest first (to map a znode's owner back to a contender). */
  readonly sessions: readonly string[];
  readonly znode: string | null;
  readonly watching: string | null;
  /** Paths it holds a child watch on now (the herd recipe's parent). */
  readonly childWatches: readonly string[];
  readonly token: number | null;
  readonly recipe: string | null;
  readonly lastEventAt: number | null;
  /** The session timeout the server granted (it clamps the one asked for to [2, 20] ticks); null until known. */
  readonly grantedTimeoutMs: number | null;
}

/** The single-file recipe's own words for its states. */
const SINGLE_FILE_STATES: Readonly<Record<string, ContenderState>> = {
  active: 'leader',
  inactive: 'follower',
  paused: 'paused',
};

/** What a contender's own log (oldest first) says about it. The process facts (alive, frozen) are applied by `withProcessFacts`. */
export function summarizeEvents(events: readonly ContenderEvent[]): ContenderSummary {
  let state: ContenderState = 'starting';
  let beforePause: ContenderState = 'joining';
  let session: string | null = null;
  const sessions: string[] = [];
  let znode: string | null = null;
  let watching: string | null = null;
  const childWatches = new Set<string>();
  let token: number | null = null;
  let recipe: string | null = null;
  let granted: { ms: number; own: boolean } | null = null;
  const pause = () => {
    if (state !== 'paused') beforePause = state;
    state = 'paused';
  };
  let stateSince: number | null = null;
  for (const e of events) {
    const stateBefore: ContenderState = state;
    if (e.session) {
      const s = normalizeSessionId(e.session);
      if (!sessions.includes(s)) sessions.push(s);
      // The link daemon's record of a session a recipe did not announce is a side session of its own (the
      // scheduler leader's multi session): the contender's, but not the one it stands in the election with.
      const side =
        e.event === 'session' &&
        recipe !== null &&
        !runsProgram(recipe) &&
        !events.some((o) => o.event !== 'session' && o.session !== null && normalizeSessionId(o.session) === s);
      if (s !== session && !side) {
        // A new session holds no watches and has not been elected yet.
        session = s;
        childWatches.clear();
      }
    }
    // A leadership ends as the drills' history says it does; the token goes with it.
    if (leadershipEndOf(e) !== undefined) token = null;
    switch (e.event) {
      case 'started':
        recipe = e.recipe;
        if (runsProgram(e.recipe)) state = 'running';
        break;
      case 'connected':
        state = 'joining';
        granted = { ms: e.timeoutMs, own: true };
        break;
      case 'session':
        // What the link daemon saw the server grant; a recipe's own word on its session comes first.
        if (!granted?.own) granted = { ms: e.timeoutMs, own: false };
        break;
      case 'joined':
        znode = e.znode ?? null;
        break;
      case 'leader':
        state = 'leader';
        token = e.token;
        watching = null;
        break;
      case 'follower':
        state = 'follower';
        break;
      case 'state': {
        const mapped =
          typeof e.state === 'string' && Object.hasOwn(SINGLE_FILE_STATES, e.state)
            ? SINGLE_FILE_STATES[e.state]
            : undefined;
        if (mapped === 'paused') pause();
        else if (mapped) state = mapped;
        break;
      }
      case 'watching':
        watching = e.path ?? null;
        if (e.kind === 'children' && e.path) childWatches.add(e.path);
        break;
      case 'notified':
        if (e.path === watching) watching = null;
        // Watches are one-shot; a deletion fires the child watch on that path as well.
        if (e.path && (e.type === 'children' || e.type === 'deleted')) childWatches.delete(e.path);
        break;
      case 'paused':
        pause();
        break;
      case 'resumed':
        state = beforePause;
        break;
      case 'resigned':
        if (state === 'leader') state = 'follower';
        break;
      case 'expired':
        state = 'expired';
        znode = null;
        watching = null;
        childWatches.clear();
        break;
      case 'stopped':
        state = 'stopped';
        childWatches.clear();
        break;
      default:
        break;
    }
    if (state !== stateBefore) stateSince = e.t;
  }
  return {
    state,
    stateSince,
    session,
    sessions,
    znode,
    watching,
    childWatches: [...childWatches],
    token,
    recipe,
    lastEventAt: events.at(-1)?.t ?? null,
    grantedTimeoutMs: granted?.ms ?? null,
  };
}

/** A dead process is never a leader; a frozen one is paused whatever it believes. */
export function withProcessFacts(s: ContenderSummary, alive: boolean, frozen: boolean): ContenderSummary {
  if (!alive)
    return { ...s, state: s.state === 'stopped' ? 'stopped' : 'dead', watching: null, childWatches: [], token: null };
  if (frozen) return { ...s, state: 'paused' };
  return s;
}
