import type { ContenderEvent } from '../lab/events.js';
import { summarizeEvents, type ContenderState } from '../contenders/summary.js';
import type { ClaimedState, ContenderInput } from './snapshot-input.js';

export type ContenderSummary = Pick<
  ContenderInput,
  'sessionId' | 'pastSessionIds' | 'state' | 'childWatches' | 'recipe'
>;

const CLAIMED: Readonly<Record<ContenderState, ClaimedState>> = {
  starting: 'unknown',
  running: 'unknown',
  joining: 'unknown',
  leader: 'leader',
  follower: 'follower',
  paused: 'paused',
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
    childWatches: [...s.childWatches],
    recipe: s.recipe,
  };
}
