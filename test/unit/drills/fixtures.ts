import type { ContenderEvent, ContenderEventName, LabEvent } from '../../../src/contenders/events.js';

/** A contender event; the session defaults to `s-<id>` and the znode to the id, as a recorded log would have. */
export function ev(t: number, id: string, event: ContenderEventName, extra: Record<string, unknown> = {}): ContenderEvent {
  return { t, id, pid: Number(id.slice(1)) || 1, session: `s-${id}`, znode: `/election/${id}`, event, ...extra };
}

export function lab(t: number, event: string, extra: Record<string, unknown> = {}): LabEvent {
  return { t, source: 'lab', event, ...extra };
}

/** Started, connected and joined at t, as followers. */
export function joinAll(t: number, ids: readonly string[]): ContenderEvent[] {
  return ids.flatMap((id) => [ev(t, id, 'started'), ev(t, id, 'connected'), ev(t, id, 'joined'), ev(t, id, 'follower')]);
}

/** `act` heartbeats every `every` ms in [from, to). */
export function acts(id: string, token: number, from: number, to: number, every = 200): ContenderEvent[] {
  const out: ContenderEvent[] = [];
  for (let t = from; t < to; t += every) out.push(ev(t, id, 'act', { token }));
  return out;
}
