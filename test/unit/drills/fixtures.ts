import type { ContenderEvent } from '../../../src/lab/events.js';
import { contenderEvent, labEvent } from '../../helpers/events.js';

/** A contender event; the session defaults to `s-<id>` and the znode to the id, as a recorded log would have. */
export const ev = contenderEvent;

export const lab = labEvent;

/** Started, connected and joined at t, as followers. */
export function joinAll(t: number, ids: readonly string[]): ContenderEvent[] {
  return ids.flatMap((id) => [
    ev(t, id, 'started'),
    ev(t, id, 'connected'),
    ev(t, id, 'joined'),
    ev(t, id, 'follower'),
  ]);
}

/** `act` heartbeats every `every` ms in [from, to). */
export function acts(id: string, token: number | null, from: number, to: number, every = 200): ContenderEvent[] {
  const out: ContenderEvent[] = [];
  for (let t = from; t < to; t += every) out.push(ev(t, id, 'act', { token }));
  return out;
}
