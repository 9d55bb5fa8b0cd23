import type { LabEvent } from './events.js';
/**
 * The protected resource of the lock workload: a small store the lab's daemon serves (src/net/daemon.ts), one
 * register per lock path. Holders write to it with the fencing token of their lock znode (its czxid). With fencing,
 * the store refuses a token lower than the highest it has accepted; without, it accepts every write, and a frozen
 * holder's late write can overwrite a newer holder's (the lost update shows as a value that does not grow).
 *
 * The decisions live here, pure: the daemon applies them and logs each one to the lab's event log, and the same
 * fold rebuilds a register from that log (a restarted daemon, inspect, the drills' fencedWrites check).
 */

/** A fencing token (a czxid) as ZooKeeper's tools print zxids: "0x1a2". */
export function formatToken(token: number): string {
  return `0x${token.toString(16)}`;
}

export interface ResourceState {
  readonly name: string;
  readonly fencing: boolean;
  /** The highest token seen so far, on a read or an accepted write (0: none). */
  readonly token: number;
  /** What the last accepted write stored (the holders count their holds in it). */
  readonly value: number;
  /** Who wrote it (contender id), null before the first write. */
  readonly holder: string | null;
  readonly accepted: number;
  readonly rejected: number;
}

export interface ResourceWrite {
  readonly holder: string;
  readonly token: number;
  readonly value: number;
}

export interface WriteOutcome {
  readonly accepted: boolean;
  /** The highest token seen before this write. */
  readonly lastToken: number;
  /** The value this write replaced (accepted) or would have (rejected). */
  readonly previousValue: number;
  readonly state: ResourceState;
}

export function emptyResource(name: string, fencing: boolean): ResourceState {
  return { name, fencing, token: 0, value: 0, holder: null, accepted: 0, rejected: 0 };
}

export function applyWrite(state: ResourceState, w: ResourceWrite): WriteOutcome {
  const stale = w.token < state.token;
  if (stale && state.fencing) {
    return {
      accepted: false,
      lastToken: state.token,
      previousValue: state.value,
      state: { ...state, rejected: state.rejected + 1 },
    };
  }
  return {
    accepted: true,
    lastToken: state.token,
    previousValue: state.value,
    state: {
      ...state,
      token: Math.max(state.token, w.token),
      value: w.value,
      holder: w.holder,
      accepted: state.accepted + 1,
    },
  };
}

/**
 * A holder presents its token when it reads, at the start of its hold: from then on a lower token is stale, even
 * before the new holder's first write. (Without that, a frozen holder's late write landing between its successor's
 * acquisition and the successor's first write would pass.)
 */
export function applyRead(state: ResourceState, token: number): ResourceState {
  return token > state.token ? { ...state, token } : state;
}

/** Resource names are lock paths. */
export function isResourceName(name: string): boolean {
  return /^(\/[A-Za-z0-9._:-]+)+$/.test(name) && name.length <= 200;
}

/** The registers as the lab's event log tells them: each configuration, then every decision in order. */
export function replayResources(events: readonly LabEvent[]): Map<string, ResourceState> {
  const out = new Map<string, ResourceState>();
  for (const e of events) {
    if (e.event === 'resource-configured') {
      const was = out.get(e.resource);
      out.set(e.resource, was && !e.reset ? { ...was, fencing: e.fencing } : emptyResource(e.resource, e.fencing));
    } else if (e.event === 'resource-read') {
      const was = out.get(e.resource);
      if (was) out.set(e.resource, applyRead(was, e.token));
    } else if (e.event === 'resource-write') {
      const was = out.get(e.resource) ?? emptyResource(e.resource, e.fencing);
      out.set(
        e.resource,
        e.accepted
          ? {
              ...was,
              token: Math.max(was.token, e.token),
              value: e.value,
              holder: e.holder,
              accepted: was.accepted + 1,
            }
          : { ...was, rejected: was.rejected + 1 },
      );
    }
  }
  return out;
}
