import type { ContenderEvent } from './events.js';

export type ContenderState = 'starting' | 'joining' | 'leader' | 'follower' | 'paused' | 'expired' | 'stopped' | 'dead';

export interface ContenderSummary {
  readonly state: ContenderState;
  readonly session: string | null;
  /** Every session this contender has had, oldest first (to map a znode's owner back to a contender). */
  readonly sessions: readonly string[];
  readonly znode: string | null;
  readonly watching: string | null;
  readonly token: number | null;
  readonly lastEventAt: number | null;
}

/** What a contender's own log says about it. The process facts (alive, frozen) are applied by `withProcessFacts`. */
export function summarizeEvents(events: readonly ContenderEvent[]): ContenderSummary {
  let state: ContenderState = 'starting';
  let beforePause: ContenderState = 'joining';
  let session: string | null = null;
  const sessions: string[] = [];
  let znode: string | null = null;
  let watching: string | null = null;
  let token: number | null = null;
  for (const e of events) {
    if (e.session && !sessions.includes(e.session)) sessions.push(e.session);
    switch (e.event) {
      case 'connected':
        session = e.session;
        state = 'joining';
        break;
      case 'joined':
        znode = (e.znode as string | null) ?? null;
        break;
      case 'leader':
        state = 'leader';
        token = e.token ?? null;
        watching = null;
        break;
      case 'follower':
        state = 'follower';
        token = null;
        break;
      case 'watching':
        watching = e.path ?? null;
        break;
      case 'notified':
        if (e.path === watching) watching = null;
        break;
      case 'paused':
        if (state !== 'paused') beforePause = state;
        state = 'paused';
        break;
      case 'resumed':
        state = beforePause;
        break;
      case 'resigned':
        token = null;
        if (state === 'leader') state = 'follower';
        break;
      case 'expired':
        state = 'expired';
        znode = null;
        watching = null;
        token = null;
        break;
      case 'stopped':
        state = 'stopped';
        break;
      default:
        break;
    }
  }
  return { state, session, sessions, znode, watching, token, lastEventAt: events.at(-1)?.t ?? null };
}

/** A dead process is never a leader; a frozen one is paused whatever it believes. */
export function withProcessFacts(s: ContenderSummary, alive: boolean, frozen: boolean): ContenderSummary {
  if (!alive) return { ...s, state: s.state === 'stopped' ? 'stopped' : 'dead', watching: null, token: null };
  if (frozen) return { ...s, state: 'paused' };
  return s;
}
