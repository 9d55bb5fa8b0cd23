import type { ContenderEvent } from '../lab/events.js';
import { lastProbed } from '../lab/acting-intervals.js';
import { summarizeEvents, type ContenderState } from '../contenders/summary.js';
import type { ClaimedState, ContenderInput } from './snapshot-input.js';

export type ContenderSummary = Pick<
  ContenderInput,
  'sessionId' | 'pastSessionIds' | 'state' | 'stateSince' | 'childWatches' | 'recipe' | 'probed' | 'acquired'
>;

const CLAIMED: Readonly<Record<ContenderState, ClaimedState>> = {
  starting: 'unknown',
  running: 'unknown',
  joining: 'unknown',
  leader: 'leader',
  follower: 'follower',
  paused: 'paused',
  frozen: 'paused',
  expired: 'expired',
  stopped: 'stopped',
  dead: 'unknown',
};

/** What one contender's event log (oldest first) says about it now, in the snapshot's terms. */
export function summarizeContenderEvents(events: readonly ContenderEvent[]): ContenderSummary {
  const s = summarizeEvents(events);
  return {
    sessionId: s.session,
    pastSessionIds: s.sessions.filter((x) => x !== s.session),
    state: CLAIMED[s.state],
    stateSince: s.stateSince,
    childWatches: [...s.childWatches],
    recipe: s.recipe,
    probed: lastProbed(events)?.leads,
    acquired: events.flatMap((e) => (e.event === 'lock-acquired' ? [{ token: e.token, t: e.t }] : [])).slice(-8),
  };
}
