import type { ContenderEvent } from '../contenders/events.js';
import { normalizeSessionId } from '../ensemble/fourlw.js';
import type { ClaimedState, ContenderInput } from './snapshot-input.js';

export type ContenderSummary = Pick<ContenderInput, 'sessionId' | 'pastSessionIds' | 'state' | 'childWatches' | 'recipe'>;

const SINGLE_FILE_STATES: Readonly<Record<string, ClaimedState>> = { active: 'leader', inactive: 'follower', paused: 'paused' };

/** What one contender's event log (oldest first) says about it now: its sessions, claimed state and child watches. */
export function summarizeContenderEvents(events: readonly ContenderEvent[]): ContenderSummary {
  let sessionId: string | null = null;
  const pastSessionIds: string[] = [];
  let state: ClaimedState = 'unknown';
  let beforePause: ClaimedState = 'unknown';
  let recipe: string | null = null;
  const childWatches = new Set<string>();

  for (const e of events) {
    if (e.session) {
      const session = normalizeSessionId(e.session);
      if (session !== sessionId) {
        if (sessionId !== null) pastSessionIds.push(sessionId);
        sessionId = session;
        // A new session holds no watches and has not been elected yet.
        childWatches.clear();
        if (state !== 'stopped') state = 'unknown';
      }
    }
    switch (e.event) {
      case 'started':
        if (typeof e['recipe'] === 'string') recipe = e['recipe'];
        break;
      case 'leader':
      case 'follower':
        state = e.event;
        break;
      case 'state': {
        const mapped = e.state === undefined ? undefined : SINGLE_FILE_STATES[e.state];
        if (mapped === 'paused' && state !== 'paused') beforePause = state;
        if (mapped) state = mapped;
        break;
      }
      case 'paused':
        if (state !== 'paused') beforePause = state;
        state = 'paused';
        break;
      case 'resumed':
        state = beforePause;
        break;
      case 'resigned':
        state = 'unknown';
        break;
      case 'expired':
      case 'stopped':
        state = e.event;
        childWatches.clear();
        break;
      case 'watching':
        if (e.kind === 'children' && e.path) childWatches.add(e.path);
        break;
      case 'notified':
        // Watches are one-shot; a deletion fires the child watch on that path as well.
        if (e.path && (e.type === 'children' || e.type === 'deleted')) childWatches.delete(e.path);
        break;
    }
  }
  return { sessionId, pastSessionIds, state, childWatches: [...childWatches], recipe };
}
